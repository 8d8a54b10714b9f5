//! `encode`: the encoder with the video seconds ahead of the sound.

use super::tiny;
use reelforge_render::decode::{CHANNELS, SAMPLE_RATE};
use reelforge_render::encode::Encoder;
use std::path::Path;

type R<T = ()> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// Encodes `seconds` of frames before any sound, then the sound, as `render` does while
/// its mix is not done yet.
fn video_before_sound(out: &Path, seconds: usize) -> R {
    let mut enc = Encoder::create(out, tiny(23))?;
    for n in 0..30 * seconds {
        let shade = (n * 4 % 256) as u8;
        enc.push_frame(&[shade, 128, 255 - shade, 255].repeat(64 * 36))?;
    }
    enc.push_audio(&vec![0.0; SAMPLE_RATE as usize * CHANNELS * seconds])?;
    enc.finish()?;
    Ok(())
}

#[test]
fn video_may_run_seconds_ahead_of_the_sound() -> R {
    let dir = tempfile::tempdir()?;
    let out = dir.path().join("ahead.mp4");
    let (tx, rx) = std::sync::mpsc::channel();
    let path = out.clone();
    // On a thread, so a stalled encoder fails the test instead of hanging it.
    std::thread::spawn(move || {
        let _ = tx.send(video_before_sound(&path, 2).map_err(|e| e.to_string()));
    });
    rx.recv_timeout(std::time::Duration::from_secs(30))
        .map_err(|_| "the encoder stalled with the video ahead of the sound")??;
    assert!(std::fs::metadata(&out)?.len() > 1000);
    Ok(())
}
