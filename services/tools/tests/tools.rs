//! Each tool on real media made by GStreamer, with a measured property of what it made.

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use reelforge_tools::testing::{Clip, luma_frames, picture, psnr, tone_levels};
use reelforge_tools::{OutputKind, Params, ToolError, ToolType, probe, run};
use serde_json::json;

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

fn tool(tool: ToolType, params: serde_json::Value, input: &Path, dir: &Path) -> std::result::Result<Vec<reelforge_tools::Output>, ToolError> {
    tool_on(tool, params, &[input.to_path_buf()], dir)
}

/// Runs a tool on its inputs (`materialIds` order).
fn tool_on(tool: ToolType, params: serde_json::Value, inputs: &[PathBuf], dir: &Path) -> std::result::Result<Vec<reelforge_tools::Output>, ToolError> {
    let params = Params::parse(tool, &params)?;
    let mut last = 0;
    let outputs = run(&params, inputs, dir, &mut |p| last = p.done_ms.max(last), &AtomicBool::new(false))?;
    Ok(outputs)
}

#[test]
fn extracted_audio_lasts_as_long_as_the_source_track() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip::default().make(dir.path(), "in.mp4")?;
    let source_sound = Clip { pattern: None, ..Clip::default() }.make(dir.path(), "track.m4a")?;
    let track_ms = probe(&source_sound)?.duration_ms;
    for (format, name, slack_ms) in [("wav", "audio.wav", 30), ("mp3", "audio.mp3", 60), ("aac", "audio.m4a", 60)] {
        let out = tool(ToolType::ExtractAudio, json!({"format": format}), &input, &dir.path().join(format))?;
        assert_eq!(out.len(), 1);
        let o = &out[0];
        assert_eq!((o.kind, o.name.as_str(), o.width), (OutputKind::Audio, name, 0));
        let facts = probe(&o.path)?;
        assert!(facts.audio && facts.video.is_none());
        assert!(facts.duration_ms.abs_diff(track_ms) <= slack_ms, "{format}: {} ms of a {track_ms} ms track", facts.duration_ms);
    }
    Ok(())
}

#[test]
fn a_gif_has_fps_times_its_length_frames_at_its_width() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip::default().make(dir.path(), "in.mp4")?;
    let params = json!({"startMs": 500, "endMs": 2500, "fps": 10, "width": 160, "loop": true});
    let out = tool(ToolType::VideoToGif, params, &input, &dir.path().join("gif"))?;
    let o = &out[0];
    assert_eq!((o.kind, o.width, o.height, o.duration_ms), (OutputKind::Gif, 160, 90, 2000));
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(std::fs::File::open(&o.path)?)?;
    assert_eq!((decoder.width(), decoder.height()), (160, 90));
    let mut frames = 0;
    let mut palettes = 0;
    while let Some(frame) = decoder.read_next_frame()? {
        frames += 1;
        palettes += usize::from(frame.palette.is_some());
    }
    assert_eq!(frames, 20, "10 fps × 2 s");
    assert_eq!(palettes, 20, "a palette per frame");
    Ok(())
}

#[test]
fn a_compressed_video_is_within_5_percent_of_its_target() -> Result {
    let dir = tempfile::tempdir()?;
    // Noise: the encoder needs every bit of the target.
    let input = Clip { pattern: Some("snow"), seconds: 6.0, ..Clip::default() }.make(dir.path(), "in.mp4")?;
    let source = probe(&input)?;
    for target in [300_000u64, 600_000] {
        assert!(source.bytes > target * 2);
        let out = tool(ToolType::VideoCompress, json!({"targetBytes": target}), &input, &dir.path().join(target.to_string()))?;
        let size = std::fs::metadata(&out[0].path)?.len();
        let off = (size as f64 - target as f64).abs() / target as f64;
        assert!(off <= 0.05, "{size} bytes for a target of {target}");
        assert_eq!((out[0].width, out[0].height), (320, 180));
    }
    let low = tool(ToolType::VideoCompress, json!({"quality": "low"}), &input, &dir.path().join("low"))?;
    assert!(low[0].size < source.bytes);
    Ok(())
}

