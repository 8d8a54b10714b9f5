//! The sound pass: decodes the audio once and measures it (EBU R128 integrated loudness and true
//! peak, and the sound half of the loop seam from the same samples), counting the video stream's
//! bytes on the way without decoding it.
//!
//! Pipeline: `filesrc ! decodebin ! audioconvert ! audio/x-raw,format=F32LE,layout=interleaved !
//! appsink`, with decodebin leaving the video encoded: its pad goes to a `fakesink` whose probe
//! counts the access units' bytes (the bitrate rule).

use crate::ConformError;
use crate::gst_util::{
    Kind, PipelineGuard, bus_error, drain, leave_encoded, make, pull, wait_eos, wait_state,
};
use ebur128::{EbuR128, Mode};
use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// The seam compares this much sound at each end, seconds.
const SEAM_SECONDS: f64 = 0.05;
/// Integrated loudness of silence is −∞; it reads as the R128 absolute gate instead.
const LOUDNESS_FLOOR: f64 = -70.0;
/// True peak and seam levels of digital silence read as this, dB.
const LEVEL_FLOOR: f64 = -120.0;
/// Digital silence at either end, up to this many frames, is an AAC encoder's priming or padding
/// (1024 to 2112 samples; the GStreamer encoders' is not cut by an edit list) and not part of the
/// seam: a steady tone would otherwise jump by 5 dB.
const CODEC_SILENCE_FRAMES: usize = 4096;
/// A sample this close to zero is digital silence (−100 dBFS).
const SILENCE: f32 = 1e-5;

/// What the sound pass measured.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SoundPass {
    /// The audio's measurements; `None` without an audio stream.
    pub sound: Option<Sound>,
    /// The video stream's encoded bytes; `None` when they could not be counted.
    pub video_bytes: Option<u64>,
}

/// The audio's measurements.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sound {
    /// Integrated loudness, LUFS.
    pub loudness_lufs: f64,
    /// True peak over all channels, dBTP.
    pub true_peak_dbtp: f64,
    /// RMS level difference between the last and the first 50 ms, dB.
    pub jump_db: f64,
}

/// Runs the sound pass over `path`, giving up after `timeout_s` seconds without progress or when
/// `stop` is set.
pub fn sound_pass(
    path: &Path,
    timeout_s: u64,
    stop: &AtomicBool,
) -> Result<SoundPass, ConformError> {
    let pipeline = gst::Pipeline::new();
    let guard = PipelineGuard(pipeline.clone());
    let src = make("filesrc")?;
    src.set_property("location", path.to_string_lossy().to_string());
    let decode = make("decodebin")?;
    leave_encoded(&decode, Kind::Video);
    let convert = make("audioconvert")?;
    let caps = gst::Caps::builder("audio/x-raw")
        .field("format", "F32LE")
        .field("layout", "interleaved")
        .build();
    let sink = gst_app::AppSink::builder().caps(&caps).sync(false).build();
    pipeline.add_many([&src, &decode, &convert, sink.upcast_ref()])?;
    src.link(&decode)?;
    convert.link(&sink)?;

    let video_bytes = Arc::new(AtomicU64::new(0));
    let counted = Arc::new(AtomicBool::new(false));
    let audio_linked = Arc::new(AtomicBool::new(false));
    {
        let (pipeline, convert, video_bytes, counted, audio_linked) = (
            pipeline.downgrade(),
            convert.clone(),
            video_bytes.clone(),
            counted.clone(),
            audio_linked.clone(),
        );
        decode.connect_pad_added(move |_, pad| {
            let Some(pipeline) = pipeline.upgrade() else {
                return;
            };
            let caps = pad.current_caps().unwrap_or_else(|| pad.query_caps(None));
            let name = caps
                .structure(0)
                .map(|s| s.name().to_string())
                .unwrap_or_default();
            if name.starts_with("audio/x-raw") && !audio_linked.swap(true, Ordering::SeqCst) {
                if let Some(sinkpad) = convert.static_pad("sink") {
                    let _ = pad.link(&sinkpad);
                }
                return;
            }
            // Anything else is drained; the first encoded video stream is also counted.
            let count = name.starts_with("video/")
                && !name.starts_with("video/x-raw")
                && !counted.swap(true, Ordering::SeqCst);
            let _ = drain(&pipeline, pad, count.then(|| video_bytes.clone()));
        });
    }
    let absent = Arc::new(AtomicBool::new(false));
    {
        let (absent, audio_linked) = (absent.clone(), audio_linked.clone());
        decode.connect_no_more_pads(move |_| {
            absent.store(!audio_linked.load(Ordering::SeqCst), Ordering::SeqCst)
        });
    }

    pipeline.set_state(gst::State::Paused).map_err(|_| {
        bus_error(&pipeline)
            .unwrap_or_else(|| ConformError::NotMedia("the file could not be opened".to_owned()))
    })?;
    if !wait_state(&pipeline, timeout_s, &absent, stop)? {
        // No sound: the appsink would never preroll. Without it (and its converter) the rest plays
        // to the end, so the video's bytes are still all counted.
        for element in [sink.upcast_ref::<gst::Element>(), &convert] {
            let _ = element.set_state(gst::State::Null);
            pipeline.remove(element)?;
        }
        pipeline
            .set_state(gst::State::Playing)
            .map_err(|_| ConformError::Decode("could not play".to_owned()))?;
        wait_eos(&pipeline, timeout_s, stop)?;
        return Ok(SoundPass {
            sound: None,
            video_bytes: counted
                .load(Ordering::SeqCst)
                .then(|| video_bytes.load(Ordering::SeqCst)),
        });
    }
    pipeline.set_state(gst::State::Playing).map_err(|_| {
        bus_error(&pipeline).unwrap_or_else(|| ConformError::Decode("could not play".to_owned()))
    })?;

    let mut meter: Option<Meter> = None;
    let mut floats = Vec::new();
    while let Some(sample) = pull(&pipeline, &sink, timeout_s, stop)? {
        let Some(buffer) = sample.buffer() else {
            continue;
        };
        let Ok(map) = buffer.map_readable() else {
            continue;
        };
        floats.clear();
        floats.extend(
            map.as_slice()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        );
        if meter.is_none() {
            meter = Some(Meter::new(sample.caps())?);
        }
        if let Some(m) = meter.as_mut() {
            m.add(&floats)?;
        }
    }
    drop(guard);
    let sound = meter.map(|m| m.finish()).transpose()?;
    Ok(SoundPass {
        sound,
        video_bytes: counted
            .load(Ordering::SeqCst)
            .then(|| video_bytes.load(Ordering::SeqCst)),
    })
}

