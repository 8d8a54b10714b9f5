//! The audio filters of the AI abilities (docs/ai.md): AUDIO_DENOISE, AUDIO_ECHO_CANCEL and
//! AUDIO_GAIN_CONTROL, all GStreamer's `webrtcdsp` (the WebRTC audio processing library, from
//! gstreamer1.0-plugins-bad), which works on 10 ms frames of 16-bit sound at 48 kHz:
//!
//! - noise reduction: its noise suppressor (a per-band Wiener gain against a noise spectrum it keeps
//!   estimating from the quieter frames), at `level`, with its high-pass filter (below ~80 Hz).
//!   Steady noise (hiss, hum, fans) goes; a sound that never pauses is taken for noise in part.
//! - echo cancellation: its echo canceller (an adaptive filter that learns the path from the
//!   loudspeaker to the microphone, delay-agnostic) and residual echo suppressor at `level`, fed the
//!   far end (the second input: what the loudspeaker played) through `webrtcechoprobe`. Without the
//!   far end there is nothing to cancel against, so the run takes two inputs; both are mixed down
//!   to mono. It converges over the first seconds: the echo's start is cancelled less. The two
//!   branches run in lock step (see [`lock_step`]), so the result does not depend on scheduling.
//! - gain control: its automatic gain control (adaptive digital, up to 30 dB, limiter on: the level
//!   evened out over time), then the whole brought to `targetLufs` (EBU R128 integrated, measured on
//!   a first pass of the same graph), lowered where the true peak would pass −1.5 dBTP.
//!
//! `decodebin → audioconvert → audioresample → S16 48 kHz → webrtcdsp → (volume) → tee` into the
//! sound (AAC in `.m4a`, or a WAV) and, for a video input asked so, the video with the cleaned sound
//! (its pictures copied as they are where H.264 / H.265, else re-encoded).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Duration;

use gstreamer as gst;
use gstreamer::prelude::*;

use super::sound::{SOUND_SRC, VIDEO_SRC, volume};
use super::{Job, Output, OutputKind, aac, x264_quality};
use crate::ai_params::{AudioClean, DENOISE_LEVELS, ECHO_LEVELS, Filter};
use crate::error::ToolError;
use crate::gst_run::{PICTURES, element, sound_only};
use crate::orientation::set_turn;
use crate::probe::Coding;

/// What webrtcdsp takes: 16-bit interleaved at 48 kHz (it also takes 8, 16 and 32 kHz).
const DSP_CAPS: &str = "audio/x-raw,format=S16LE,layout=interleaved,rate=48000";
/// The most the automatic gain control adds, dB (webrtcdsp's `compression-gain-db`).
const AGC_MAX_DB: u32 = 30;
/// The gain control's share of the progress spent measuring.
const MEASURE_SHARE: f64 = 0.45;

/// The period webrtcdsp works in; both echo branches are cut into buffers of it.
const PERIOD: gst::ClockTime = gst::ClockTime::from_mseconds(10);
/// How long a branch held by the lock step waits before it looks again whether its pipeline stops.
const STEP_LOOK: Duration = Duration::from_millis(50);

/// Names the echo probes of the runs of this process apart (webrtcdsp finds its probe by name).
static PROBES: AtomicU64 = AtomicU64::new(0);

/// Whether GStreamer's `webrtcdsp` and `webrtcechoprobe` are installed.
pub(crate) fn installed() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        gst::init().is_ok() && gst::ElementFactory::find("webrtcdsp").is_some() && gst::ElementFactory::find("webrtcechoprobe").is_some()
    })
}

impl Filter {
    /// The output's file name without its extension.
    fn stem(self) -> &'static str {
        match self {
            Self::Denoise { .. } => "denoised",
            Self::EchoCancel { .. } => "echo-cancelled",
            Self::Gain { .. } => "gain-controlled",
        }
    }
}