#[test]
fn a_speed_up_lasts_the_source_over_the_speed() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip::default().make(dir.path(), "in.mp4")?;
    let source = probe(&input)?;
    for speed in [2.0, 0.5] {
        let out = tool(ToolType::VideoSpeedup, json!({"speed": speed}), &input, &dir.path().join(speed.to_string()))?;
        let facts = probe(&out[0].path)?;
        let want = (source.duration_ms as f64 / speed) as u64;
        assert!(facts.duration_ms.abs_diff(want) <= 80, "{speed}×: {} ms, want {want}", facts.duration_ms);
        assert!(facts.audio, "the sound is kept");
        assert_eq!(facts.video.map(|v| v.2.round()), Some(25.0), "the frame rate is kept");
    }
    Ok(())
}

#[test]
fn a_cut_keeps_exactly_its_frames_joined() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip::default().make(dir.path(), "in.mp4")?;
    let source = luma_frames(&input)?;
    // Keep 0.4–1.2 s and 2.0–3.0 s: 20 + 25 frames at 25 fps.
    let params = json!({"mode": "keep", "ranges": [{"startMs": 2000, "endMs": 3000}, {"startMs": 400, "endMs": 1200}]});
    let out = tool(ToolType::QuickCutVideo, params, &input, &dir.path().join("keep"))?;
    let cut = luma_frames(&out[0].path)?;
    assert_eq!(cut.len(), 45);
    let at = |ms: u64| source.iter().position(|(t, _)| *t == ms).ok_or(format!("no source frame at {ms} ms"));
    // Each edge frame of the output is its source frame (PSNR ≥ 40 dB) and not a neighbour.
    for (out_index, src_ms) in [(0usize, 400u64), (19, 1160), (20, 2000), (44, 2960)] {
        let i = at(src_ms)?;
        let same = psnr(&cut[out_index].1, &source[i].1);
        assert!(same >= 40.0, "frame {out_index}: {same:.1} dB against its source");
        for n in [i.saturating_sub(1), (i + 1).min(source.len() - 1)].into_iter().filter(|n| *n != i) {
            assert!(psnr(&cut[out_index].1, &source[n].1) < same, "frame {out_index} matches a neighbour better");
        }
    }
    let facts = probe(&out[0].path)?;
    assert!(facts.duration_ms.abs_diff(1800) <= 40, "{} ms", facts.duration_ms);
    // Removing the same ranges keeps the rest: 4000 − 1800 ms.
    let params = json!({"mode": "remove", "ranges": [{"startMs": 400, "endMs": 1200}, {"startMs": 2000, "endMs": 3000}]});
    let rest = tool(ToolType::QuickCutVideo, params, &input, &dir.path().join("remove"))?;
    assert_eq!(luma_frames(&rest[0].path)?.len(), 55);
    Ok(())
}

/// The `w`×`h` region at (`x`, `y`) of a luma picture `stride` pixels wide.
fn region(luma: &[u8], stride: usize, (x, y, w, h): (usize, usize, usize, usize)) -> Vec<u8> {
    (y..y + h).flat_map(|row| luma[row * stride + x..row * stride + x + w].to_vec()).collect()
}

