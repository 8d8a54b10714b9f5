//! Scene detection, the tools built on it (VIDEO_SPLIT by scenes, INTELLIGENT_TASK) and the vocal
//! separation (EXTRACT_PERSON_AUDIO), on media made by GStreamer whose scenes and tones are known.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use reelforge_tools::testing::{Clip, channel_tone_levels, luma_frames, psnr, scenes, stereo_mix, tone_levels};
use reelforge_tools::{MsRange, OutputKind, Params, SceneDetect, ToolError, ToolType, run, scene};
use serde_json::json;

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

fn tool(tool: ToolType, params: serde_json::Value, input: &Path, dir: &Path) -> std::result::Result<Vec<reelforge_tools::Output>, ToolError> {
    let params = Params::parse(tool, &params)?;
    run(&params, &[input.to_path_buf()], dir, &mut |_| {}, &AtomicBool::new(false))
}

/// Five scenes at 25 fps: still red, moving bars, still blue, still white, a moving ball; cuts at frames
/// 20, 50, 75 and 110 (0.8, 2.0, 3.0 and 4.4 s), 130 frames in all.
const SEGMENTS: [(&str, u32); 5] = [("red", 20), ("smpte horizontal-speed=4", 30), ("blue", 25), ("white", 35), ("ball", 20)];
const CUT_FRAMES: [u64; 4] = [20, 50, 75, 110];
/// One frame at 25 fps, ms.
const FRAME_MS: u64 = 40;

#[test]
fn a_clip_of_n_scenes_has_n_minus_one_cuts_at_their_frames_and_a_moving_picture_none() -> Result {
    let dir = tempfile::tempdir()?;
    let input = scenes(dir.path(), "scenes.mp4", &SEGMENTS, 25)?;
    let detect = SceneDetect { sensitivity: 60, min_scene_ms: 200 };
    let mut last = 0;
    let found = scene::detect(&input, &detect, &AtomicBool::new(false), &mut |at| last = at)?;
    let starts: Vec<u64> = found.iter().skip(1).map(|s| s.start_ms).collect();
    assert_eq!(starts.len(), CUT_FRAMES.len(), "{found:?}");
    for (at, frame) in starts.iter().zip(CUT_FRAMES) {
        assert!(at.abs_diff(frame * FRAME_MS) <= FRAME_MS, "a cut at {at} ms, want frame {frame}: {found:?}");
    }
    assert_eq!((found[0].start_ms, found[4].end_ms), (0, 130 * FRAME_MS), "the scenes cover the clip");
    assert!(last >= 128 * FRAME_MS, "progress reaches the end: {last}");
    // The still colours have no motion and no contrast; the moving pictures have both.
    assert!(found[0].score() < 1.0 && found[2].score() < 1.0 && found[3].score() < 1.0, "{found:?}");
    assert!(found[1].score() > 10.0 && found[4].score() > 10.0, "{found:?}");
    // A shortest scene longer than the gaps joins the scenes around the nearest cuts.
    let long = scene::detect(&input, &SceneDetect { sensitivity: 60, min_scene_ms: 1100 }, &AtomicBool::new(false), &mut |_| {})?;
    assert!(long.iter().all(|s| s.length_ms() >= 1100), "{long:?}");

    // Bars moving sideways the whole clip long: the colours stay, no cut at any sensitivity offered.
    let moving = Clip { seconds: 3.0, sound: false, ..Clip::default() }.make(dir.path(), "moving.mp4")?;
    for sensitivity in [60, 90] {
        let one = scene::detect(&moving, &SceneDetect { sensitivity, min_scene_ms: 200 }, &AtomicBool::new(false), &mut |_| {})?;
        assert_eq!(one.len(), 1, "sensitivity {sensitivity}: {one:?}");
    }
    Ok(())
}

#[test]
fn a_split_by_scenes_makes_one_clip_per_scene_starting_on_its_frame() -> Result {
    let dir = tempfile::tempdir()?;
    let input = scenes(dir.path(), "scenes.mp4", &SEGMENTS, 25)?;
    let source = luma_frames(&input)?;
    let out = tool(ToolType::VideoSplit, json!({"mode": "scenes", "minSceneMs": 200}), &input, &dir.path().join("split"))?;
    let names: Vec<&str> = out.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["part-1.mp4", "part-2.mp4", "part-3.mp4", "part-4.mp4", "part-5.mp4"]);
    let mut first = 0usize;
    for (o, (_, frames)) in out.iter().zip(SEGMENTS) {
        let clip = luma_frames(&o.path)?;
        assert!(clip.len().abs_diff(frames as usize) <= 1, "{}: {} frames, want {frames}", o.name, clip.len());
        assert_eq!(o.ranges.len(), 1, "{}", o.name);
        assert!(o.ranges[0].start_ms.abs_diff(first as u64 * FRAME_MS) <= FRAME_MS, "{}: {:?}", o.name, o.ranges);
        // Each clip starts on its scene's first frame: it is that frame (re-encoded noise is the
        // least alike, above 30 dB) and far from the previous scene's last frame.
        let at = (o.ranges[0].start_ms / FRAME_MS) as usize;
        let same = psnr(&clip[0].1, &source[at].1);
        assert!(same >= 30.0, "{} starts on source frame {at}: {same:.1} dB", o.name);
        if at > 0 {
            let before = psnr(&clip[0].1, &source[at - 1].1);
            assert!(same >= before + 15.0, "{}: {same:.1} dB against its frame, {before:.1} dB against the one before", o.name);
        }
        first += frames as usize;
    }
    // A clip of one scene has nothing to split: refused naming the sensitivity, nothing left.
    let still = Clip { seconds: 2.0, sound: false, pattern: Some("red"), ..Clip::default() }.make(dir.path(), "still.mp4")?;
    let err = tool(ToolType::VideoSplit, json!({"mode": "scenes"}), &still, &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "params.sensitivity"), "{err:?}");
    let left: Vec<_> = std::fs::read_dir(dir.path().join("no")).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
    Ok(())
}

