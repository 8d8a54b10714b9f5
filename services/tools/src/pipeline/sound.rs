//! VIDEO_REPLACE_AUDIO: a video's sound replaced by another material's, mixed with it, or gained.
//! Replace and mix bring the result to a loudness (EBU R128 integrated, `loudnessLufs`); every mode
//! keeps the true peak under −1 dBTP by lowering the gain where the target would pass it (quieter
//! rather than clipped). The pictures are copied as they are (H.264 / H.265, no re-encode) or, for
//! another codec, re-encoded. A sound longer than the video is cut at the video's end; a shorter
//! one leaves the rest silent.
//!
//! Measuring passes decode the sound alone (the pictures are left encoded and dropped) into an
//! `appsink` read by `ebur128`: a mix measures both sounds first, so that the added one sits
//! `gainDb` against the video's at one loudness, then the mixed graph; replace measures the new
//! sound; gain the video's peaks. The last pass writes the video with the sound graph at its gain.
//!
//! `filesrc name=src ! decodebin name=d` (the video), `filesrc name=src2 ! decodebin name=d2` (the sound):
//! - replace: `d2. ! … ! audiobuffersplit name=bq (cut at the video's end) ! volume ! sink`
//! - mix: `audiomixer name=mix ! volume ! sink`, `d. ! … ! mix.`, `d2. ! … ! bq ! volume ! mix.`
//! - gain: `d. ! … ! volume ! sink`
//!
//! where the sink is the meter or `aac ! mp4mux` beside `d. ! video/x-h264 ! h264parse ! mux.`

use std::path::Path;

use ebur128::{EbuR128, Mode};
use gstreamer as gst;
use gstreamer::prelude::*;

use super::{Job, Output, OutputKind, Progress, aac, x264_quality};
use crate::error::ToolError;
use crate::gst_run::{PICTURES, Running, app_sink, element, launch, retime, sound_only};
use crate::orientation::set_turn;
use crate::params::{ReplaceAudio, SoundMode};
use crate::probe::Coding;

/// The true peak a result stays under, dBTP, less a margin for AAC's own overshoot.
const PEAK_CEILING_DBTP: f64 = -1.5;
/// Loudness at or below this is silence (the R128 absolute gate): no gain makes it a target.
const SILENCE_LUFS: f64 = -69.0;
/// The most a gain may add or take, dB (`volume` goes to 10×, and two are chained).
const GAIN_LIMIT_DB: (f64, f64) = (-60.0, 40.0);
/// The sound every branch is brought to.
const SOUND_CAPS: &str = "audio/x-raw,format=F32LE,layout=interleaved,rate=48000,channels=2";
/// The sound's AAC bitrate, bit/s.
const AUDIO_BPS: u32 = 192_000;
/// The video's source.
pub(super) const VIDEO_SRC: &str = "filesrc name=src ! decodebin name=d ";
/// The other material's source.
pub(super) const SOUND_SRC: &str = "filesrc name=src2 ! decodebin name=d2 ";

/// A measured sound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Level {
    /// Integrated loudness, LUFS (−70 for silence).
    pub(super) lufs: f64,
    /// True peak over the channels, dBTP.
    pub(super) peak_dbtp: f64,
}

impl Level {
    /// The gain that brings the sound to `target` LUFS, lowered where its peak would pass the ceiling.
    pub(super) fn gain_to(self, target: f64) -> f64 {
        if self.lufs <= SILENCE_LUFS {
            return 0.0;
        }
        (target - self.lufs).min(PEAK_CEILING_DBTP - self.peak_dbtp)
    }
}

/// Two chained `volume`s making `db` (each goes to 10×, +20 dB).
pub(super) fn volume(db: f64) -> String {
    let g = 10f64.powf(db.clamp(GAIN_LIMIT_DB.0, GAIN_LIMIT_DB.1) / 40.0);
    format!("volume volume={g:.6} ! volume volume={g:.6}")
}

/// The video's own sound, as every branch takes it.
fn video_sound() -> String {
    format!("d. ! audio/x-raw ! queue ! audioconvert ! audioresample ! {SOUND_CAPS}")
}

