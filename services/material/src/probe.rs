//! Probing an uploaded file with GStreamer: the Discoverer for duration, size, frame rate,
//! rotation, audio and codec; a decoding pipeline for the cover and the filmstrip (frames through
//! `videoflip video-direction=auto`, so a rotated phone video is shown upright); and one for the
//! audio's waveform peaks and loudness. Everything here blocks: run it on a blocking thread.
//!
//! Frame pipeline: `uridecodebin → videoflip → videoconvert → videoscale → RGBA at the wanted size
//! → appsink`, prerolled in Paused and seeked (flush, accurate) for each frame.
//! Audio pipeline: `uridecodebin → audioconvert → audioresample → mono F32LE 8 kHz → appsink`,
//! pulled to the end; only per-10 ms peaks and running sums are kept, never the samples.

use std::path::Path;

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use gstreamer_pbutils as pbutils;
use gstreamer_pbutils::prelude::*;

use crate::domain::{MaterialKind, Probed};

/// Seconds any one wait (discovery, preroll, a sample) may take before the file counts as broken.
const WATCHDOG_S: u64 = 20;
/// Frames in a filmstrip sprite.
pub const FILMSTRIP_FRAMES: u32 = 10;
/// Height of a filmstrip frame, pixels.
pub const FILMSTRIP_HEIGHT: u32 = 90;
/// Widest cover, pixels.
const COVER_MAX: u32 = 480;
/// Peaks in a waveform file.
pub const WAVEFORM_PEAKS: usize = 1000;
const AUDIO_RATE: usize = 8000;
/// Samples per stored peak block (10 ms).
const BLOCK: usize = AUDIO_RATE / 100;
/// Loudness written for digital silence, which has no finite dB value.
const FLOOR_DB: f64 = -200.0;

/// Extensions of videos browsers cannot play: they get an H.264/AAC MP4 preview beside the
/// original, which renders keep using.
pub const NEEDS_PREVIEW: [&str; 6] = ["wmv", "avi", "mpg", "mpeg", "vob", "3gp"];

/// Transcodes the video at `src` into an H.264/AAC MP4 at `out` (at most 720 lines, the original's
/// rate) for the browser; `has_audio` adds the AAC track. Waits at most four times the duration.
pub fn preview(src: &Path, out: &Path, has_audio: bool, duration: f64) -> Result<(), String> {
    gst::init().map_err(|e| format!("GStreamer: {e}"))?;
    let uri = gst::glib::filename_to_uri(std::path::absolute(src).map_err(|e| e.to_string())?, None)
        .map_err(|e| e.to_string())?
        .to_string();
    // Each branch starts with a queue, which answers caps queries from downstream, so the delayed
    // link from uridecodebin takes only the pad of its kind.
    let mut description = "uridecodebin name=src src. ! queue ! videoconvert ! videoscale ! \
         video/x-raw,format=I420,height=[2,720],pixel-aspect-ratio=1/1 ! x264enc speed-preset=veryfast bitrate=2000 ! \
         video/x-h264,profile=main ! h264parse ! queue ! mux. mp4mux name=mux faststart=true ! filesink name=sink"
        .to_owned();
    if has_audio {
        description.push_str(" src. ! queue ! audioconvert ! audioresample ! avenc_aac ! aacparse ! queue ! mux.");
    }
    let pipeline = gst::parse::launch(&description)
        .map_err(|e| format!("GStreamer: {e}"))?
        .downcast::<gst::Pipeline>()
        .map_err(|_| "GStreamer: not a pipeline".to_owned())?;
    let running = Running(pipeline);
    running.0.by_name("src").ok_or("GStreamer: no source")?.set_property("uri", uri);
    let location = out.to_str().ok_or("preview path is not UTF-8")?;
    running.0.by_name("sink").ok_or("GStreamer: no sink")?.set_property("location", location);
    running.0.set_state(gst::State::Playing).map_err(|_| "cannot transcode the file".to_owned())?;
    let bus = running.0.bus().ok_or("GStreamer: no bus")?;
    let limit = (duration * 4.0).max(60.0) as u64;
    let msg = bus
        .timed_pop_filtered(gst::ClockTime::from_seconds(limit), &[gst::MessageType::Eos, gst::MessageType::Error])
        .ok_or_else(|| format!("the preview took longer than {limit} s"))?;
    match msg.view() {
        gst::MessageView::Error(e) => Err(format!("cannot transcode the file: {}", e.error().message())),
        _ => Ok(()),
    }
}