#[test]
fn intelligent_cut_keeps_the_liveliest_scenes_up_to_the_target_in_time_order() -> Result {
    let dir = tempfile::tempdir()?;
    let input = scenes(dir.path(), "scenes.mp4", &SEGMENTS, 25)?;
    // The ball (0.8 s) and the moving bars (1.2 s) score highest (the still colours score 0) and fill the 2 s.
    let params = json!({"minSceneMs": 200, "minKeepMs": 500, "targetMs": 2000});
    let out = tool(ToolType::IntelligentTask, params, &input, &dir.path().join("cut"))?;
    assert_eq!(out.len(), 1);
    let o = &out[0];
    assert_eq!((o.kind, o.name.as_str()), (OutputKind::Video, "highlights.mp4"));
    let near = |r: &MsRange, start: u64, end: u64| r.start_ms.abs_diff(start) <= FRAME_MS && r.end_ms.abs_diff(end) <= FRAME_MS;
    assert!(o.ranges.len() == 2 && near(&o.ranges[0], 800, 2000) && near(&o.ranges[1], 4400, 5200), "{:?}", o.ranges);
    let frames = luma_frames(&o.path)?;
    let kept: u64 = o.ranges.iter().map(|r| r.end_ms - r.start_ms).sum();
    assert_eq!(frames.len() as u64, kept / FRAME_MS, "the kept ranges' frames, joined");
    assert!(o.duration_ms.abs_diff(kept) <= FRAME_MS, "{} ms for {kept} ms kept", o.duration_ms);

    // The smart clips: the same scenes, each its own clip in time order, as long as its stretch.
    let clips = tool(ToolType::IntelligentTask, json!({"minSceneMs": 200, "minKeepMs": 500, "targetMs": 2000, "clips": true}), &input, &dir.path().join("clips"))?;
    let names: Vec<&str> = clips.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["clip-1.mp4", "clip-2.mp4"]);
    for (c, r) in clips.iter().zip(&o.ranges) {
        assert_eq!((c.kind, c.ranges.as_slice()), (OutputKind::Video, std::slice::from_ref(r)), "{}", c.name);
        assert_eq!(luma_frames(&c.path)?.len() as u64, (r.end_ms - r.start_ms) / FRAME_MS, "{}: its stretch's frames", c.name);
    }

    // No scene as long as the minimum: refused naming it. A cancel leaves nothing.
    let err = tool(ToolType::IntelligentTask, json!({"minSceneMs": 200, "minKeepMs": 4000, "targetMs": 5000}), &input, &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "params.minKeepMs"), "{err:?}");
    let params = Params::parse(ToolType::IntelligentTask, &json!({"targetMs": 2000}))?;
    let err = run(&params, &[input], &dir.path().join("no"), &mut |_| {}, &AtomicBool::new(true)).err();
    assert!(matches!(err, Some(ToolError::Cancelled)), "{err:?}");
    let left: Vec<_> = std::fs::read_dir(dir.path().join("no")).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
    Ok(())
}

/// `a` against `b`, dB.
fn db(a: f64, b: f64) -> f64 {
    20.0 * (a / b).log10()
}

#[test]
fn the_voice_keeps_the_centred_tone_and_drops_the_panned_one() -> Result {
    let dir = tempfile::tempdir()?;
    // The "voice" 440 Hz in the middle, the "music" 2500 Hz in the left channel alone.
    let mix = stereo_mix(dir.path(), "mix.m4a", 440, Some(2500), false, 3.0)?;
    let source = tone_levels(&mix, &[440.0, 2500.0])?;
    let out = tool(ToolType::ExtractPersonAudio, json!({}), &mix, &dir.path().join("voice"))?;
    let names: Vec<&str> = out.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["voice.m4a", "accompaniment.m4a"]);
    assert!(out.iter().all(|o| o.kind == OutputKind::Audio && o.duration_ms.abs_diff(3000) <= 60), "{out:?}");
    let voice = tone_levels(&out[0].path, &[440.0, 2500.0])?;
    assert!(db(voice[0], source[0]).abs() <= 1.0, "the centred tone is kept: {:.2} dB", db(voice[0], source[0]));
    assert!(db(voice[1], source[1]) <= -20.0, "the panned tone is {:.1} dB", db(voice[1], source[1]));
    // The accompaniment is the left channel's tone, without the centred one.
    let left = channel_tone_levels(&out[1].path, 0, &[440.0, 2500.0])?;
    assert!(db(left[1], 0.25).abs() <= 1.0, "the panned tone stays in the accompaniment: {:.2} dB", db(left[1], 0.25));
    assert!(db(left[0], 0.25) <= -20.0, "the centred tone leaves it: {:.1} dB", db(left[0], 0.25));

    // Without the accompaniment, one output; a mono sound is refused naming why, nothing left.
    let alone = tool(ToolType::ExtractPersonAudio, json!({"accompaniment": false}), &mix, &dir.path().join("alone"))?;
    assert_eq!(alone.len(), 1);
    let mono = stereo_mix(dir.path(), "mono.m4a", 440, None, true, 1.0)?;
    let err = tool(ToolType::ExtractPersonAudio, json!({}), &mono, &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "materialIds" && p.message.contains("mono")), "{err:?}");
    let left: Vec<_> = std::fs::read_dir(dir.path().join("no")).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
    Ok(())
}
