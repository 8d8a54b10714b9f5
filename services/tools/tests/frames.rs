//! VIDEO_KEY_FRAMES (`ai-frame-cut`) on a clip GStreamer makes whose scenes are known: one picture
//! per scene whose content is that scene's, or one picture every so often at its time.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use reelforge_tools::testing::{luma_frames, mean_rgb, picture_rgb, psnr, rgb_luma, scenes};
use reelforge_tools::{OutputKind, Params, ToolError, ToolType, run};
use serde_json::json;

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// Still red 0–0.8 s, moving bars 0.8–2 s, still blue 2–3 s, still white 3–4.4 s, a moving ball 4.4–5.2 s.
const SEGMENTS: [(&str, u32); 5] = [("red", 20), ("smpte horizontal-speed=4", 30), ("blue", 25), ("white", 35), ("ball", 20)];
const FRAME_MS: u64 = 40;

fn key_frames(params: serde_json::Value, input: &Path, dir: &Path) -> std::result::Result<Vec<reelforge_tools::Output>, ToolError> {
    let params = Params::parse(ToolType::VideoKeyFrames, &params)?;
    run(&params, &[input.to_path_buf()], dir, &mut |_| {}, &AtomicBool::new(false))
}

/// The time of the source frame a picture is most like (luma PSNR), with that PSNR.
fn most_like(picture: &[u8], source: &[(u64, Vec<u8>)]) -> (u64, f64) {
    source.iter().map(|(at, luma)| (*at, psnr(picture, luma))).fold((0, f64::MIN), |best, x| if x.1 > best.1 { x } else { best })
}

#[test]
fn one_picture_per_scene_shows_that_scene() -> Result {
    let dir = tempfile::tempdir()?;
    let input = scenes(dir.path(), "scenes.mp4", &SEGMENTS, 25)?;
    let source = luma_frames(&input)?;
    let out = key_frames(json!({"mode": "scenes", "minSceneMs": 200}), &input, &dir.path().join("frames"))?;
    let names: Vec<&str> = out.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["frame-1.jpg", "frame-2.jpg", "frame-3.jpg", "frame-4.jpg", "frame-5.jpg"]);
    let mut first = 0u64;
    for (o, (pattern, frames)) in out.iter().zip(SEGMENTS) {
        let end = first + u64::from(frames);
        assert_eq!((o.kind, o.width, o.height, o.duration_ms), (OutputKind::Picture, 320, 180, 0), "{}", o.name);
        assert_eq!(o.ranges.len(), 1, "{}", o.name);
        let r = o.ranges[0];
        assert!(r.start_ms.abs_diff(first * FRAME_MS) <= FRAME_MS && r.end_ms.abs_diff(end * FRAME_MS) <= FRAME_MS, "{}: {r:?}", o.name);
        let (w, h, rgb) = picture_rgb(&std::fs::read(&o.path)?)?;
        assert_eq!((w, h, o.size), (320, 180, std::fs::metadata(&o.path)?.len()));
        // The picture is a frame of its own scene: it is far more like the scene's frames than any other.
        let inside = |at: u64| at >= first * FRAME_MS && at < end * FRAME_MS;
        let luma = rgb_luma(&rgb);
        let (own, other): (Vec<_>, Vec<_>) = source.iter().cloned().partition(|(at, _)| inside(*at));
        let ((at, db), (_, elsewhere)) = (most_like(&luma, &own), most_like(&luma, &other));
        assert!(db >= elsewhere + 6.0, "{} ({pattern}): {db:.1} dB against its frame at {at} ms, {elsewhere:.1} dB against another scene's", o.name);
        let [red, green, blue] = mean_rgb(&rgb);
        match pattern {
            "red" => assert!(red > 200.0 && green < 40.0 && blue < 40.0, "{}: {red:.0} {green:.0} {blue:.0}", o.name),
            "blue" => assert!(blue > 200.0 && red < 40.0 && green < 40.0, "{}: {red:.0} {green:.0} {blue:.0}", o.name),
            "white" => assert!(red.min(green).min(blue) > 230.0, "{}: {red:.0} {green:.0} {blue:.0}", o.name),
            _ => {}
        }
        first = end;
    }
    // A cancel leaves nothing.
    let params = Params::parse(ToolType::VideoKeyFrames, &json!({"mode": "scenes"}))?;
    let err = run(&params, &[input], &dir.path().join("no"), &mut |_| {}, &AtomicBool::new(true)).err();
    assert!(matches!(err, Some(ToolError::Cancelled)), "{err:?}");
    let left: Vec<_> = std::fs::read_dir(dir.path().join("no")).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
    Ok(())
}

#[test]
fn a_picture_every_second_is_the_frame_at_its_time() -> Result {
    let dir = tempfile::tempdir()?;
    let input = scenes(dir.path(), "scenes.mp4", &SEGMENTS, 25)?;
    let source = luma_frames(&input)?;
    let out = key_frames(json!({"mode": "interval", "everyMs": 1000}), &input, &dir.path().join("frames"))?;
    // 5.2 s: pictures at 0, 1, 2, 3, 4 and 5 s, the last standing for 5–5.2 s.
    assert_eq!(out.len(), 6, "{out:?}");
    for (k, o) in out.iter().enumerate() {
        let t = k as u64 * 1000;
        assert_eq!((o.ranges[0].start_ms, o.ranges[0].end_ms), (t, (t + 1000).min(5200)), "{}", o.name);
        let (_, _, rgb) = picture_rgb(&std::fs::read(&o.path)?)?;
        let luma = rgb_luma(&rgb);
        let (_, frame) = source.iter().find(|(at, _)| *at >= t).ok_or("a frame at the time")?;
        let (_, best) = most_like(&luma, &source);
        let own = psnr(&luma, frame);
        assert!(own >= best - 0.5, "{} is the frame at {t} ms: {own:.1} dB, the best match {best:.1} dB", o.name);
    }
    // Too many pictures for the clip: refused naming the interval.
    let facts = reelforge_tools::probe(&input)?;
    let dense = Params::parse(ToolType::VideoKeyFrames, &json!({"mode": "interval", "everyMs": 500}))?;
    assert!(dense.check_input(&reelforge_tools::Facts { duration_ms: 60_000, ..facts }).is_err_and(|e| e.field == "params.everyMs"));
    Ok(())
}
