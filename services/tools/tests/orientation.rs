//! A clip stored on its side, as a phone keeps a portrait clip (its MP4 track header says to turn
//! it 90° clockwise): the tools work on its pictures as a player shows them, a box is taken on
//! them, and a tool that copies the pictures as stored (the smart cut, a sound's gain, a cleaned
//! sound's video) keeps the turn on its output.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use reelforge_tools::orientation::{Orientation, set_turn};
use reelforge_tools::testing::{Clip, luma_frames, psnr};
use reelforge_tools::{Output, OutputKind, Params, SMART_TAG, ToolType, cut_comment, probe, run};
use serde_json::json;

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

fn tool(tool: ToolType, params: serde_json::Value, input: &Path, dir: &Path) -> Result<Output> {
    let params = Params::parse(tool, &params)?;
    Ok(run(&params, &[input.to_path_buf()], dir, &mut |_| {}, &AtomicBool::new(false))?.remove(0))
}

/// A 320×180 clip stored as it is (`stored.mp4`) and the same bytes turned 90° clockwise
/// (`turned.mp4`).
fn turned_clip(dir: &Path, seconds: f64) -> Result<(PathBuf, PathBuf)> {
    let stored = Clip { seconds, ..Clip::default() }.make(dir, "stored.mp4")?;
    let turned = dir.join("turned.mp4");
    std::fs::copy(&stored, &turned)?;
    set_turn(&turned, 90)?;
    Ok((stored, turned))
}

/// A `w`×`h` luma picture turned 90° clockwise: the shown picture's (x, y) is the stored one's
/// (y, h − 1 − x).
fn turn_90(luma: &[u8], w: usize, h: usize) -> Vec<u8> {
    (0..w).flat_map(|y| (0..h).map(move |x| luma[(h - 1 - x) * w + y])).collect()
}

/// The `w`×`h` region at (`x`, `y`) of a luma picture `stride` pixels wide.
fn region(luma: &[u8], stride: usize, (x, y, w, h): (usize, usize, usize, usize)) -> Vec<u8> {
    (y..y + h).flat_map(|row| luma[row * stride + x..row * stride + x + w].to_vec()).collect()
}

#[test]
fn a_turned_clip_reads_as_shown() -> Result {
    let dir = tempfile::tempdir()?;
    let (stored, turned) = turned_clip(dir.path(), 2.0)?;
    assert_eq!(std::fs::metadata(&stored)?.len(), std::fs::metadata(&turned)?.len(), "the turn is written in place");
    let facts = probe(&turned)?;
    assert_eq!(facts.orientation, Orientation { turn: 90, mirrored: false });
    assert_eq!(facts.video.map(|(w, h, _)| (w, h)), Some((180, 320)), "the size as shown");
    assert_eq!(probe(&stored)?.orientation, Orientation::default());
    // Decoded upright: each picture is the stored one turned clockwise.
    let (as_stored, upright) = (luma_frames(&stored)?, luma_frames(&turned)?);
    assert_eq!(as_stored.len(), upright.len());
    for k in [0, 25, as_stored.len() - 1] {
        assert_eq!(upright[k].1.len(), 180 * 320);
        assert!(upright[k].1 == turn_90(&as_stored[k].1, 320, 180), "frame {k} is not the stored one turned clockwise");
    }
    Ok(())
}

#[test]
fn a_crop_of_a_turned_clip_takes_its_box_on_the_picture_as_shown() -> Result {
    let dir = tempfile::tempdir()?;
    let (_, turned) = turned_clip(dir.path(), 2.0)?;
    let upright = luma_frames(&turned)?;
    // A box below the stored picture's width (320) but past the shown one's (180) is refused.
    let wide = tool(ToolType::VideoCrop, json!({"x": 0, "y": 0, "width": 240, "height": 100}), &turned, &dir.path().join("wide"));
    assert!(wide.is_err_and(|e| e.to_string().contains("width")));
    let o = tool(ToolType::VideoCrop, json!({"x": 20, "y": 100, "width": 120, "height": 160}), &turned, &dir.path().join("crop"))?;
    assert_eq!((o.width, o.height), (120, 160));
    let facts = probe(&o.path)?;
    assert_eq!(facts.orientation, Orientation::default(), "the output is upright as stored");
    assert_eq!(facts.video.map(|(w, h, _)| (w, h)), Some((120, 160)));
    let cropped = luma_frames(&o.path)?;
    // Each sampled frame is the shown picture's box (to the re-encode's error), closer to it than
    // to the box 2 px to any side.
    for k in [0, 30, cropped.len() - 1] {
        let same = psnr(&cropped[k].1, &region(&upright[k].1, 180, (20, 100, 120, 160)));
        assert!(same >= 35.0, "frame {k}: {same:.1} dB against the shown picture's box");
        for (x, y) in [(18, 100), (22, 100), (20, 98), (20, 102)] {
            let off = psnr(&cropped[k].1, &region(&upright[k].1, 180, (x, y, 120, 160)));
            assert!(off < same, "frame {k}: the box at ({x}, {y}) matches better ({off:.1} dB ≥ {same:.1} dB)");
        }
    }
    Ok(())
}

#[test]
fn tools_that_copy_the_pictures_keep_the_turn() -> Result {
    let dir = tempfile::tempdir()?;
    let (_, turned) = turned_clip(dir.path(), 8.0)?;
    let upright = luma_frames(&turned)?;
    // The smart cut copies 2–6 s as stored and re-encodes its edges as stored.
    let params = json!({"mode": "keep", "ranges": [{"startMs": 1000, "endMs": 6400}]});
    let o = tool(ToolType::QuickCutVideo, params, &turned, &dir.path().join("cut"))?;
    assert!(cut_comment(&o.path)?.unwrap_or_default().starts_with(SMART_TAG));
    let facts = probe(&o.path)?;
    assert_eq!((facts.orientation.turn, facts.video.map(|(w, h, _)| (w, h))), (90, Some((180, 320))));
    let frames = luma_frames(&o.path)?;
    assert_eq!(frames.len(), 135);
    for (k, ms) in [(0, 1000), (25, 2000), (134, 6360)] {
        let same = psnr(&frames[k].1, &upright[ms / 40].1);
        assert!(same >= 40.0, "frame {k}: {same:.1} dB against the shown source at {ms} ms");
    }
    // A gain on the sound copies the pictures too.
    let o = tool(ToolType::VideoReplaceAudio, json!({"mode": "gain", "gainDb": -3}), &turned, &dir.path().join("gain"))?;
    assert_eq!(probe(&o.path)?.orientation.turn, 90);
    assert!(luma_frames(&o.path)?[50].1 == upright[50].1, "the pictures are the source's, shown the same");
    // So does a cleaned sound's video.
    let params = Params::parse(ToolType::AudioDenoise, &json!({"format": "m4a"}))?;
    let made = run(&params, std::slice::from_ref(&turned), &dir.path().join("denoise"), &mut |_| {}, &AtomicBool::new(false))?;
    let video = made.iter().find(|o| o.kind == OutputKind::Video).ok_or("no video beside the sound")?;
    assert_eq!(probe(&video.path)?.orientation.turn, 90);
    Ok(())
}