#[test]
fn a_crop_is_the_sources_rectangle_at_its_size_and_length() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip::default().make(dir.path(), "in.mp4")?;
    let source = luma_frames(&input)?;
    let out = tool(ToolType::VideoCrop, json!({"x": 40, "y": 40, "width": 160, "height": 100}), &input, &dir.path().join("crop"))?;
    let o = &out[0];
    assert_eq!((o.kind, o.name.as_str(), o.width, o.height), (OutputKind::Video, "crop.mp4", 160, 100));
    let facts = probe(&o.path)?;
    assert!(facts.audio && facts.duration_ms.abs_diff(4000) <= 40, "{facts:?}");
    let cropped = luma_frames(&o.path)?;
    assert_eq!(cropped.len(), source.len(), "every frame kept");
    // Each sampled frame is the source's rectangle (PSNR ≥ 40 dB), closer than the rectangle 2 px
    // to any side (the bars move sideways, and the rectangle holds the bars' lower edge).
    for k in [0, 37, 99] {
        let (t, ref pic) = cropped[k];
        let (_, ref src) = source[k];
        let same = psnr(pic, &region(src, 320, (40, 40, 160, 100)));
        assert!(same >= 40.0, "frame {k} at {t} ms: {same:.1} dB against the source's rectangle");
        for shifted in [(38, 40), (42, 40), (40, 38), (40, 42)] {
            let off = psnr(pic, &region(src, 320, (shifted.0, shifted.1, 160, 100)));
            assert!(off < same, "frame {k}: the rectangle at {shifted:?} matches better ({off:.1} dB ≥ {same:.1} dB)");
        }
    }
    // A rectangle past the picture is refused naming its side, and nothing is written.
    let past = tool(ToolType::VideoCrop, json!({"x": 200, "y": 0, "width": 160, "height": 100}), &input, &dir.path().join("past"));
    assert!(matches!(past, Err(ToolError::Param(ref e)) if e.field == "params.width"), "{past:?}");
    Ok(())
}

#[test]
fn an_audio_cut_lasts_its_kept_ranges() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip { pattern: None, seconds: 5.0, ..Clip::default() }.make(dir.path(), "in.m4a")?;
    let params = json!({"mode": "keep", "ranges": [{"startMs": 250, "endMs": 1000}, {"startMs": 3000, "endMs": 4500}]});
    let out = tool(ToolType::QuickCutAudio, params, &input, &dir.path().join("cut"))?;
    let facts = probe(&out[0].path)?;
    assert!(facts.video.is_none());
    assert!(facts.duration_ms.abs_diff(2250) <= 50, "{} ms", facts.duration_ms);
    Ok(())
}

#[test]
fn a_refused_input_or_a_failure_leaves_nothing_behind() -> Result {
    let dir = tempfile::tempdir()?;
    let silent = Clip { sound: false, ..Clip::default() }.make(dir.path(), "silent.mp4")?;
    let out = dir.path().join("out");
    let err = tool(ToolType::ExtractAudio, json!({"format": "mp3"}), &silent, &out).err();
    assert!(matches!(&err, Some(ToolError::Param(p)) if p.field == "materialIds"), "{err:?}");
    let past = json!({"mode": "keep", "ranges": [{"startMs": 5000, "endMs": 6000}]});
    let err = tool(ToolType::QuickCutVideo, past, &silent, &out).err();
    assert!(matches!(&err, Some(ToolError::Param(p)) if p.field == "params.ranges[0].startMs"), "{err:?}");
    // Not media: the tool fails before writing.
    let junk = dir.path().join("junk.mp4");
    std::fs::write(&junk, b"not a video at all")?;
    assert!(tool(ToolType::VideoSpeedup, json!({"speed": 2}), &junk, &out).is_err());
    // Cancelled part way: the partial output is removed.
    let input = Clip::default().make(dir.path(), "in.mp4")?;
    let params = Params::parse(ToolType::VideoCompress, &json!({"quality": "high"}))?;
    let err = run(&params, &[input], &out, &mut |_| {}, &AtomicBool::new(true)).err();
    assert!(matches!(err, Some(ToolError::Cancelled)), "{err:?}");
    let left: Vec<_> = std::fs::read_dir(&out).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
    Ok(())
}

/// The loudness of a file's sound, LUFS.
fn loudness(path: &Path) -> Result<f64> {
    reelforge_conform::measure(path)?.loudness_lufs.ok_or_else(|| "no loudness".into())
}