/// What probing made: the facts, and the derived files' bytes.
#[derive(Debug, Default)]
pub struct ProbeOutput {
    /// The facts (keys are left empty: the caller stores the files).
    pub probed: Probed,
    /// The cover, JPEG.
    pub cover: Option<Vec<u8>>,
    /// The filmstrip sprite, JPEG.
    pub filmstrip: Option<Vec<u8>>,
    /// The waveform peaks, a JSON array of numbers in 0..=1.
    pub waveform: Option<String>,
}

/// Probes the file at `path` of kind `kind`; the error is the reason shown to the user.
pub fn probe_file(path: &Path, kind: MaterialKind) -> Result<ProbeOutput, String> {
    gst::init().map_err(|e| format!("GStreamer: {e}"))?;
    let uri = gst::glib::filename_to_uri(std::path::absolute(path).map_err(|e| e.to_string())?, None)
        .map_err(|e| e.to_string())?
        .to_string();
    let mut out = ProbeOutput { probed: discover(&uri)?, ..ProbeOutput::default() };
    let p = &mut out.probed;
    match kind {
        MaterialKind::Video => {
            if p.width <= 0 || p.height <= 0 {
                return Err("the file has no video stream".into());
            }
            if p.duration <= 0.0 {
                return Err("the video has no duration".into());
            }
            let (w, h) = upright(p);
            let at = if p.duration > 1.5 { 1.0 } else { 0.0 };
            let cover = grab(&uri, &[at], fit(w, h, COVER_MAX))?;
            out.cover = Some(jpeg(&cover[0])?);
            let n = FILMSTRIP_FRAMES;
            let times: Vec<f64> = (0..n).map(|i| p.duration * (f64::from(i) + 0.5) / f64::from(n)).collect();
            let frame = (even((f64::from(FILMSTRIP_HEIGHT) * f64::from(w) / f64::from(h)).round() as u32), FILMSTRIP_HEIGHT);
            let frames = grab(&uri, &times, frame)?;
            out.filmstrip = Some(jpeg(&sprite(&frames, frame))?);
        }
        MaterialKind::Picture | MaterialKind::Gif => {
            if p.width <= 0 || p.height <= 0 {
                return Err("the file is not a picture that can be decoded".into());
            }
            let (w, h) = upright(p);
            let cover = grab(&uri, &[0.0], fit(w, h, COVER_MAX))?;
            out.cover = Some(jpeg(&cover[0])?);
            if kind == MaterialKind::Picture {
                p.duration = 0.0;
            }
            p.frame_rate = 0.0;
        }
        MaterialKind::Audio => {
            if !p.has_audio {
                return Err("the file has no audio stream".into());
            }
            let a = audio(&uri)?;
            p.mean_db = Some(a.mean_db);
            p.peak_db = Some(a.peak_db);
            out.waveform = Some(serde_json::to_string(&a.peaks).map_err(|e| e.to_string())?);
            p.width = 0;
            p.height = 0;
        }
        _ => {}
    }
    Ok(out)
}

/// Width and height as displayed, after the rotation.
fn upright(p: &Probed) -> (u32, u32) {
    let (w, h) = (p.width.max(1) as u32, p.height.max(1) as u32);
    if p.rotation % 180 == 0 { (w, h) } else { (h, w) }
}

fn even(n: u32) -> u32 {
    (n.max(2) + 1) & !1
}

/// `w`×`h` shrunk (never grown) to at most `max` wide and high, even sides.
fn fit(w: u32, h: u32, max: u32) -> (u32, u32) {
    let scale = (f64::from(max) / f64::from(w.max(h))).min(1.0);
    (even((f64::from(w) * scale).round() as u32), even((f64::from(h) * scale).round() as u32))
}

fn discover(uri: &str) -> Result<Probed, String> {
    let discoverer = pbutils::Discoverer::new(gst::ClockTime::from_seconds(WATCHDOG_S)).map_err(|e| e.to_string())?;
    let info = discoverer.discover_uri(uri).map_err(|e| format!("cannot read the file: {}", e.message()))?;
    match info.result() {
        pbutils::DiscovererResult::Ok => {}
        pbutils::DiscovererResult::Timeout => return Err("reading the file took too long".into()),
        pbutils::DiscovererResult::MissingPlugins => return Err("unsupported format: no decoder for it".into()),
        other => return Err(format!("cannot read the file ({other:?})")),
    }
    let mut p = Probed {
        duration: info.duration().map(|d| d.nseconds() as f64 / 1e9).unwrap_or(0.0),
        has_audio: !info.audio_streams().is_empty(),
        ..Probed::default()
    };
    if let Some(v) = info.video_streams().into_iter().next() {
        p.width = i32::try_from(v.width()).unwrap_or(0);
        p.height = i32::try_from(v.height()).unwrap_or(0);
        let fr = v.framerate();
        if !v.is_image() && fr.denom() > 0 {
            p.frame_rate = f64::from(fr.numer()) / f64::from(fr.denom());
        }
        p.rotation = v.tags().and_then(|t| t.get::<gst::tags::ImageOrientation>().map(|o| rotation(o.get()))).unwrap_or(0);
        p.codec = v.caps().map(|c| pbutils::pb_utils_get_codec_description(&c).to_string()).unwrap_or_default();
    } else if let Some(a) = info.audio_streams().into_iter().next() {
        p.codec = a.caps().map(|c| pbutils::pb_utils_get_codec_description(&c).to_string()).unwrap_or_default();
    }
    Ok(p)
}