impl Job<'_> {
    pub(super) fn clean_sound(&mut self, c: &AudioClean) -> Result<Vec<Output>, ToolError> {
        let far = self.more.first().map(|p| p.as_path());
        let probe = format!("reelforge-echo-{}-{}", std::process::id(), PROBES.fetch_add(1, Ordering::Relaxed));
        let (props, far_branch, near_caps) = match c.filter {
            Filter::Denoise { level } => (
                format!("noise-suppression=true noise-suppression-level={} echo-cancel=false gain-control=false", DENOISE_LEVELS[usize::from(level)]),
                String::new(),
                "",
            ),
            Filter::EchoCancel { level } => (
                format!(
                    "echo-cancel=true echo-suppression-level={} delay-agnostic=true extended-filter=true probe={probe} \
                     noise-suppression=false gain-control=false",
                    ECHO_LEVELS[usize::from(level)]
                ),
                format!(
                    "{SOUND_SRC}d2. ! audio/x-raw ! queue ! audioconvert ! audioresample ! {DSP_CAPS},channels=1 \
                     ! audiobuffersplit output-buffer-duration=1/100 ! webrtcechoprobe name={probe} ! fakesink sync=false async=false "
                ),
                ",channels=1 ! audiobuffersplit output-buffer-duration=1/100",
            ),
            Filter::Gain { .. } => (
                format!(
                    "gain-control=true gain-control-mode=adaptive-digital compression-gain-db={AGC_MAX_DB} target-level-dbfs=3 limiter=true \
                     high-pass-filter=false echo-cancel=false noise-suppression=false"
                ),
                String::new(),
                "",
            ),
        };
        // The gain control's loudness is measured as stereo (the R128 meter's two channels), so its
        // result is stereo: a mono sound is measured and written as both channels.
        let out_caps = if matches!(c.filter, Filter::Gain { .. }) { "audio/x-raw,channels=2 ! " } else { "" };
        let graph = format!(
            "{VIDEO_SRC}{far_branch}d. ! audio/x-raw ! queue ! audioconvert ! audioresample ! {DSP_CAPS}{near_caps} ! webrtcdsp name=dsp {props} ! audioconvert ! {out_caps}"
        );
        let (gain_db, from) = match c.filter {
            Filter::Gain { target_lufs } => (self.measure(&graph, Some(self.input), far, (0.0, MEASURE_SHARE))?.gain_to(target_lufs), MEASURE_SHARE),
            _ => (0.0, 0.0),
        };
        let stem = c.filter.stem();
        let name = format!("{stem}.{}", if c.wav { "wav" } else { "m4a" });
        let encode = if c.wav {
            "audio/x-raw,format=S16LE ! wavenc".to_owned()
        } else {
            format!("{} bitrate=192000 ! aacparse ! mp4mux faststart=true", aac())
        };
        let with_video = c.video && self.facts.video.is_some();
        // Copied as stored (a mirrored picture's tag is not one the output can keep: decoded).
        let orientation = self.facts.orientation;
        let copy = match self.facts.coding {
            _ if orientation.mirrored => None,
            Coding::H264 => Some("video/x-h264 ! queue ! h264parse"),
            Coding::H265 => Some("video/x-h265 ! queue ! h265parse"),
            Coding::Other => None,
        };
        let video_branch = match (with_video, copy) {
            (false, _) => String::new(),
            (true, Some(parse)) => format!(
                " t. ! queue ! audioconvert ! {} bitrate=192000 ! queue ! mux. d. ! {parse} ! queue ! mux. mp4mux name=mux faststart=true ! filesink name=sink2",
                aac()
            ),
            (true, None) => format!(
                " t. ! queue ! audioconvert ! {} bitrate=192000 ! queue ! mux. {PICTURES} ! queue ! videoconvert ! video/x-raw,format=I420 ! {} \
                 ! queue ! mux. mp4mux name=mux faststart=true ! filesink name=sink2",
                aac(),
                x264_quality(18)
            ),
        };
        let out = self.partial(&name);
        let video_name = format!("{stem}.mp4");
        let video_out = with_video.then(|| self.partial(&video_name));
        let description = format!("{graph}{} ! tee name=t t. ! queue ! audioconvert ! {encode} ! filesink name=sink{video_branch}", volume(gain_db));
        let running = self.launch_sound(&description, Some(self.input), far, Some(&out), self.facts.duration_ms)?;
        if matches!(c.filter, Filter::EchoCancel { .. }) {
            lock_step(&running.0, &probe)?;
        }
        if let Some(path) = &video_out {
            element(&running.0, "sink2")?.set_property("location", path.to_string_lossy().to_string());
        }
        // The pictures are only decoded where they are re-encoded into the video.
        if self.facts.video.is_some() && !(with_video && copy.is_none()) {
            sound_only(&running.0, "d")?;
        }
        self.play(&running, self.facts.duration_ms, (from, 1.0 - from))?;
        let mut outputs = vec![self.output(out, OutputKind::Audio, &name)?];
        if let Some(path) = video_out {
            if copy.is_some() && orientation.turn != 0 {
                set_turn(&path, orientation.turn)?;
            }
            outputs.push(self.output(path, OutputKind::Video, &video_name)?);
        }
        Ok(outputs)
    }
}