#[test]
fn a_replaced_sound_is_the_new_one_at_the_target_loudness_and_the_pictures_are_the_videos() -> Result {
    let dir = tempfile::tempdir()?;
    let video = Clip::default().make(dir.path(), "video.mp4")?;
    // A 440 Hz tone longer than the video: it is cut at the video's end.
    let song = Clip { pattern: None, seconds: 6.0, tone: 440, ..Clip::default() }.make(dir.path(), "song.m4a")?;
    let inputs = [video.clone(), song.clone()];
    let out = tool_on(ToolType::VideoReplaceAudio, json!({"mode": "replace", "loudnessLufs": -20}), &inputs, &dir.path().join("replace"))?;
    let o = &out[0];
    assert_eq!((o.kind, o.name.as_str(), o.width, o.height), (OutputKind::Video, "audio-replace.mp4", 320, 180));
    let facts = probe(&o.path)?;
    assert!(facts.audio && facts.duration_ms.abs_diff(4000) <= 60, "{facts:?}");
    let [new, old] = tone_levels(&o.path, &[440.0, 997.0])?[..] else { return Err("two levels".into()) };
    assert!(new > 0.01 && new > 50.0 * old, "440 Hz at {new:.4}, 997 Hz at {old:.4}: the sound is not the new one");
    let lufs = loudness(&o.path)?;
    assert!((lufs + 20.0).abs() <= 1.0, "{lufs:.2} LUFS, target −20");
    // The pictures are copied: every frame is the source's.
    let (src, got) = (luma_frames(&video)?, luma_frames(&o.path)?);
    assert_eq!(src.len(), got.len());
    assert!(src.iter().zip(&got).all(|(a, b)| a.1 == b.1), "the pictures changed");

    // A mix keeps both tones, the added one 6 dB under the video's, at the default −16 LUFS.
    let out = tool_on(ToolType::VideoReplaceAudio, json!({"mode": "mix", "gainDb": -6}), &inputs, &dir.path().join("mix"))?;
    let [new, old] = tone_levels(&out[0].path, &[440.0, 997.0])?[..] else { return Err("two levels".into()) };
    let db = 20.0 * (new / old).log10();
    assert!((db + 6.0).abs() <= 1.5, "the added tone sits {db:.2} dB against the video's, asked −6");
    let lufs = loudness(&out[0].path)?;
    assert!((lufs + 16.0).abs() <= 1.0, "mix: {lufs:.2} LUFS, target −16");

    // A gain of −10 dB on the video's own sound alone.
    let before = tone_levels(&video, &[997.0])?[0];
    let out = tool_on(ToolType::VideoReplaceAudio, json!({"mode": "gain", "gainDb": -10}), std::slice::from_ref(&video), &dir.path().join("gain"))?;
    let after = tone_levels(&out[0].path, &[997.0])?[0];
    let db = 20.0 * (after / before).log10();
    assert!((db + 10.0).abs() <= 0.5, "gain: {db:.2} dB, asked −10");

    // Refusals name the input that is wrong: a silent video cannot be mixed, a silent "sound" replaces nothing.
    let silent = Clip { sound: false, ..Clip::default() }.make(dir.path(), "silent.mp4")?;
    let err = tool_on(ToolType::VideoReplaceAudio, json!({"mode": "mix"}), &[silent.clone(), song.clone()], &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "materialIds[0]"), "{err:?}");
    let err = tool_on(ToolType::VideoReplaceAudio, json!({"mode": "replace"}), &[video.clone(), silent], &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "materialIds[1]"), "{err:?}");
    let err = tool_on(ToolType::VideoReplaceAudio, json!({"mode": "replace"}), &[song, video], &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "materialIds[0]"), "{err:?}");
    Ok(())
}

