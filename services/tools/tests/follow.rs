//! VIDEO_H_TO_V's crop that follows the subject (`mode: "follow"`), on a clip whose subject's
//! place is known: a bright square crossing a plain background.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use gstreamer as gst;
use reelforge_tools::testing::{Clip, encode_frames, luma_frames};
use reelforge_tools::{OutputKind, Params, ToolError, ToolType, probe, run};
use serde_json::json;

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

const WIDTH: usize = 320;
const HEIGHT: usize = 180;
const FRAMES: u64 = 100;
/// The square's side, and its left edge in the first and the last frame.
const SIDE: usize = 24;
const FROM: f64 = 30.0;
const TO: f64 = 266.0;

fn tool(params: serde_json::Value, input: &Path, dir: &Path) -> std::result::Result<Vec<reelforge_tools::Output>, ToolError> {
    let params = Params::parse(ToolType::VideoHToV, &params)?;
    run(&params, &[input.to_path_buf()], dir, &mut |_| {}, &AtomicBool::new(false))
}

/// The square's left edge in frame `f`: from [`FROM`] to [`TO`] at a steady speed.
fn square_left(f: u64) -> f64 {
    FROM + (TO - FROM) * f as f64 / (FRAMES - 1) as f64
}

/// A 320×180, 25 fps, 4 s clip with a tone: a white square (luma 235) on grey 60 at mid-height,
/// crossing from left to right.
fn crossing_square(dir: &Path) -> Result<PathBuf> {
    gst::init()?;
    let path = dir.join("square.mp4");
    let aac = if gst::ElementFactory::find("voaacenc").is_some() { "voaacenc" } else { "avenc_aac" };
    let description = format!(
        "appsrc name=src format=time caps=video/x-raw,format=I420,width={WIDTH},height={HEIGHT},framerate=25/1 \
         ! x264enc speed-preset=ultrafast key-int-max=50 ! queue ! mp4mux name=mux faststart=true ! filesink name=sink \
         audiotestsrc num-buffers=400 samplesperbuffer=480 wave=sine freq=997 volume=0.3 ! audio/x-raw,rate=48000,channels=2 \
         ! audioconvert ! {aac} ! queue ! mux."
    );
    let frames = (0..FRAMES).map(|f| {
        let mut data = vec![128u8; WIDTH * HEIGHT * 3 / 2];
        data[..WIDTH * HEIGHT].fill(60);
        let x = square_left(f).round() as usize;
        for row in data[..WIDTH * HEIGHT].chunks_exact_mut(WIDTH).skip((HEIGHT - SIDE) / 2).take(SIDE) {
            row[x..x + SIDE].fill(235);
        }
        data
    });
    encode_frames(&description, &path, frames, 40)?;
    Ok(path)
}

/// The bright pixels of a luma picture `width` wide: how many, and their mean column.
fn bright(luma: &[u8], width: usize) -> (usize, f64) {
    let (mut n, mut sum) = (0usize, 0usize);
    for (i, p) in luma.iter().enumerate() {
        if *p > 150 {
            n += 1;
            sum += i % width;
        }
    }
    (n, if n == 0 { f64::NAN } else { sum as f64 / n as f64 })
}

#[test]
fn the_crop_follows_a_square_across_the_frame() -> Result {
    let dir = tempfile::tempdir()?;
    let input = crossing_square(dir.path())?;
    let out = tool(json!({"aspect": "9:16", "mode": "follow"}), &input, &dir.path().join("follow"))?;
    let o = &out[0];
    assert_eq!((o.kind, o.name.as_str(), o.width, o.height), (OutputKind::Video, "vertical.mp4", 180, 320));
    let facts = probe(&o.path)?;
    assert!(facts.audio && facts.duration_ms.abs_diff(4000) <= 60, "{facts:?}");
    let frames = luma_frames(&o.path)?;
    assert_eq!(frames.len(), 100, "every frame kept");
    // The window is 102 source pixels wide (180 × 9 / 16, even), scaled to 180: a fixed centre
    // crop (columns 109 to 211) would lose the square at both ends, where its centre is at 42 and 278.
    let scale = 180.0 / 102.0;
    let whole = (SIDE as f64 * scale).powi(2);
    // The best window is centred on the square, pushed back inside the frame at its ends.
    let (mut off, mut err) = (Vec::new(), Vec::new());
    for (i, (ms, luma)) in frames.iter().enumerate().step_by(5) {
        let (n, x) = bright(luma, 180);
        // All of the square is in the picture, and its centre in the middle half of the width.
        assert!(n as f64 > 0.8 * whole, "frame {i} ({ms} ms): {n} bright pixels of {whole:.0}");
        assert!((45.0..=135.0).contains(&x), "frame {i} ({ms} ms): the square's centre at {x:.1} of 180");
        let centre = square_left(i as u64) + SIDE as f64 / 2.0;
        let best = (centre - centre.clamp(51.0, 269.0) + 51.0) * scale;
        off.push((x - 90.0).abs() / 180.0);
        err.push((x - best).abs() / 180.0);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    let worst = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
    eprintln!(
        "the square's centre off the frame's centre: mean {:.1} %, worst {:.1} % of the width; off the best window's: mean {:.1} %, worst {:.1} %",
        mean(&off) * 100.0,
        worst(&off) * 100.0,
        mean(&err) * 100.0,
        worst(&err) * 100.0
    );
    assert!(worst(&err) < 0.1, "the camera strays from the square by up to {:.1} % of the width", worst(&err) * 100.0);
    // The blur mode's output is the same size; a mode of neither name is refused, naming the field.
    let blur = tool(json!({"aspect": "9:16", "mode": "blur"}), &input, &dir.path().join("blur"))?;
    assert_eq!((blur[0].width, blur[0].height), (180, 320));
    let err = tool(json!({"aspect": "9:16", "mode": "track"}), &input, &dir.path().join("bad"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "params.mode"), "{err:?}");
    Ok(())
}

#[test]
fn a_square_crop_follows_too() -> Result {
    let dir = tempfile::tempdir()?;
    let input = crossing_square(dir.path())?;
    let out = tool(json!({"aspect": "1:1", "mode": "follow"}), &input, &dir.path().join("square"))?;
    assert_eq!((out[0].width, out[0].height), (180, 180));
    let frames = luma_frames(&out[0].path)?;
    // The window is 180 wide, scaled 1:1: all of the square stays in it, where a fixed centre crop
    // (columns 70 to 250) would lose it at both ends.
    for (ms, luma) in frames.iter().step_by(5) {
        let (n, x) = bright(luma, 180);
        assert!(n > SIDE * SIDE * 8 / 10, "{ms} ms: {n} bright pixels centred at {x:.1}");
    }
    Ok(())
}

#[test]
fn a_silent_clip_moving_all_over_is_cropped_too() -> Result {
    let dir = tempfile::tempdir()?;
    // Bars scrolling across the whole picture: no one place holds the motion.
    let input = Clip { sound: false, ..Clip::default() }.make(dir.path(), "bars.mp4")?;
    let out = tool(json!({"aspect": "9:16", "mode": "follow"}), &input, &dir.path().join("follow"))?;
    assert_eq!((out[0].width, out[0].height), (180, 320));
    let facts = probe(&out[0].path)?;
    assert!(!facts.audio && facts.duration_ms.abs_diff(4000) <= 60, "{facts:?}");
    assert_eq!(luma_frames(&out[0].path)?.len(), 100);
    Ok(())
}