/// How far each branch of an echo cancellation has gone, in nanoseconds of running time.
#[derive(Default)]
struct Steps {
    /// The far end is in the probe up to here (`u64::MAX` once it ended).
    far: u64,
    /// The recording is through the canceller up to here (`u64::MAX` once it ended).
    near: u64,
    /// Where the far end must reach before the recording's waiting buffer may go in.
    near_wants: Option<u64>,
}

/// The two branches' meeting point: each waits on it for the other.
#[derive(Default)]
struct Gate {
    steps: Mutex<Steps>,
    turn: Condvar,
}

impl Gate {
    /// Applies `change`, then holds the calling branch until `ready` or until `pad` flushes (its
    /// pipeline stopping: the buffer then goes on to be refused).
    fn wait(&self, pad: &gst::Pad, change: impl FnOnce(&mut Steps), ready: impl Fn(&Steps) -> bool) {
        let Ok(mut steps) = self.steps.lock() else { return };
        change(&mut steps);
        self.turn.notify_all();
        while !ready(&steps) && !pad.pad_flags().contains(gst::PadFlags::FLUSHING) {
            steps = match self.turn.wait_timeout(steps, STEP_LOOK) {
                Ok((s, _)) => s,
                Err(_) => return,
            };
        }
    }

    /// Applies `change` and wakes the other branch.
    fn update(&self, change: impl FnOnce(&mut Steps)) {
        if let Ok(mut steps) = self.steps.lock() {
            change(&mut steps);
            self.turn.notify_all();
        }
    }
}

/// The end of `buffer` in nanoseconds (one period where it says no duration).
fn end_of(buffer: &gst::Buffer) -> Option<(u64, u64)> {
    let pts = buffer.pts()?;
    Some((pts.nseconds(), (pts + buffer.duration().unwrap_or(PERIOD)).nseconds()))
}

/// Runs the far end and the recording of an echo cancellation in lock step. webrtcdsp, delay-
/// agnostic, hands the canceller all of the far end its probe holds before each 10 ms of the
/// recording; the branches are separate threads, so without this the far end reaches the
/// canceller ahead of or behind the echo in the recording by however the threads were scheduled
/// (9.8 dB of echo removed on a quiet machine, 1.5 dB in a loaded CI run). Both branches are cut
/// into 10 ms buffers; a far buffer goes into the probe once the recording before it is through
/// the canceller (or the recording waits for it), a recording buffer goes into the canceller once
/// the far end reaches its end, so each 10 ms of the recording meets the far end of the same 10 ms.
fn lock_step(pipeline: &gst::Pipeline, probe: &str) -> Result<(), ToolError> {
    let pad = |element_name: &str, pad_name: &str| {
        element(pipeline, element_name)?.static_pad(pad_name).ok_or_else(|| ToolError::Gst(format!("{element_name} without a {pad_name} pad")))
    };
    let (far_in, far_out, near_in, near_out) = (pad(probe, "sink")?, pad(probe, "src")?, pad("dsp", "sink")?, pad("dsp", "src")?);
    let gate = Arc::new(Gate::default());
    let flow = gst::PadProbeType::BUFFER | gst::PadProbeType::EVENT_DOWNSTREAM;
    let ended = |info: &gst::PadProbeInfo| matches!(&info.data, Some(gst::PadProbeData::Event(e)) if e.type_() == gst::EventType::Eos);
    let g = Arc::clone(&gate);
    far_in.add_probe(flow, move |pad, info| {
        if let Some((start, _)) = info.buffer().and_then(end_of) {
            g.wait(pad, |_| {}, |s| s.near >= start || s.near_wants.is_some_and(|w| s.far < w));
        } else if ended(info) {
            g.update(|s| s.far = u64::MAX);
        }
        gst::PadProbeReturn::Ok
    });
    let g = Arc::clone(&gate);
    far_out.add_probe(gst::PadProbeType::BUFFER, move |_, info| {
        if let Some((_, end)) = info.buffer().and_then(end_of) {
            g.update(|s| s.far = s.far.max(end));
        }
        gst::PadProbeReturn::Ok
    });
    let g = Arc::clone(&gate);
    near_in.add_probe(flow, move |pad, info| {
        if let Some((_, end)) = info.buffer().and_then(end_of) {
            g.wait(pad, |s| s.near_wants = Some(end), |s| s.far >= end);
            g.update(|s| s.near_wants = None);
        } else if ended(info) {
            g.update(|s| {
                s.near = u64::MAX;
                s.near_wants = None;
            });
        }
        gst::PadProbeReturn::Ok
    });
    near_out.add_probe(gst::PadProbeType::BUFFER, move |_, info| {
        if let Some((_, end)) = info.buffer().and_then(end_of) {
            gate.update(|s| s.near = s.near.max(end));
        }
        gst::PadProbeReturn::Ok
    });
    Ok(())
}
