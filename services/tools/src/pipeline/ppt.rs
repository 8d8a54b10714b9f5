//! PPT_CONVERTER: a pptx as a video of its pages. LibreOffice (headless, its own profile in the
//! run's scratch directory, under a time limit) prints the presentation to a PDF, poppler's
//! `pdftoppm` draws each page as a PNG (its longer side the frame's width), and each page is
//! scaled into the frame (aspect kept, black bars) and shown for its seconds at 25 fps, crossfading
//! into the next over the end of the page when asked:
//!
//! `soffice --convert-to pdf → pdftoppm -png → (per page) pngdec ! videoscale ! I420 appsink`
//! `→ frames (the crossfade mixed in Rust) → appsrc ! x264 ! mp4mux`

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;

use super::{Job, Output, OutputKind, Progress, x264_quality};
use crate::error::{ParamError, ToolError};
use crate::gst_run::{app_sink, element, file_uri, launch, pull};
use crate::look_params::Slides;
use crate::probe::picture_size;

/// The video's frame rate.
const FPS: u64 = 25;
/// Longest LibreOffice may take to print a presentation, and poppler to draw its pages.
const CONVERT_LIMIT: Duration = Duration::from_secs(180);
/// Most pages a presentation may have.
pub const MAX_PAGES: usize = 500;

/// The full path of a program on `PATH`.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join(name)).find(|p| p.is_file())
}

/// LibreOffice's `soffice` and poppler's `pdftoppm`, or which is missing.
pub fn office_programs() -> Result<(PathBuf, PathBuf), String> {
    let soffice = on_path("soffice").ok_or("LibreOffice (soffice) is not installed")?;
    let pdftoppm = on_path("pdftoppm").ok_or("poppler (pdftoppm) is not installed")?;
    Ok((soffice, pdftoppm))
}

/// Runs `command` to its end within [`CONVERT_LIMIT`], killing it on a cancel or past the limit;
/// its standard error is returned (LibreOffice says there why it could not load a file).
fn run_program(mut command: Command, what: &str, cancel: &std::sync::atomic::AtomicBool) -> Result<String, ToolError> {
    let mut child = command.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).spawn()?;
    let started = Instant::now();
    // Read on a thread: a full pipe would stall the program.
    let mut stderr = child.stderr.take();
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        if let Some(e) = stderr.as_mut() {
            let _ = e.read_to_string(&mut text);
        }
        text
    });
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break status;
        }
        let stop = if cancel.load(Ordering::Relaxed) {
            Some(ToolError::Cancelled)
        } else if started.elapsed() > CONVERT_LIMIT {
            Some(ToolError::Failed(format!("{what} took longer than {} s", CONVERT_LIMIT.as_secs())))
        } else {
            None
        };
        if let Some(e) = stop {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    let text = reader.join().unwrap_or_default();
    if !status.success() {
        return Err(ToolError::Failed(format!("{what} failed ({status}): {}", text.trim())));
    }
    Ok(text)
}

/// The PNG pages `pdftoppm` wrote into `dir` (`page-1.png`, or `page-01.png` past 9 pages), in order.
fn pages(dir: &Path) -> Result<Vec<PathBuf>, ToolError> {
    let mut found: Vec<(u32, PathBuf)> = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?;
            let n = name.strip_prefix("page-")?.strip_suffix(".png")?.parse().ok()?;
            Some((n, p))
        })
        .collect();
    found.sort();
    Ok(found.into_iter().map(|(_, p)| p).collect())
}

/// A page drawn into the frame as an I420 buffer (the layout the encoder's caps give).
fn load_page(path: &Path, (w, h): (u32, u32), cancel: &std::sync::atomic::AtomicBool) -> Result<Vec<u8>, ToolError> {
    let description = format!(
        "filesrc name=src ! pngdec ! videoconvert ! videoscale add-borders=true \
         ! video/x-raw,format=I420,width={w},height={h},pixel-aspect-ratio=1/1 ! appsink name=sink sync=false"
    );
    let running = launch(&description, Some(path), None)?;
    let sink = app_sink(&running.0, "sink")?;
    let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
    running.0.set_state(gst::State::Playing)?;
    let sample = pull(&bus, &sink, cancel)?.ok_or_else(|| ToolError::Failed(format!("page {} could not be decoded", path.display())))?;
    let buffer = sample.buffer().ok_or_else(|| ToolError::Failed("a page without a buffer".to_owned()))?;
    let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
    Ok(map.to_vec())
}