/// The mean of a luma picture's `rows` (a range of rows) `stride` pixels wide, between columns `cols`.
fn mean(luma: &[u8], stride: usize, rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> f64 {
    let mut sum = 0.0;
    let mut n = 0.0;
    for y in rows {
        for x in cols.clone() {
            sum += f64::from(luma[y * stride + x]);
            n += 1.0;
        }
    }
    sum / f64::max(n, 1.0)
}

#[test]
fn a_sound_with_a_picture_or_its_waveform_is_a_video_as_long_as_the_sound() -> Result {
    let dir = tempfile::tempdir()?;
    let song = Clip { pattern: None, seconds: 3.0, tone: 440, ..Clip::default() }.make(dir.path(), "song.m4a")?;
    // A square picture in a 320×180 frame: fitted 180×180 in the middle, black bars each side.
    let square = picture(dir.path(), "square.png", 160, 160)?;
    let params = json!({"visual": "picture", "width": 320, "height": 180});
    let out = tool_on(ToolType::PrePictureVideo, params, &[song.clone(), square.clone()], &dir.path().join("picture"))?;
    let o = &out[0];
    assert_eq!((o.kind, o.width, o.height), (OutputKind::Video, 320, 180));
    let facts = probe(&o.path)?;
    assert!(facts.audio && facts.duration_ms.abs_diff(3000) <= 80, "{facts:?}");
    let frames = luma_frames(&o.path)?;
    assert_eq!(frames.len(), 75, "25 fps × 3 s");
    let (first, last) = (&frames[0].1, &frames[74].1);
    assert!(psnr(first, last) >= 40.0, "a still picture stays still");
    assert!(mean(first, 320, 0..180, 0..60) < 20.0, "the left bar is black");
    assert!(mean(first, 320, 0..180, 100..220) > 60.0, "the picture is in the middle");
    assert!(tone_levels(&o.path, &[440.0])?[0] > 0.05, "the sound is the song");

    // The waveform: moving coloured lines over black, as long as the sound.
    let out = tool_on(ToolType::PrePictureVideo, json!({"visual": "waveform", "width": 320, "height": 180}), std::slice::from_ref(&song), &dir.path().join("wave"))?;
    let frames = luma_frames(&out[0].path)?;
    assert!(probe(&out[0].path)?.duration_ms.abs_diff(3000) <= 80);
    assert!(frames.iter().any(|(_, f)| f.iter().any(|&y| y > 100)), "the waveform is drawn");
    assert!(psnr(&frames[10].1, &frames[11].1) < 40.0, "the waveform moves");

    // A video where the picture should be is refused naming it.
    let video = Clip::default().make(dir.path(), "video.mp4")?;
    let err = tool_on(ToolType::PrePictureVideo, json!({"visual": "picture"}), &[song, video], &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "materialIds[1]"), "{err:?}");
    Ok(())
}

/// The mean absolute difference of horizontally neighbouring pixels in some rows: how sharp they are.
fn sharpness(luma: &[u8], stride: usize, rows: std::ops::Range<usize>) -> f64 {
    let mut sum = 0.0;
    let mut n = 0.0;
    for y in rows {
        for x in 1..stride {
            sum += f64::from(luma[y * stride + x].abs_diff(luma[y * stride + x - 1]));
            n += 1.0;
        }
    }
    sum / f64::max(n, 1.0)
}

#[test]
fn a_landscape_video_turned_portrait_has_its_picture_across_a_blurred_fill() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip::default().make(dir.path(), "in.mp4")?;
    let out = tool(ToolType::VideoHToV, json!({"aspect": "9:16"}), &input, &dir.path().join("portrait"))?;
    let o = &out[0];
    assert_eq!((o.kind, o.width, o.height), (OutputKind::Video, 180, 320));
    let facts = probe(&o.path)?;
    assert!(facts.audio && facts.duration_ms.abs_diff(4000) <= 60, "{facts:?}");
    let frames = luma_frames(&o.path)?;
    assert_eq!(frames.len(), 100, "every frame kept");
    // The picture is 180×102 at y 109; the fill above it is the bars, blurred: bright, and far
    // smoother than the picture's own edges.
    let f = &frames[50].1;
    let (fill, picture) = (sharpness(f, 180, 10..90), sharpness(f, 180, 115..205));
    assert!(mean(f, 180, 10..90, 0..180) > 40.0, "the fill is the picture, not black");
    assert!(fill * 3.0 < picture, "the fill is blurred: {fill:.2} against the picture's {picture:.2}");
    let square = tool(ToolType::VideoHToV, json!({"aspect": "1:1"}), &input, &dir.path().join("square"))?;
    assert_eq!((square[0].width, square[0].height), (180, 180));
    // A portrait video is refused.
    let tall = Clip { width: 180, height: 320, ..Clip::default() }.make(dir.path(), "tall.mp4")?;
    let err = tool(ToolType::VideoHToV, json!({"aspect": "9:16"}), &tall, &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "materialIds"), "{err:?}");
    Ok(())
}