/// The running measurement: R128 state, the first 50 ms and the latest 50 ms of samples.
struct Meter {
    ebu: EbuR128,
    channels: u32,
    /// Samples (not frames) in 50 ms, all channels.
    seam_len: usize,
    /// Samples (not frames) of codec silence that may precede or follow the seam.
    skip_len: usize,
    head: Vec<f32>,
    tail: Vec<f32>,
}

impl Meter {
    /// Starts a measurement for the rate and channels of `caps`.
    fn new(caps: Option<&gst::CapsRef>) -> Result<Self, ConformError> {
        let s = caps
            .and_then(|c| c.structure(0))
            .ok_or_else(|| ConformError::Decode("audio without caps".to_owned()))?;
        let rate = s.get::<i32>("rate").unwrap_or(0);
        let channels = s.get::<i32>("channels").unwrap_or(0);
        let (Ok(rate), Ok(channels)) = (u32::try_from(rate), u32::try_from(channels)) else {
            return Err(ConformError::Decode("audio caps out of range".to_owned()));
        };
        let ebu = EbuR128::new(channels, rate, Mode::I | Mode::TRUE_PEAK)
            .map_err(|e| ConformError::Decode(format!("loudness meter: {e}")))?;
        // Rounded to whole frames so that RMS always covers every channel alike.
        let frames = (f64::from(rate) * SEAM_SECONDS).round().max(1.0) as usize;
        Ok(Self {
            ebu,
            channels,
            seam_len: frames * channels as usize,
            skip_len: CODEC_SILENCE_FRAMES * channels as usize,
            head: Vec::new(),
            tail: Vec::new(),
        })
    }

    /// Feeds interleaved samples.
    fn add(&mut self, samples: &[f32]) -> Result<(), ConformError> {
        // Whole frames only: a buffer never splits a frame, but a garbage stream must not panic.
        let whole = samples.len() - samples.len() % self.channels.max(1) as usize;
        let samples = &samples[..whole];
        self.ebu
            .add_frames_f32(samples)
            .map_err(|e| ConformError::Decode(format!("loudness meter: {e}")))?;
        let keep = self.seam_len + self.skip_len;
        if self.head.len() < keep {
            let take = (keep - self.head.len()).min(samples.len());
            self.head.extend_from_slice(&samples[..take]);
        }
        self.tail.extend_from_slice(samples);
        // Trimmed only when twice as long, so the copy is paid once per `keep`, not per buffer.
        if self.tail.len() > 2 * keep {
            let cut = self.tail.len() - keep;
            self.tail.drain(..cut);
        }
        Ok(())
    }

    /// Returns the loudness, the true peak and the seam's level jump.
    fn finish(self) -> Result<Sound, ConformError> {
        let loudness = self
            .ebu
            .loudness_global()
            .map_err(|e| ConformError::Decode(format!("loudness meter: {e}")))?;
        let mut peak = 0.0f64;
        for c in 0..self.channels {
            let p = self
                .ebu
                .true_peak(c)
                .map_err(|e| ConformError::Decode(format!("loudness meter: {e}")))?;
            peak = peak.max(p);
        }
        let ch = self.channels.max(1) as usize;
        let start = silent_frames(self.head.iter(), ch, self.skip_len) * ch;
        let head = &self.head[start..(start + self.seam_len).min(self.head.len())];
        let end = self.tail.len() - silent_frames(self.tail.iter().rev(), ch, self.skip_len) * ch;
        let tail = &self.tail[end.saturating_sub(self.seam_len)..end];
        Ok(Sound {
            loudness_lufs: if loudness.is_finite() {
                loudness.max(LOUDNESS_FLOOR)
            } else {
                LOUDNESS_FLOOR
            },
            true_peak_dbtp: db(peak),
            jump_db: (db(rms(tail)) - db(rms(head))).abs(),
        })
    }
}

/// Returns how many whole frames of digital silence `samples` start with, at most `max` samples'
/// worth (a sound silent throughout leaves empty windows, which read as the level floor).
fn silent_frames<'a>(samples: impl Iterator<Item = &'a f32>, channels: usize, max: usize) -> usize {
    let quiet = samples.take(max).take_while(|s| s.abs() <= SILENCE).count();
    quiet / channels
}

/// Returns the root mean square of `samples` (0 for none).
fn rms(samples: &[f32]) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples.iter().map(|&s| f64::from(s) * f64::from(s)).sum();
    (sum / samples.len() as f64).sqrt()
}

/// Returns a linear amplitude in dB, floored so that silence reads as a number.
fn db(amplitude: f64) -> f64 {
    if amplitude > 0.0 {
        (20.0 * amplitude.log10()).max(LEVEL_FLOOR)
    } else {
        LEVEL_FLOOR
    }
}