/// Degrees from an `image-orientation` tag ("rotate-90", "flip-rotate-270", …).
fn rotation(tag: &str) -> i32 {
    tag.rsplit('-').next().and_then(|d| d.parse().ok()).filter(|d| matches!(d, 90 | 180 | 270)).unwrap_or(0)
}

/// Stops the pipeline on every exit.
struct Running(gst::Pipeline);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.set_state(gst::State::Null);
    }
}

fn first_error(pipeline: &gst::Pipeline) -> Option<String> {
    let bus = pipeline.bus()?;
    while let Some(msg) = bus.pop_filtered(&[gst::MessageType::Error]) {
        if let gst::MessageView::Error(e) = msg.view() {
            return Some(format!("cannot decode the file: {}", e.error().message()));
        }
    }
    None
}

fn settle(pipeline: &gst::Pipeline) -> Result<(), String> {
    let (res, _, _) = pipeline.state(gst::ClockTime::from_seconds(WATCHDOG_S));
    if let Some(e) = first_error(pipeline) {
        return Err(e);
    }
    match res {
        Ok(gst::StateChangeSuccess::Async) => Err("decoding the file took too long".into()),
        Ok(_) => Ok(()),
        Err(_) => Err("cannot decode the file".into()),
    }
}

fn pipeline(description: &str, uri: &str) -> Result<(Running, gst_app::AppSink), String> {
    let pipeline = gst::parse::launch(description)
        .map_err(|e| format!("GStreamer: {e}"))?
        .downcast::<gst::Pipeline>()
        .map_err(|_| "GStreamer: not a pipeline".to_owned())?;
    let running = Running(pipeline);
    let src = running.0.by_name("src").ok_or("GStreamer: no source")?;
    src.set_property("uri", uri);
    let sink = running
        .0
        .by_name("sink")
        .and_then(|s| s.downcast::<gst_app::AppSink>().ok())
        .ok_or("GStreamer: no sink")?;
    Ok((running, sink))
}

/// Frames at `times` (seconds), upright, as RGB pictures of `size`.
fn grab(uri: &str, times: &[f64], size: (u32, u32)) -> Result<Vec<image::RgbImage>, String> {
    let (w, h) = size;
    let description = format!(
        "uridecodebin name=src ! videoflip video-direction=auto ! videoconvert ! videoscale ! \
         video/x-raw,format=RGBA,width={w},height={h},pixel-aspect-ratio=1/1 ! appsink name=sink sync=false max-buffers=1"
    );
    let (running, sink) = pipeline(&description, uri)?;
    running.0.set_state(gst::State::Paused).map_err(|_| "cannot decode the file".to_owned())?;
    settle(&running.0)?;
    let mut frames = Vec::with_capacity(times.len());
    for (i, t) in times.iter().enumerate() {
        if i > 0 || *t > 0.0 {
            let pos = gst::ClockTime::from_nseconds((t * 1e9) as u64);
            running
                .0
                .seek_simple(gst::SeekFlags::FLUSH | gst::SeekFlags::ACCURATE, pos)
                .map_err(|_| format!("cannot seek to {t:.1} s"))?;
            settle(&running.0)?;
        }
        let sample = sink
            .try_pull_preroll(gst::ClockTime::from_seconds(WATCHDOG_S))
            .ok_or_else(|| first_error(&running.0).unwrap_or_else(|| format!("no picture at {t:.1} s")))?;
        let buffer = sample.buffer().ok_or("a frame without data")?;
        let map = buffer.map_readable().map_err(|_| "an unreadable frame".to_owned())?;
        let rgba = image::RgbaImage::from_raw(w, h, map.as_slice().to_vec()).ok_or("a frame of the wrong size")?;
        frames.push(image::DynamicImage::ImageRgba8(rgba).to_rgb8());
    }
    Ok(frames)
}