#[test]
fn a_split_makes_one_clip_per_stretch_of_its_frames() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip::default().make(dir.path(), "in.mp4")?;
    let source = luma_frames(&input)?;
    let out = tool(ToolType::VideoSplit, json!({"times": [1000, 2600]}), &input, &dir.path().join("split"))?;
    let names: Vec<&str> = out.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["part-1.mp4", "part-2.mp4", "part-3.mp4"]);
    let mut first = 0;
    for (o, (frames, ms)) in out.iter().zip([(25usize, 1000u64), (40, 1600), (35, 1400)]) {
        let clip = luma_frames(&o.path)?;
        assert_eq!(clip.len(), frames, "{}", o.name);
        assert!(probe(&o.path)?.duration_ms.abs_diff(ms) <= 40, "{}", o.name);
        // Each clip starts on its own frame of the source.
        assert!(psnr(&clip[0].1, &source[first].1) >= 40.0, "{} starts at source frame {first}", o.name);
        first += frames;
    }
    let err = tool(ToolType::VideoSplit, json!({"times": [3950]}), &input, &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "params.times[0]"), "{err:?}");
    Ok(())
}

/// The luma variance of a `stride`-wide picture's box `(x, y, w, h)`.
fn variance(luma: &[u8], stride: usize, b: (usize, usize, usize, usize)) -> f64 {
    let v = region(luma, stride, b);
    let n = v.len().max(1) as f64;
    let mean = v.iter().map(|x| f64::from(*x)).sum::<f64>() / n;
    v.iter().map(|x| (f64::from(*x) - mean).powi(2)).sum::<f64>() / n
}

/// The PSNR of two `stride`-wide luma pictures over the pixels outside the box `(x, y, w, h)`.
fn psnr_outside(a: &[u8], b: &[u8], stride: usize, (x, y, w, h): (usize, usize, usize, usize)) -> f64 {
    let outside = |i: &usize| !((x..x + w).contains(&(i % stride)) && (y..y + h).contains(&(i / stride)));
    let (a, b): (Vec<u8>, Vec<u8>) = (0..a.len().min(b.len())).filter(outside).map(|i| (a[i], b[i])).unzip();
    psnr(&a, &b)
}

