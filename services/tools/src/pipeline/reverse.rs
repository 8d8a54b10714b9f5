//! VIDEO_REVERSE: the video played backwards, its sound reversed with it (a silent input makes a
//! silent output). As the render engine's reverse playback (`services/render/src/engine/spool.rs`,
//! `Spool`), the input is decoded forwards once into a spool of raw frames, then read back from its
//! end, so memory holds one frame, not the clip. The spools are partial files in the job's
//! directory, removed once the output is written (or with the other partial files on a failure).
//!
//! `decodebin → videoconvert → I420 appsink` (each frame's time and length kept), and
//! `decodebin → audioconvert → audioresample → F32 stereo appsink`, into the spools; then
//! `appsrc (frames, last first) → x264 → mp4mux` with `appsrc (sample frames, last first) → AAC`
//! beside it, the sound pushed from its own thread so that neither branch waits on the other.
//! A frame shown from `t` for `d` is shown from `T − t − d`, `T` the end of the last frame:
//! the output lasts as long as the input and its first frame is the input's last.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;

use super::{Job, Output, OutputKind, Progress, aac, x264_quality};
use crate::error::ToolError;
use crate::gst_run::{PICTURES, app_sink, element, launch, pull, sound_only};

/// The sound's rate and channels in its spool.
const RATE: u64 = 48_000;
const CHANNELS: u64 = 2;
/// Bytes of one sample frame (F32, two channels).
const SAMPLE_FRAME: u64 = 4 * CHANNELS;
/// Sample frames per pushed sound buffer.
const SOUND_CHUNK: u64 = 1024;
/// Shares of the progress: the pictures' spool, the sound's, then the encode.
const SPOOL_FRAMES: f64 = 0.4;
const SPOOL_SOUND: f64 = 0.1;

/// The decoded pictures on disk: I420 frames of one size, in decode order, with their times.
struct Frames {
    file: File,
    caps: gst::Caps,
    /// Bytes of one frame.
    len: u64,
    /// Each frame's start from the first frame's, and its length, ns.
    times: Vec<(u64, u64)>,
}

impl Frames {
    /// The end of the last frame, ns from the first frame's start.
    fn end(&self) -> u64 {
        self.times.last().map_or(0, |(t, d)| t + d)
    }
}

/// The decoded sound on disk: F32 stereo sample frames at [`RATE`].
struct Sound {
    file: File,
    frames: u64,
}