/// The other material's sound, in 10 ms buffers so that the cut at the video's end is close.
fn new_sound() -> String {
    format!(
        "d2. ! audio/x-raw ! queue ! audioconvert ! audio/x-raw,format=F32LE ! audiobuffersplit name=bq output-buffer-duration=1/100 \
         ! audioconvert ! audioresample ! {SOUND_CAPS}"
    )
}

/// The video's sound and the other material's (at `gain_b` dB) mixed; the description ends at the
/// mixer's output.
fn mix(gain_b: f64) -> String {
    format!("{} ! mix. {} ! {} ! mix. audiomixer name=mix ! ", video_sound(), new_sound(), volume(gain_b))
}

impl Job<'_> {
    pub(super) fn replace_audio(&mut self, r: &ReplaceAudio) -> Result<Vec<Output>, ToolError> {
        let sound = self.more.first().map(|p| p.as_path());
        let video_ms = self.facts.duration_ms;
        // The measuring passes take the first 20–30 % of the progress; the last pass has the rest.
        let (gain_b, final_db) = match r.mode {
            SoundMode::Replace => {
                let b = self.measure(&format!("{SOUND_SRC}{} ! ", new_sound()), None, sound, (0.0, 0.3))?;
                (0.0, b.gain_to(r.loudness_lufs.unwrap_or_default()))
            }
            SoundMode::Mix => {
                let a = self.measure(&format!("{VIDEO_SRC}{} ! ", video_sound()), Some(self.input), None, (0.0, 0.1))?;
                let b = self.measure(&format!("{SOUND_SRC}{} ! ", new_sound()), None, sound, (0.1, 0.1))?;
                // Both at one loudness, then the added one `gainDb` against the video's.
                let gain_b = if a.lufs > SILENCE_LUFS && b.lufs > SILENCE_LUFS { a.lufs - b.lufs + r.gain_db } else { r.gain_db };
                let m = self.measure(&format!("{VIDEO_SRC}{SOUND_SRC}{}{SOUND_CAPS} ! ", mix(gain_b)), Some(self.input), sound, (0.2, 0.1))?;
                (gain_b, m.gain_to(r.loudness_lufs.unwrap_or_default()))
            }
            SoundMode::Gain => {
                let a = self.measure(&format!("{VIDEO_SRC}{} ! ", video_sound()), Some(self.input), None, (0.0, 0.2))?;
                (0.0, r.gain_db.min(PEAK_CEILING_DBTP - a.peak_dbtp))
            }
        };
        // A mirrored picture's tag is not one the output can keep: it is decoded upright.
        let orientation = self.facts.orientation;
        let (copy, parse) = match self.facts.coding {
            _ if orientation.mirrored => (false, ""),
            Coding::H264 => (true, "video/x-h264 ! queue ! h264parse"),
            Coding::H265 => (true, "video/x-h265 ! queue ! h265parse"),
            Coding::Other => (false, ""),
        };
        let pictures = if copy {
            format!("d. ! {parse} ! queue ! mux.")
        } else {
            format!("{PICTURES} ! queue ! videoconvert ! video/x-raw,format=I420 ! {} ! queue ! mux.", x264_quality(18))
        };
        let encode = format!("{} ! audioconvert ! {} bitrate={AUDIO_BPS} ! queue ! mux.", volume(final_db), aac());
        let graph = match r.mode {
            SoundMode::Replace => {
                let drain = if self.facts.audio { " d. ! audio/x-raw ! queue ! fakesink sync=false async=false" } else { "" };
                format!("{SOUND_SRC}{} ! {encode}{drain}", new_sound())
            }
            SoundMode::Mix => format!("{SOUND_SRC}{}{SOUND_CAPS} ! {encode}", mix(gain_b)),
            SoundMode::Gain => format!("{} ! {encode}", video_sound()),
        };
        let name = format!("audio-{}.mp4", r.mode.name());
        let out = self.partial(&name);
        let description = format!("{VIDEO_SRC}{pictures} {graph} mp4mux name=mux faststart=true ! filesink name=sink");
        let running = self.launch_sound(&description, Some(self.input), sound, Some(&out), video_ms)?;
        if copy {
            sound_only(&running.0, "d")?;
        }
        let from = if r.mode == SoundMode::Gain { 0.2 } else { 0.3 };
        self.play(&running, video_ms, (from, 1.0 - from))?;
        if copy && orientation.turn != 0 {
            set_turn(&out, orientation.turn)?;
        }
        Ok(vec![self.output(out, OutputKind::Video, &name)?])
    }

    /// Builds a pipeline of the video (`src`) and the other sound (`src2`), where given, and cuts
    /// the other sound (`bq`, where the description has it) at the video's end.
    pub(super) fn launch_sound(&self, description: &str, video: Option<&Path>, sound: Option<&Path>, out: Option<&Path>, end_ms: u64) -> Result<Running, ToolError> {
        let running = launch(description, video, out)?;
        if let Some(sound) = sound {
            element(&running.0, "src2")?.set_property("location", sound.to_string_lossy().to_string());
        }
        if sound.is_some() {
            // The other material's pictures, if it has any, are not needed.
            sound_only(&running.0, "d2")?;
        }
        if let Some(cutter) = running.0.by_name("bq") {
            let pad = cutter.static_pad("src").ok_or_else(|| ToolError::Gst("bq without a src pad".to_owned()))?;
            let end = gst::ClockTime::from_mseconds(end_ms);
            retime(&pad, 1.0, move |pts| (pts < end).then_some(pts));
        }
        Ok(running)
    }

    /// Measures the sound `graph` makes (a description ending where a sink links), reporting
    /// progress in `share` of the run.
    pub(super) fn measure(&mut self, graph: &str, video: Option<&Path>, sound: Option<&Path>, share: (f64, f64)) -> Result<Level, ToolError> {
        let total_ms = self.facts.duration_ms.max(1);
        let description = format!("{graph}audioconvert ! {SOUND_CAPS} ! appsink name=meter sync=false");
        let running = self.launch_sound(&description, video, sound, None, total_ms)?;
        if video.is_some() {
            // The video's pictures are not needed to measure its sound.
            sound_only(&running.0, "d")?;
        }
        let sink = app_sink(&running.0, "meter")?;
        let mut ebu = EbuR128::new(2, 48_000, Mode::I | Mode::TRUE_PEAK).map_err(|e| ToolError::Failed(format!("loudness meter: {e}")))?;
        let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        running.0.set_state(gst::State::Playing)?;
        while let Some(sample) = crate::gst_run::pull(&bus, &sink, self.cancel)? {
            let buffer = sample.buffer().ok_or_else(|| ToolError::Failed("a sound buffer without data".to_owned()))?;
            let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
            let samples: Vec<f32> = map.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            ebu.add_frames_f32(&samples).map_err(|e| ToolError::Failed(format!("loudness meter: {e}")))?;
            if let Some(pts) = buffer.pts() {
                let done = share.0 + share.1 * (pts.mseconds().min(total_ms) as f64 / total_ms as f64);
                (self.progress)(Progress { done_ms: (done * total_ms as f64) as u64, total_ms });
            }
        }
        let lufs = ebu.loudness_global().map_err(|e| ToolError::Failed(format!("loudness meter: {e}")))?;
        let mut peak: f64 = 0.0;
        for c in 0..2 {
            peak = peak.max(ebu.true_peak(c).map_err(|e| ToolError::Failed(format!("loudness meter: {e}")))?);
        }
        let lufs = if lufs.is_finite() { lufs.max(-70.0) } else { -70.0 };
        let peak_dbtp = if peak > 0.0 { 20.0 * peak.log10() } else { -120.0 };
        Ok(Level { lufs, peak_dbtp })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_gain_reaches_the_target_unless_the_peak_would_pass_the_ceiling() {
        let quiet = Level { lufs: -30.0, peak_dbtp: -20.0 };
        assert!((quiet.gain_to(-16.0) - 14.0).abs() < 1e-9);
        let peaky = Level { lufs: -30.0, peak_dbtp: -6.0 };
        assert!((peaky.gain_to(-16.0) - (PEAK_CEILING_DBTP + 6.0)).abs() < 1e-9);
        assert_eq!(Level { lufs: -70.0, peak_dbtp: -120.0 }.gain_to(-16.0), 0.0);
    }
}
