//! The sound of a material as a speech recogniser takes it (docs/ai.md, "Speech recognition"):
//! decoded by GStreamer, mixed to mono and resampled to 16 kHz 16-bit PCM, written as a WAV. A
//! video's pictures are left encoded: only its sound is decoded.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use crate::error::{ParamError, ToolError};
use crate::gst_run::{launch, play, sound_only};

/// Writes the sound of the audio or video file at `input` to `output` as a mono 16-bit WAV at
/// `rate` Hz; `progress` is told the milliseconds decoded. A file with no sound is refused naming
/// `materialId`; a set `cancel` stops it. `output` is removed on any failure.
pub fn speech_wav(input: &Path, output: &Path, rate: u32, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<(), ToolError> {
    let facts = crate::probe(input)?;
    if !facts.audio {
        return Err(ParamError::new("materialId", "the material has no sound to recognise").into());
    }
    let written = (|| {
        let running = launch(
            &format!(
                "filesrc name=src ! decodebin name=d d. ! audio/x-raw ! queue ! audioconvert ! audioresample \
                 ! audio/x-raw,format=S16LE,rate={rate},channels=1 ! wavenc ! filesink name=sink"
            ),
            Some(input),
            Some(output),
        )?;
        sound_only(&running.0, "d")?;
        play(&running, cancel, progress)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(output);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tone_becomes_16_khz_mono_and_a_silent_video_is_refused() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let tone = crate::testing::Clip { seconds: 1.5, pattern: None, ..Default::default() }.make(dir.path(), "tone.m4a")?;
        let wav = dir.path().join("tone.wav");
        speech_wav(&tone, &wav, 16_000, &AtomicBool::new(false), &mut |_| {})?;
        let bytes = std::fs::read(&wav)?;
        // The header's fmt chunk: channels at 22, rate at 24, bits at 34.
        assert_eq!(u16::from_le_bytes([bytes[22], bytes[23]]), 1);
        assert_eq!(u32::from_le_bytes([bytes[24], bytes[25], bytes[26], bytes[27]]), 16_000);
        assert_eq!(u16::from_le_bytes([bytes[34], bytes[35]]), 16);
        let seconds = (bytes.len() - 44) as f64 / 32_000.0;
        assert!((seconds - 1.5).abs() < 0.1, "{seconds} s");
        let video = crate::testing::Clip { seconds: 1.0, sound: false, ..Default::default() }.make(dir.path(), "silent.mp4")?;
        let refused = speech_wav(&video, &dir.path().join("v.wav"), 16_000, &AtomicBool::new(false), &mut |_| {});
        assert!(matches!(refused, Err(ToolError::Param(ref p)) if p.field == "materialId"), "{refused:?}");
        assert!(!dir.path().join("v.wav").exists());
        Ok(())
    }
}