#[test]
fn a_removed_watermark_changes_the_box_alone_and_its_mark_is_gone() -> Result {
    let dir = tempfile::tempdir()?;
    // Sharp rings at (112, 40), 64×32, over the moving bars; the box leaves 8 px around them.
    let (mark, area) = ((112, 40, 64, 32), (104, 32, 80, 48));
    let input = Clip { mark: Some((112, 40, 64, 32)), ..Clip::default() }.make(dir.path(), "in.mp4")?;
    let source = luma_frames(&input)?;
    // The same bars without the rings: what the box hides.
    let behind = luma_frames(&Clip::default().make(dir.path(), "clean.mp4")?)?;
    for method in ["blur", "inpaint"] {
        let params = json!({"x": area.0, "y": area.1, "width": area.2, "height": area.3, "method": method});
        let out = tool(ToolType::VideoRemoveWatermark, params, &input, &dir.path().join(method))?;
        let o = &out[0];
        assert_eq!((o.kind, o.name.as_str(), o.width, o.height), (OutputKind::Video, "watermark-removed.mp4", 320, 180));
        let facts = probe(&o.path)?;
        assert!(facts.audio && facts.duration_ms.abs_diff(4000) <= 40, "{facts:?}");
        let frames = luma_frames(&o.path)?;
        assert_eq!(frames.len(), source.len(), "every frame kept");
        for k in [0, 49, 99] {
            let (src, got, clean) = (&source[k].1, &frames[k].1, &behind[k].1);
            let outside = psnr_outside(got, src, 320, area);
            assert!(outside >= 40.0, "{method}, frame {k}: {outside:.1} dB outside the box");
            let (before, after) = (variance(src, 320, mark), variance(got, 320, mark));
            let (marked, mended) = (psnr(&region(src, 320, mark), &region(clean, 320, mark)), psnr(&region(got, 320, mark), &region(clean, 320, mark)));
            eprintln!("{method} {k}: variance {before:.0} → {after:.0}, against the bars behind {marked:.1} → {mended:.1} dB");
            if method == "blur" {
                // The rings are smeared away: their detail is gone.
                assert!(after * 8.0 < before, "{method}, frame {k}: the mark's variance {before:.0} → {after:.0}");
            } else {
                // The fill from around the box is near the bars the rings hid.
                assert!(mended >= marked + 6.0, "{method}, frame {k}: {marked:.1} → {mended:.1} dB against the picture behind the mark");
            }
        }
    }
    // A box past the picture is refused naming the value past it, and nothing is written.
    let past = json!({"x": 300, "y": 0, "width": 40, "height": 20, "method": "blur"});
    let err = tool(ToolType::VideoRemoveWatermark, past, &input, &dir.path().join("past"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "params.width"), "{err:?}");
    let whole = json!({"x": 0, "y": 0, "width": 320, "height": 180, "method": "inpaint"});
    let err = tool(ToolType::VideoRemoveWatermark, whole, &input, &dir.path().join("past"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "params.width"), "{err:?}");
    assert!(!dir.path().join("past").exists() || std::fs::read_dir(dir.path().join("past"))?.next().is_none());
    Ok(())
}