/// Removes the conversion's scratch directory (its profile, PDF and pages) however the run ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Job<'_> {
    pub(super) fn slides(&mut self, s: &Slides) -> Result<Vec<Output>, ToolError> {
        let (soffice, pdftoppm) = office_programs().map_err(|why| ToolError::Failed(format!("PPT_CONVERTER is not configured: {why}")))?;
        let work = Scratch(self.dir.join("ppt-work"));
        std::fs::create_dir_all(&work.0)?;
        let shown = self.input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // LibreOffice picks its import filter by the name as well as the content.
        let deck = work.0.join("slides.pptx");
        std::fs::copy(self.input, &deck)?;
        let mut office = Command::new(soffice);
        office
            .arg(format!("-env:UserInstallation={}", file_uri(&work.0.join("profile"))?))
            .args(["--headless", "--norestore", "--nolockcheck", "--convert-to", "pdf", "--outdir"])
            .arg(&work.0)
            .arg(&deck)
            .env("HOME", &work.0);
        let said = run_program(office, "LibreOffice", self.cancel)?;
        let pdf = work.0.join("slides.pdf");
        if !pdf.is_file() {
            let why = said.lines().find(|l| l.contains("Error")).unwrap_or("it wrote no PDF").trim().to_owned();
            return Err(ParamError::new("materialIds", format!("LibreOffice cannot open the presentation {shown}: {why}")).into());
        }
        (self.progress)(Progress { done_ms: 25, total_ms: 100 });
        let long_side = if s.height == 720 { 1280 } else { 1920 };
        let mut draw = Command::new(pdftoppm);
        draw.args(["-png", "-scale-to", &long_side.to_string(), "-l", &MAX_PAGES.to_string()]).arg(&pdf).arg(work.0.join("page"));
        run_program(draw, "pdftoppm", self.cancel)?;
        let pages = pages(&work.0)?;
        let Some(first) = pages.first() else {
            return Err(ParamError::new("materialIds", format!("the presentation {shown} has no page")).into());
        };
        let (pw, ph) = picture_size(first).map_err(ToolError::Failed)?;
        let (w, h) = s.frame(pw, ph);
        (self.progress)(Progress { done_ms: 30, total_ms: 100 });
        let name = "slides.mp4";
        let out = self.partial(name);
        let description = format!(
            "appsrc name=src format=time block=true max-bytes=33554432 \
             caps=video/x-raw,format=I420,width={w},height={h},framerate={FPS}/1,pixel-aspect-ratio=1/1 \
             ! queue ! {} ! mp4mux faststart=true ! filesink name=sink",
            x264_quality(20)
        );
        let encode = launch(&description, None, Some(&out))?;
        let src = element(&encode.0, "src")?.downcast::<gst_app::AppSrc>().map_err(|_| ToolError::Gst("src is not an appsrc".to_owned()))?;
        let bus = encode.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        encode.0.set_state(gst::State::Playing)?;
        let per_page = s.page_ms * FPS / 1000;
        let fade = s.crossfade_ms * FPS / 1000;
        let total = per_page * pages.len() as u64;
        let frame_ns = 1_000_000_000 / FPS;
        let mut at = 0u64;
        let mut current = load_page(first, (w, h), self.cancel)?;
        let mut mixed = vec![0u8; current.len()];
        for i in 0..pages.len() {
            let next = match pages.get(i + 1) {
                Some(p) if fade > 0 => Some(load_page(p, (w, h), self.cancel)?),
                _ => None,
            };
            for k in 0..per_page {
                if self.cancel.load(Ordering::Relaxed) {
                    return Err(ToolError::Cancelled);
                }
                // The last `fade` frames of a page move towards the next one, reaching it on the
                // next page's first frame.
                let into = (k + fade).checked_sub(per_page);
                let picture = match (&next, into) {
                    (Some(n), Some(j)) if n.len() == current.len() => {
                        reelforge_pixels::looks::mix(&current, n, (j + 1) as f32 / (fade + 1) as f32, &mut mixed);
                        &mixed
                    }
                    _ => &current,
                };
                let mut buffer = gst::Buffer::from_slice(picture.clone());
                if let Some(b) = buffer.get_mut() {
                    b.set_pts(gst::ClockTime::from_nseconds(at * frame_ns));
                    b.set_duration(gst::ClockTime::from_nseconds(frame_ns));
                }
                src.push_buffer(buffer).map_err(|e| ToolError::Failed(format!("the encoder refused a page: {e}")))?;
                if let Some(msg) = bus.pop_filtered(&[gst::MessageType::Error])
                    && let gst::MessageView::Error(e) = msg.view()
                {
                    return Err(crate::gst_run::bus_error(e));
                }
                at += 1;
            }
            (self.progress)(Progress { done_ms: 30 + 65 * at / total.max(1), total_ms: 100 });
            current = match next {
                Some(n) => n,
                None => match pages.get(i + 1) {
                    Some(p) => load_page(p, (w, h), self.cancel)?,
                    None => break,
                },
            };
        }
        src.end_of_stream().map_err(|e| ToolError::Failed(format!("the encoder refused the end: {e}")))?;
        crate::gst_run::play(&encode, self.cancel, &mut |_| {})?;
        drop(encode);
        Ok(vec![self.output(out, OutputKind::Video, name)?])
    }
}