fn sprite(frames: &[image::RgbImage], (w, h): (u32, u32)) -> image::RgbImage {
    let mut out = image::RgbImage::new(w * frames.len() as u32, h);
    for (i, f) in frames.iter().enumerate() {
        image::imageops::replace(&mut out, f, i64::from(w) * i as i64, 0);
    }
    out
}

/// The cover of a picture already in memory, made as an upload's is: at most 480 px, JPEG.
pub(crate) fn cover_of(picture: &image::RgbaImage) -> Result<Vec<u8>, String> {
    let (w, h) = fit(picture.width(), picture.height(), COVER_MAX);
    let small = image::imageops::thumbnail(picture, w, h);
    jpeg(&image::DynamicImage::ImageRgba8(small).to_rgb8())
}

fn jpeg(img: &image::RgbImage) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 82)
        .encode_image(img)
        .map_err(|e| format!("cover: {e}"))?;
    Ok(out)
}

/// The waveform and loudness of an audio file.
struct Audio {
    peaks: Vec<f32>,
    mean_db: f64,
    peak_db: f64,
}

fn audio(uri: &str) -> Result<Audio, String> {
    let description = format!(
        "uridecodebin name=src ! audioconvert ! audioresample ! \
         audio/x-raw,format=F32LE,channels=1,rate={AUDIO_RATE} ! appsink name=sink sync=false max-buffers=16"
    );
    let (running, sink) = pipeline(&description, uri)?;
    running.0.set_state(gst::State::Playing).map_err(|_| "cannot decode the audio".to_owned())?;
    let mut blocks: Vec<f32> = Vec::new();
    let (mut block_peak, mut in_block) = (0f32, 0usize);
    let (mut sum_sq, mut count, mut peak) = (0f64, 0u64, 0f32);
    loop {
        let Some(sample) = sink.try_pull_sample(gst::ClockTime::from_seconds(WATCHDOG_S)) else {
            if let Some(e) = first_error(&running.0) {
                return Err(e);
            }
            if sink.is_eos() {
                break;
            }
            return Err("decoding the audio took too long".into());
        };
        let Some(buffer) = sample.buffer() else { continue };
        let map = buffer.map_readable().map_err(|_| "an unreadable audio buffer".to_owned())?;
        for b in map.as_slice().chunks_exact(4) {
            let v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]).abs();
            sum_sq += f64::from(v) * f64::from(v);
            count += 1;
            peak = peak.max(v);
            block_peak = block_peak.max(v);
            in_block += 1;
            if in_block == BLOCK {
                blocks.push(block_peak);
                (block_peak, in_block) = (0.0, 0);
            }
        }
    }
    if in_block > 0 {
        blocks.push(block_peak);
    }
    if count == 0 {
        return Err("the audio has no samples".into());
    }
    // Power ratio to dB; digital silence (0) has no finite value.
    let db = |power: f64| if power > 0.0 { (10.0 * power.log10()).max(FLOOR_DB) } else { FLOOR_DB };
    let peak = f64::from(peak);
    Ok(Audio { peaks: peaks(&blocks, WAVEFORM_PEAKS), mean_db: db(sum_sq / count as f64), peak_db: db(peak * peak) })
}

/// At most `n` peaks: the largest of each of `n` equal runs of `blocks`, rounded to 3 decimals.
fn peaks(blocks: &[f32], n: usize) -> Vec<f32> {
    let runs = blocks.len().min(n).max(1);
    (0..runs)
        .map(|i| {
            let (a, b) = (i * blocks.len() / runs, ((i + 1) * blocks.len() / runs).max(i * blocks.len() / runs + 1));
            let m = blocks.get(a..b.min(blocks.len())).unwrap_or(&[]).iter().fold(0f32, |m, v| m.max(*v));
            (m.min(1.0) * 1000.0).round() / 1000.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peaks_cover_every_block() {
        let blocks: Vec<f32> = (0..2500).map(|i| if i == 2499 { 0.9 } else { 0.1 }).collect();
        let p = peaks(&blocks, 1000);
        assert_eq!(p.len(), 1000);
        assert_eq!(p[999], 0.9, "the last block lands in the last peak");
        assert_eq!(peaks(&[0.5, 0.25], 1000), vec![0.5, 0.25]);
    }

    #[test]
    fn sizes_and_rotations() {
        assert_eq!(fit(1920, 1080, 480), (480, 270));
        assert_eq!(fit(100, 50, 480), (100, 50));
        assert_eq!(rotation("rotate-90"), 90);
        assert_eq!(rotation("flip-rotate-270"), 270);
        assert_eq!(rotation("rotate-0"), 0);
    }
}