#[test]
fn a_caption_band_is_found_at_its_text_rows_and_erased() -> Result {
    let dir = tempfile::tempdir()?;
    let captioned = Clip { caption: Some("CAPTIONS HERE 0123"), ..Clip::default() }.make(dir.path(), "captioned.mp4")?;
    let clean = Clip::default().make(dir.path(), "clean.mp4")?;
    // The text's rows: where the captioned picture differs from the clean one (left of the bars'
    // snow in the bottom right quarter, which two encodes may render differently).
    let (with, without) = (luma_frames(&captioned)?, luma_frames(&clean)?);
    let text_rows: Vec<usize> =
        (0..180).filter(|&y| (0..236).any(|x| with[50].1[y * 320 + x].abs_diff(without[50].1[y * 320 + x]) > 60)).collect();
    let (first, last) = (*text_rows.first().ok_or("no text drawn")?, *text_rows.last().ok_or("no text drawn")?);
    let (y, height) = reelforge_tools::detect_caption_band(&captioned, &AtomicBool::new(false))?.ok_or("no band found")?;
    let (y, bottom) = (y as usize, (y + height) as usize);
    assert!(y <= first && bottom > last, "band {y}..{bottom} misses the text rows {first}..={last}");
    assert!(first - y <= 10 && bottom - last <= 11, "band {y}..{bottom} is far wider than the text rows {first}..={last}");
    assert_eq!(reelforge_tools::detect_caption_band(&clean, &AtomicBool::new(false))?, None, "no band in a clip without captions");

    let out = tool(ToolType::VideoRemoveSubtitle, json!({"mode": "detect", "method": "inpaint"}), &captioned, &dir.path().join("detect"))?;
    assert_eq!(out[0].name, "captions-removed.mp4");
    let frames = luma_frames(&out[0].path)?;
    assert_eq!(frames.len(), with.len());
    let band = (0, y, 320, bottom - y);
    for k in [10, 50, 90] {
        let outside = psnr_outside(&frames[k].1, &with[k].1, 320, band);
        assert!(outside >= 40.0, "frame {k}: {outside:.1} dB outside the band");
        let (text, erased) = (sharpness(&with[k].1, 320, first..last + 1), sharpness(&frames[k].1, 320, first..last + 1));
        assert!(erased * 3.0 < text, "frame {k}: the text rows' sharpness {text:.1} → {erased:.1}");
    }
    // A band given by the user is erased the same way; one past the picture is refused.
    let given = json!({"mode": "band", "y": y, "height": bottom - y, "method": "blur"});
    let out = tool(ToolType::VideoRemoveSubtitle, given, &captioned, &dir.path().join("band"))?;
    assert!(psnr_outside(&luma_frames(&out[0].path)?[50].1, &with[50].1, 320, band) >= 40.0);
    let err = tool(ToolType::VideoRemoveSubtitle, json!({"mode": "band", "y": 170, "height": 20, "method": "blur"}), &captioned, &dir.path().join("no"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "params.height"), "{err:?}");
    // No caption to find: refused naming the mode, nothing written.
    let err = tool(ToolType::VideoRemoveSubtitle, json!({"mode": "detect", "method": "blur"}), &clean, &dir.path().join("none"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "params.mode"), "{err:?}");
    let left: Vec<_> = std::fs::read_dir(dir.path().join("none")).map(|d| d.flatten().map(|e| e.file_name()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "{left:?}");
    Ok(())
}

#[test]
fn a_reverse_plays_the_source_backwards_as_long_as_it() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip { seconds: 2.0, ..Clip::default() }.make(dir.path(), "in.mp4")?;
    let source = luma_frames(&input)?;
    let out_dir = dir.path().join("reverse");
    let out = tool(ToolType::VideoReverse, json!({}), &input, &out_dir)?;
    let o = &out[0];
    assert_eq!((out.len(), o.kind, o.name.as_str(), o.width, o.height), (1, OutputKind::Video, "reverse.mp4", 320, 180));
    let (before, after) = (probe(&input)?, probe(&o.path)?);
    assert!(after.audio, "the sound is kept, reversed");
    assert!(after.duration_ms.abs_diff(before.duration_ms) <= 40, "{} ms of a {} ms clip", after.duration_ms, before.duration_ms);
    let reversed = luma_frames(&o.path)?;
    assert_eq!(reversed.len(), source.len(), "every frame kept");
    let n = source.len();
    // Frame k of the reverse is frame n − 1 − k of the source; the bars move, so the source's own
    // frame k (the first against the last above all) is not.
    for k in [0, n / 2 + 3, n - 1] {
        let same = psnr(&reversed[k].1, &source[n - 1 - k].1);
        assert!(same >= 35.0, "frame {k}: {same:.1} dB against the source's frame {}", n - 1 - k);
    }
    let unreversed = psnr(&reversed[0].1, &source[0].1);
    assert!(unreversed < 30.0, "the first frame is the source's first too ({unreversed:.1} dB): the clip has no motion");
    // The spools are gone: only the output is left.
    let left: Vec<_> = std::fs::read_dir(&out_dir)?.filter_map(|e| e.ok().map(|e| e.file_name())).collect();
    assert_eq!(left, vec![std::ffi::OsString::from("reverse.mp4")]);
    // A silent clip makes a silent reverse; a sound alone has nothing to play backwards, and is refused.
    let silent = Clip { seconds: 1.0, sound: false, ..Clip::default() }.make(dir.path(), "silent.mp4")?;
    let made = tool(ToolType::VideoReverse, json!({}), &silent, &dir.path().join("silent"))?;
    assert!(!probe(&made[0].path)?.audio);
    let sound = Clip { pattern: None, seconds: 1.0, ..Clip::default() }.make(dir.path(), "in.m4a")?;
    let err = tool(ToolType::VideoReverse, json!({}), &sound, &dir.path().join("sound")).err();
    assert!(matches!(&err, Some(ToolError::Param(p)) if p.field == "materialIds"), "{err:?}");
    let err = Params::parse(ToolType::VideoReverse, &json!({"speed": 2})).err();
    assert!(matches!(&err, Some(p) if p.field == "params.speed"), "{err:?}");
    Ok(())
}