impl Job<'_> {
    pub(super) fn reverse(&mut self) -> Result<Vec<Output>, ToolError> {
        let frames_path = self.partial("spool-frames.raw");
        let sound_path = self.partial("spool-sound.raw");
        let frames = self.spool_frames(&frames_path)?;
        let sound = if self.facts.audio { Some(self.spool_sound(&sound_path)?) } else { None };
        let out = self.partial("reverse.mp4");
        self.encode_backwards(&frames, sound.as_ref(), &out)?;
        drop((frames, sound));
        for spool in [&frames_path, &sound_path] {
            if let Err(e) = std::fs::remove_file(spool)
                && e.kind() != std::io::ErrorKind::NotFound
            {
                return Err(e.into());
            }
        }
        Ok(vec![self.output(out, OutputKind::Video, "reverse.mp4")?])
    }

    /// Decodes the pictures into `path`.
    fn spool_frames(&mut self, path: &Path) -> Result<Frames, ToolError> {
        let decode = launch(
            &format!(
                "filesrc name=src ! decodebin name=d {PICTURES} ! queue ! videoconvert ! video/x-raw,format=I420 \
                 ! appsink name=frames sync=false max-buffers=4{}",
                self.drain_sound()
            ),
            Some(self.input),
            None,
        )?;
        let sink = app_sink(&decode.0, "frames")?;
        let bus = decode.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        decode.0.set_state(gst::State::Playing)?;
        let file = File::options().read(true).write(true).create(true).truncate(true).open(path)?;
        let mut out = BufWriter::with_capacity(1 << 20, file.try_clone()?);
        let fps = self.facts.video.map_or(0.0, |(_, _, fps)| fps);
        let default_ns = if fps > 0.0 { (1e9 / fps).round() as u64 } else { 40_000_000 };
        let (mut caps, mut len, mut first, mut times) = (None, 0u64, None, Vec::new());
        let total = self.facts.duration_ms.max(1);
        while let Some(sample) = pull(&bus, &sink, self.cancel)? {
            let Some(buffer) = sample.buffer() else { continue };
            let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
            if caps.is_none() {
                caps = sample.caps().map(|c| c.to_owned());
                len = map.len() as u64;
            }
            if map.len() as u64 != len {
                return Err(ToolError::Failed("the video changes its picture size: it cannot be reversed".to_owned()));
            }
            out.write_all(&map)?;
            let pts = buffer.pts().map_or(0, gst::ClockTime::nseconds);
            let start = pts.saturating_sub(*first.get_or_insert(pts));
            times.push((start, buffer.duration().map_or(default_ns, gst::ClockTime::nseconds).max(1)));
            let at = (start / 1_000_000).min(total);
            (self.progress)(Progress { done_ms: (SPOOL_FRAMES * at as f64) as u64, total_ms: total });
        }
        drop(decode);
        out.flush()?;
        drop(out);
        let Some(caps) = caps.filter(|_| !times.is_empty()) else {
            return Err(ToolError::Failed("no picture could be decoded".to_owned()));
        };
        // The decoder gives its frames in presentation order: the spool is in the clip's order.
        Ok(Frames { file, caps, len, times })
    }

    /// Decodes the sound into `path`.
    fn spool_sound(&mut self, path: &Path) -> Result<Sound, ToolError> {
        let decode = launch(
            &format!(
                "filesrc name=src ! decodebin name=d d. ! audio/x-raw ! queue ! audioconvert ! audioresample \
                 ! audio/x-raw,format=F32LE,layout=interleaved,rate={RATE},channels={CHANNELS} ! appsink name=sound sync=false max-buffers=8"
            ),
            Some(self.input),
            None,
        )?;
        sound_only(&decode.0, "d")?;
        let sink = app_sink(&decode.0, "sound")?;
        let bus = decode.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        decode.0.set_state(gst::State::Playing)?;
        let file = File::options().read(true).write(true).create(true).truncate(true).open(path)?;
        let mut out = BufWriter::with_capacity(1 << 20, file.try_clone()?);
        let mut bytes = 0u64;
        let total = self.facts.duration_ms.max(1);
        while let Some(sample) = pull(&bus, &sink, self.cancel)? {
            let Some(buffer) = sample.buffer() else { continue };
            let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
            out.write_all(&map)?;
            bytes += map.len() as u64;
            let at = (bytes / SAMPLE_FRAME * 1000 / RATE).min(total);
            (self.progress)(Progress { done_ms: ((SPOOL_FRAMES + SPOOL_SOUND * at as f64 / total as f64) * total as f64) as u64, total_ms: total });
        }
        drop(decode);
        out.flush()?;
        Ok(Sound { file, frames: bytes / SAMPLE_FRAME })
    }

    /// Encodes the spools read from their ends into `out`.
    fn encode_backwards(&mut self, frames: &Frames, sound: Option<&Sound>, out: &Path) -> Result<(), ToolError> {
        let audio = match sound {
            Some(_) => format!(
                " appsrc name=sound format=time block=true max-bytes=1048576 \
                 caps=audio/x-raw,format=F32LE,layout=interleaved,rate={RATE},channels={CHANNELS} \
                 ! audioconvert ! {} bitrate=128000 ! queue ! mux.",
                aac()
            ),
            None => String::new(),
        };
        let description = format!(
            "appsrc name=frames format=time block=true max-bytes=16777216 ! queue ! {} ! queue \
             ! mp4mux name=mux faststart=true ! filesink name=sink{audio}",
            x264_quality(18)
        );
        let encode = launch(&description, None, Some(out))?;
        let src = |name: &str| -> Result<gst_app::AppSrc, ToolError> {
            element(&encode.0, name)?.downcast::<gst_app::AppSrc>().map_err(|_| ToolError::Gst(format!("{name} is not an appsrc")))
        };
        let picture_src = src("frames")?;
        picture_src.set_caps(Some(&frames.caps));
        let sound_src = if sound.is_some() { Some(src("sound")?) } else { None };
        encode.0.set_state(gst::State::Playing)?;
        let bus = encode.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        let end = frames.end();
        let total = self.facts.duration_ms.max(1);
        let from = SPOOL_FRAMES + SPOOL_SOUND;
        let stop = AtomicBool::new(false);
        let cancel = self.cancel;
        let progress = &mut *self.progress;
        std::thread::scope(|scope| -> Result<(), ToolError> {
            let sounding = match (sound, &sound_src) {
                (Some(sound), Some(s)) => Some(scope.spawn(|| push_sound_backwards(sound, s, cancel, &stop))),
                _ => None,
            };
            let pictures = (|| -> Result<(), ToolError> {
                let mut px = vec![0u8; usize::try_from(frames.len).unwrap_or(0)];
                for (i, (k, (t, d))) in frames.times.iter().enumerate().rev().enumerate() {
                    if cancel.load(Ordering::Relaxed) {
                        return Err(ToolError::Cancelled);
                    }
                    if let Some(msg) = bus.pop_filtered(&[gst::MessageType::Error])
                        && let gst::MessageView::Error(e) = msg.view()
                    {
                        return Err(crate::gst_run::bus_error(e));
                    }
                    frames.file.read_exact_at(&mut px, k as u64 * frames.len)?;
                    let mut buffer = gst::Buffer::from_mut_slice(px.clone());
                    {
                        let b = buffer.get_mut().ok_or_else(|| ToolError::Failed("a new buffer is not writable".to_owned()))?;
                        b.set_pts(gst::ClockTime::from_nseconds(end.saturating_sub(t + d)));
                        b.set_duration(gst::ClockTime::from_nseconds(*d));
                    }
                    picture_src.push_buffer(buffer).map_err(|e| ToolError::Failed(format!("the encoder refused a picture: {e}")))?;
                    let done = (i as u64 + 1) * total / frames.times.len() as u64;
                    progress(Progress { done_ms: ((from + (1.0 - from) * 0.9 * done as f64 / total as f64) * total as f64) as u64, total_ms: total });
                }
                picture_src.end_of_stream().map_err(|e| ToolError::Failed(format!("the encoder refused the end: {e}")))?;
                Ok(())
            })();
            if pictures.is_err() {
                // The sound's thread may wait in a full appsrc: flushing the pipeline frees it.
                stop.store(true, Ordering::Relaxed);
                let _ = encode.0.set_state(gst::State::Null);
            }
            let sounded = sounding.map_or(Ok(()), |h| h.join().unwrap_or_else(|_| Err(ToolError::Failed("the sound's thread panicked".to_owned()))));
            pictures.and(sounded)
        })?;
        crate::gst_run::play(&encode, self.cancel, &mut |_| {})?;
        (self.progress)(Progress { done_ms: total, total_ms: total });
        Ok(())
    }
}

/// Pushes the spooled sound into `src` from its last sample frame to its first, then its end.
fn push_sound_backwards(sound: &Sound, src: &gst_app::AppSrc, cancel: &AtomicBool, stop: &AtomicBool) -> Result<(), ToolError> {
    let mut left = sound.frames;
    let mut at = 0u64;
    let mut bytes = vec![0u8; (SOUND_CHUNK * SAMPLE_FRAME) as usize];
    while left > 0 {
        if cancel.load(Ordering::Relaxed) || stop.load(Ordering::Relaxed) {
            return Err(ToolError::Cancelled);
        }
        let n = left.min(SOUND_CHUNK);
        left -= n;
        let chunk = &mut bytes[..(n * SAMPLE_FRAME) as usize];
        sound.file.read_exact_at(chunk, left * SAMPLE_FRAME)?;
        let reversed: Vec<u8> = chunk.chunks_exact(SAMPLE_FRAME as usize).rev().flatten().copied().collect();
        let mut buffer = gst::Buffer::from_mut_slice(reversed);
        {
            let b = buffer.get_mut().ok_or_else(|| ToolError::Failed("a new buffer is not writable".to_owned()))?;
            b.set_pts(gst::ClockTime::from_nseconds(at * 1_000_000_000 / RATE));
            b.set_duration(gst::ClockTime::from_nseconds(n * 1_000_000_000 / RATE));
        }
        at += n;
        src.push_buffer(buffer).map_err(|e| ToolError::Failed(format!("the encoder refused the sound: {e}")))?;
    }
    src.end_of_stream().map_err(|e| ToolError::Failed(format!("the encoder refused the end: {e}")))?;
    Ok(())
}
