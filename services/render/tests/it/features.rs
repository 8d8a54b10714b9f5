//! Scene backgrounds, picture masks, reversed and cut clips, sharpen and shape paint: each drawn
//! and checked at a pixel.

use reelforge_render::compose::Bitmap;
use reelforge_render::encode::{EncodeSettings, Encoder};
use reelforge_render::{Materials, RenderOptions, render, render_frame};
use reelforge_timeline::Rule;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::atomic::AtomicBool;

type R = Result<(), Box<dyn std::error::Error>>;

const RED: [u8; 3] = [255, 0, 0];
const BLUE: [u8; 3] = [0, 0, 255];
const GREEN: [u8; 3] = [0, 255, 0];

fn rule(scenes: Value) -> Result<Rule, Box<dyn std::error::Error>> {
    let doc = json!({
        "version": 1, "frameRate": 30, "videoQuality": 99,
        "resolutionRatio": {"name": "16:9", "width": 160, "height": 90, "ratio": 1.777, "sizeId": 41, "targetWidth": 160},
        "scenes": scenes
    });
    Ok(Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?)
}

fn png(dir: &Path, name: &str, w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> R {
    let img = image::RgbaImage::from_fn(w, h, |x, y| image::Rgba(f(x, y)));
    img.save(dir.join(name))?;
    Ok(())
}

/// Writes a 1 s clip, red for its first half and blue for its second, with our own encoder.
fn red_then_blue(dir: &Path, name: &str) -> R {
    let settings = EncodeSettings {
        width: 64,
        height: 36,
        fps: (30, 1),
        crf: 18,
        audio_bitrate: 128_000,
        audio: false,
        watchdog_s: 20,
    };
    let mut enc = Encoder::create(&dir.join(name), settings)?;
    for i in 0..30 {
        let c = if i < 15 { RED } else { BLUE };
        enc.push_frame(&Bitmap::filled(64, 36, c).px)?;
    }
    enc.finish()?;
    Ok(())
}

/// Renders `r` (or scenes `scenes` of it) to `out`.
fn mp4(r: &Rule, m: &Materials, out: &Path, scenes: Option<std::ops::Range<usize>>) -> R {
    let opts = RenderOptions {
        scenes,
        ..RenderOptions::default()
    };
    render(r, m, out, &opts, &mut |_| {}, &AtomicBool::new(false))?;
    Ok(())
}

/// Opens a rendered 160×90 file for reading frame by frame.
fn frames_of(
    out: &Path,
) -> Result<reelforge_render::decode::VideoDecoder, Box<dyn std::error::Error>> {
    let req = reelforge_render::decode::VideoRequest {
        width: 160,
        height: 90,
        fps: (30, 1),
        start: 0.0,
        watchdog_s: 20,
        alpha: false,
    };
    Ok(reelforge_render::decode::VideoDecoder::open(out, &req)?)
}

fn px(b: &Bitmap, x: u32, y: u32) -> [u8; 3] {
    let o = ((y * b.w + x) * 4) as usize;
    [b.px[o], b.px[o + 1], b.px[o + 2]]
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= 48)
}

fn scene(id: Option<i64>, extra: Value, layers: Value) -> Value {
    let mut s = json!({"bgColor": "#00ff00", "timeLength": 2, "layers": layers});
    if let (Some(o), Some(id)) = (s.as_object_mut(), id) {
        o.insert("id".into(), json!(id));
    }
    if let (Some(o), Some(e)) = (s.as_object_mut(), extra.as_object()) {
        o.extend(e.clone());
    }
    s
}

fn with_ids(dir: &Path, ids: &[(&str, &str)]) -> Materials {
    let mut m = Materials::new(dir);
    for (id, path) in ids {
        m.by_id.insert((*id).to_owned(), (*path).to_owned());
    }
    m
}

#[test]
fn background_picture_fits_or_covers_and_blurs() -> R {
    let dir = tempfile::tempdir()?;
    // 2:1 on a 16:9 frame: fitted, it leaves bands of the scene colour above and below.
    png(dir.path(), "wide.png", 40, 20, |x, _| {
        if x < 20 {
            [255, 0, 0, 255]
        } else {
            [0, 0, 255, 255]
        }
    })?;
    let m = with_ids(dir.path(), &[("500", "wide.png")]);
    let fit = render_frame(
        &rule(json!([scene(Some(500), json!({}), json!([]))]))?,
        &m,
        1.0,
    )?;
    assert!(near(px(&fit, 40, 1), GREEN), "band {:?}", px(&fit, 40, 1));
    assert!(
        near(px(&fit, 40, 45), RED),
        "picture {:?}",
        px(&fit, 40, 45)
    );
    assert!(near(px(&fit, 120, 45), BLUE));
    let cover = render_frame(
        &rule(json!([scene(
            Some(500),
            json!({"bgFit": "cover"}),
            json!([])
        )]))?,
        &m,
        1.0,
    )?;
    assert!(
        near(px(&cover, 40, 1), RED),
        "covered {:?}",
        px(&cover, 40, 1)
    );
    let blurred = render_frame(
        &rule(json!([scene(
            Some(500),
            json!({"bgFit": "cover", "bgBlur": 20}),
            json!([])
        )]))?,
        &m,
        1.0,
    )?;
    let mid = px(&blurred, 80, 45);
    assert!(
        mid[0] > 60 && mid[2] > 60,
        "the edge between red and blue is blurred: {mid:?}"
    );
    // A scene id the library does not know is a plain canvas.
    let plain = render_frame(
        &rule(json!([scene(Some(501), json!({}), json!([]))]))?,
        &m,
        1.0,
    )?;
    assert!(near(px(&plain, 80, 45), GREEN));
    Ok(())
}

#[test]
fn background_clip_loops_over_its_range() -> R {
    let dir = tempfile::tempdir()?;
    red_then_blue(dir.path(), "bg.mp4")?;
    let m = with_ids(dir.path(), &[("600", "bg.mp4")]);
    let r = rule(json!([scene(
        Some(600),
        json!({"bgFit": "cover"}),
        json!([])
    )]))?;
    // 1 s clip in a 2 s scene: 1.2 s is 0.2 s into the second loop (red), 1.7 s is blue.
    assert!(near(px(&render_frame(&r, &m, 1.2)?, 80, 45), RED));
    assert!(near(px(&render_frame(&r, &m, 1.7)?, 80, 45), BLUE));
    // The range picks the blue half only.
    let r = rule(json!([scene(
        Some(600),
        json!({"bgFit": "cover", "range": [0.5, 1.0]}),
        json!([])
    )]))?;
    assert!(near(px(&render_frame(&r, &m, 0.2)?, 80, 45), BLUE));
    // The whole document renders with it (the decoder loops inside one pass).
    let out = dir.path().join("out.mp4");
    mp4(&r, &m, &out, None)?;
    Ok(())
}

fn clip_layer(extra: Value) -> Value {
    let mut l = json!({"type": "video", "id": "clip", "videoSrc": "clip.mp4", "x": 0, "y": 0, "w": 160, "h": 90,
        "startTime": 0, "endTime": 1, "inTime": 0, "outTime": 0, "noAudio": true});
    if let (Some(o), Some(e)) = (l.as_object_mut(), extra.as_object()) {
        o.extend(e.clone());
    }
    l
}

#[test]
fn reversed_and_cut_clips() -> R {
    let dir = tempfile::tempdir()?;
    red_then_blue(dir.path(), "clip.mp4")?;
    let m = Materials::new(dir.path());
    let at = |layer: Value, t: f64| -> Result<[u8; 3], Box<dyn std::error::Error>> {
        let b = render_frame(
            &rule(json!([scene(None, json!({}), json!([layer]))]))?,
            &m,
            t,
        )?;
        Ok(px(&b, 80, 45))
    };
    assert!(near(at(clip_layer(json!({})), 0.2)?, RED));
    assert!(near(at(clip_layer(json!({})), 0.8)?, BLUE));
    // Backwards: blue first, red last.
    assert!(near(at(clip_layer(json!({"reverseBy": true})), 0.2)?, BLUE));
    assert!(near(
        at(clip_layer(json!({"reverseBy": 1, "sharpen": 50})), 0.8)?,
        RED
    ));
    // A 0.5 s cut on a 1 s layer holds the cut's last frame (red), not the clip's later blue.
    assert!(near(
        at(
            clip_layer(json!({"cutInfo": {"start": 0, "end": 0.5}})),
            0.8
        )?,
        RED
    ));
    // Reversed cut of the blue half only.
    assert!(near(
        at(
            clip_layer(json!({"cutInfo": {"start": 0.5, "end": 1.0}, "reverseBy": true})),
            0.1
        )?,
        BLUE
    ));
    Ok(())
}

#[test]
fn picture_mask_keeps_only_the_masked_part() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "red.png", 40, 20, |_, _| [255, 0, 0, 255])?;
    // Transparent left half, opaque right half.
    png(dir.path(), "mask.png", 40, 20, |x, _| {
        if x < 20 {
            [0, 0, 0, 0]
        } else {
            [255, 255, 255, 255]
        }
    })?;
    let m = with_ids(dir.path(), &[("900", "mask.png")]);
    let layer = json!({"type": "picture", "id": "logo", "src": "red.png", "x": 0, "y": 0, "w": 160, "h": 90,
        "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0, "maskClip": 900, "maskBlur": 0});
    let b = render_frame(
        &rule(json!([scene(None, json!({}), json!([layer.clone()]))]))?,
        &m,
        1.0,
    )?;
    assert!(
        near(px(&b, 20, 45), GREEN),
        "masked out {:?}",
        px(&b, 20, 45)
    );
    assert!(near(px(&b, 140, 45), RED), "kept {:?}", px(&b, 140, 45));
    // A blurred mask edge mixes both.
    let mut soft = layer.clone();
    soft["maskBlur"] = json!(20);
    let b = render_frame(
        &rule(json!([scene(None, json!({}), json!([soft]))]))?,
        &m,
        1.0,
    )?;
    let edge = px(&b, 80, 45);
    assert!(edge[0] > 60 && edge[1] > 60, "soft edge {edge:?}");
    // A mask the library does not know fails, naming it.
    let msg = render_frame(
        &rule(json!([scene(None, json!({}), json!([layer]))]))?,
        &Materials::new(dir.path()),
        1.0,
    )
    .err()
    .ok_or("should fail")?
    .to_string();
    assert!(
        msg.contains("mask material 900") && msg.contains("layer logo"),
        "{msg}"
    );
    Ok(())
}

#[test]
fn shape_takes_the_layer_paint_unless_special() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "blue.png", 10, 10, |_, _| [0, 0, 255, 255])?;
    let m = Materials::new(dir.path());
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#000000"/></svg>"##;
    let shape = |extra: Value| -> Result<[u8; 3], Box<dyn std::error::Error>> {
        let mut l = json!({"type": "shape", "id": "s", "shape": "rect", "shapeCode": svg, "fill": "#ff0000",
            "x": 40, "y": 20, "w": 80, "h": 50, "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0});
        if let (Some(o), Some(e)) = (l.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        let b = render_frame(&rule(json!([scene(None, json!({}), json!([l]))]))?, &m, 1.0)?;
        Ok(px(&b, 80, 45))
    };
    assert!(near(shape(json!({}))?, RED), "recoloured");
    assert!(
        near(shape(json!({"svgStyleType": "specialSvg"}))?, [0, 0, 0]),
        "kept its own colours"
    );
    assert!(
        near(
            shape(json!({"fillType": "image", "backgroundSrc": "blue.png"}))?,
            BLUE
        ),
        "picture fill"
    );
    let grad = shape(json!({"fillType": "gradient", "gradientColors": ["#ff0000", "#0000ff"]}))?;
    assert!(grad[0] > 60 && grad[2] > 60, "gradient midpoint {grad:?}");
    Ok(())
}

/// A shape that fills its box keeps its drop shadow past the box, as the stage draws it (issue
/// 33: the shadow was made only as big as the box and the shape covered it).
#[test]
fn a_shape_filling_its_box_keeps_its_shadow() -> R {
    let dir = tempfile::tempdir()?;
    let m = Materials::new(dir.path());
    let svg = r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#000000"/></svg>"##;
    let l = json!({"type": "shape", "id": "s", "shape": "rect", "shapeCode": svg, "fill": "#ff0000",
        "x": 40, "y": 20, "w": 80, "h": 50, "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0,
        "shadowColor": "#000000", "shadowSetX": 8, "shadowSetY": 8, "shadowBlur": 4});
    let b = render_frame(&rule(json!([scene(None, json!({}), json!([l]))]))?, &m, 1.0)?;
    assert!(near(px(&b, 80, 45), RED), "the shape itself: {:?}", px(&b, 80, 45));
    // Right of and below the box (which ends at x 120, y 70): the shadow darkens the green scene.
    for (x, y) in [(124, 60), (100, 74), (124, 74)] {
        let p = px(&b, x, y);
        assert!(p[1] < 170 && p[0] < 60, "the shadow at ({x}, {y}): {p:?}");
    }
    // Above and left of the box, and far from it, the scene's green.
    for (x, y) in [(37, 17), (150, 85)] {
        assert!(near(px(&b, x, y), [0, 255, 0]), "no shadow at ({x}, {y}): {:?}", px(&b, x, y));
    }
    Ok(())
}

#[test]
fn a_catalogue_rectangles_radius_rounds_its_corners() -> R {
    let dir = tempfile::tempdir()?;
    let m = Materials::new(dir.path());
    let square = reelforge_timeline::catalogue::shapes::svg("rect").ok_or("the catalogue has a rectangle")?;
    let l = json!({"type": "shape", "id": "s", "shape": "rect", "shapeCode": square, "fill": "#ff0000",
        "x": 40, "y": 20, "w": 80, "h": 50, "borderRadius": 20, "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0});
    let b = render_frame(&rule(json!([scene(None, json!({}), json!([l]))]))?, &m, 1.0)?;
    // The box's corner is outside a 20 px round; its edges' middles and its centre are inside.
    assert!(near(px(&b, 41, 21), [0, 255, 0]), "the corner is cut: {:?}", px(&b, 41, 21));
    assert!(near(px(&b, 118, 68), [0, 255, 0]), "the far corner is cut: {:?}", px(&b, 118, 68));
    for (x, y) in [(80, 21), (41, 45), (80, 45)] {
        assert!(near(px(&b, x, y), RED), "inside the rounded box at ({x}, {y}): {:?}", px(&b, x, y));
    }
    Ok(())
}

#[test]
fn segment_audio_lines_up_with_the_full_render() -> R {
    let dir = tempfile::tempdir()?;
    let st = std::process::Command::new("gst-launch-1.0")
        .args([
            "-q",
            "audiotestsrc",
            "num-buffers=300",
            "wave=pink-noise",
            "!",
            "audio/x-raw,rate=48000,channels=2",
            "!",
            "wavenc",
            "!",
            "filesink",
        ])
        .arg(format!(
            "location={}",
            dir.path().join("tone.wav").display()
        ))
        .status()?;
    assert!(st.success());
    let doc = json!({
        "version": 1, "frameRate": 30, "videoQuality": 99,
        "resolutionRatio": {"name": "16:9", "width": 160, "height": 90, "ratio": 1.777, "sizeId": 41, "targetWidth": 160},
        "scenes": [scene(None, json!({}), json!([])), scene(None, json!({}), json!([]))],
        "audio": [{"src": "tone.wav", "startTime": 0, "endTime": 4, "volume": 100}]
    });
    let r = Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?;
    let m = Materials::new(dir.path());
    let full = dir.path().join("full.mp4");
    let seg = dir.path().join("seg.mp4");
    mp4(&r, &m, &full, None)?;
    mp4(&r, &m, &seg, Some(1..2))?;
    let a = reelforge_render::decode::decode_audio(&full, 0.0, None, 20)?;
    let b = reelforge_render::decode::decode_audio(&seg, 0.0, None, 20)?;
    // The AAC priming is behind each file's edit list: the sound starts on the document's
    // first sample (found against the source), so segments join sample for sample.
    let src = reelforge_render::decode::decode_audio(&dir.path().join("tone.wav"), 0.0, None, 20)?;
    let lag = |x: &[f32], y: &[f32], from: usize| {
        let mut best = (f64::MAX, 0i64);
        for off in -3000i64..3000 {
            let mut d = 0.0;
            for i in (from..from + 16000).step_by(7) {
                let p = x
                    .get(((i as i64 + off) * 2) as usize)
                    .copied()
                    .unwrap_or(0.0);
                let q = y.get(i * 2).copied().unwrap_or(0.0);
                d += f64::from(p - q).powi(2);
            }
            if d < best.0 {
                best = (d, off);
            }
        }
        best.1
    };
    assert_eq!(
        lag(&a, &src, 4000),
        0,
        "the full render's sound starts on time"
    );
    assert_eq!(lag(&a, &src, 150_000), 0, "and stays on time");
    // The segment's sound is the full render's from the same sample on.
    assert_eq!(lag(&a[2 * 48_000 * 2..], &b, 4000), 0);
    Ok(())
}

#[test]
fn a_covering_layer_hides_what_is_under_it_only_while_it_covers() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "red.png", 16, 9, |_, _| [255, 0, 0, 255])?;
    png(dir.path(), "blue.png", 16, 9, |_, _| [0, 0, 255, 255])?;
    let full = |id: &str, src: &str, z: i64, motion_in: &str| {
        json!({"type": "picture", "id": id, "src": src, "x": 0, "y": 0, "w": 160, "h": 90, "z": z,
            "startTime": 0, "endTime": 2, "motionIn": motion_in, "inTime": 1, "outTime": 0})
    };
    let r = rule(json!([scene(
        None,
        json!({}),
        json!([
            full("under", "blue.png", 1, ""),
            full("over", "red.png", 2, "MOTIONIN_MOVE_LEFT")
        ])
    )]))?;
    let m = Materials::new(dir.path());
    let moving = render_frame(&r, &m, 0.3)?;
    let corners = [px(&moving, 1, 45), px(&moving, 158, 45)];
    assert!(
        corners.iter().any(|c| near(*c, BLUE)),
        "the lower layer shows beside the moving one: {corners:?}"
    );
    let at_rest = render_frame(&r, &m, 1.5)?;
    for (x, y) in [(0, 0), (159, 89), (80, 45)] {
        assert!(
            near(px(&at_rest, x, y), RED),
            "covered at ({x}, {y}): {:?}",
            px(&at_rest, x, y)
        );
    }
    // The MP4 agrees frame for frame with the stills (the cache and the cull run across frames).
    let out = dir.path().join("out.mp4");
    mp4(&r, &m, &out, None)?;
    let mut dec = frames_of(&out)?;
    let mut n = 0;
    while let Some(f) = dec.next_frame()? {
        if n == 9 || n == 45 {
            let still = render_frame(&r, &m, f64::from(n) / 30.0)?;
            let d = f.to_packed();
            for (x, y) in [(1u32, 45u32), (158, 45), (80, 10)] {
                let o = ((y * 160 + x) * 4) as usize;
                assert!(
                    near([d[o], d[o + 1], d[o + 2]], px(&still, x, y)),
                    "frame {n} at ({x}, {y})"
                );
            }
        }
        n += 1;
    }
    assert_eq!(n, 60);
    Ok(())
}

#[test]
fn transparent_webm_effect_shows_the_scene_through() -> R {
    let dir = tempfile::tempdir()?;
    // Half-transparent red VP8 with alpha, as ffmpeg writes it (our encoder has no alpha).
    let status = std::process::Command::new("ffmpeg")
        .args(["-loglevel", "error", "-y", "-f", "lavfi", "-i"])
        .arg("color=c=red:s=160x90:r=30:d=2,format=yuva420p,colorchannelmixer=aa=0.5")
        .args([
            "-c:v",
            "libvpx",
            "-pix_fmt",
            "yuva420p",
            "-auto-alt-ref",
            "0",
        ])
        .arg(dir.path().join("fx.webm"))
        .status()?;
    assert!(status.success(), "ffmpeg could not write the VP8 clip");
    let layer = json!({"type": "specialEffects", "id": "fx", "src": "fx.webm",
        "startTime": 0, "endTime": 2, "x": 0, "y": 0, "w": 160, "h": 90, "z": 1});
    let still = render_frame(
        &rule(json!([scene(None, json!({}), json!([layer]))]))?,
        &Materials::new(dir.path()),
        0.5,
    )?;
    // Red at half alpha over the green scene: both show, neither alone.
    let [r, g, b] = px(&still, 80, 45);
    assert!(
        (90..=170).contains(&r) && (90..=170).contains(&g) && b < 40,
        "{:?}",
        [r, g, b]
    );
    Ok(())
}

#[test]
fn a_layer_with_a_null_end_is_drawn_to_the_end_of_its_scene() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "red.png", 40, 20, |_, _| [255, 0, 0, 255])?;
    let m = Materials::new(dir.path());
    let layer = json!({"type": "picture", "id": "title", "src": "red.png", "x": 0, "y": 0,
        "w": 160, "h": 90, "opacity": 1, "startTime": 0.5, "endTime": null, "inTime": 0, "outTime": 0});
    let r = rule(json!([scene(None, json!({}), json!([layer]))]))?;
    assert!(near(px(&render_frame(&r, &m, 0.2)?, 80, 45), GREEN));
    assert!(near(px(&render_frame(&r, &m, 1.0)?, 80, 45), RED));
    // The last frame of the 2 s scene still shows it.
    assert!(near(px(&render_frame(&r, &m, 1.98)?, 80, 45), RED));
    Ok(())
}

/// Writes a 1 s clip and a picture of the same frame: red on the left half, blue on the right.
fn halves(dir: &Path) -> R {
    png(dir, "halves.png", 64, 36, |x, _| {
        if x < 32 {
            [255, 0, 0, 255]
        } else {
            [0, 0, 255, 255]
        }
    })?;
    let settings = EncodeSettings {
        width: 64,
        height: 36,
        fps: (30, 1),
        crf: 18,
        audio_bitrate: 128_000,
        audio: false,
        watchdog_s: 20,
    };
    let mut frame = Bitmap::filled(64, 36, BLUE);
    for row in frame.px.chunks_exact_mut(64 * 4) {
        for p in row[..32 * 4].chunks_exact_mut(4) {
            p[..3].copy_from_slice(&RED);
        }
    }
    let mut enc = Encoder::create(&dir.join("halves.mp4"), settings)?;
    for _ in 0..30 {
        enc.push_frame(&frame.px)?;
    }
    enc.finish()?;
    Ok(())
}

#[test]
fn a_blurred_clip_background_looks_like_the_same_picture_blurred() -> R {
    let dir = tempfile::tempdir()?;
    halves(dir.path())?;
    let m = with_ids(dir.path(), &[("700", "halves.mp4"), ("701", "halves.png")]);
    // Portrait: the 16:9 clip covers it enlarged 4.4×, and only its middle shows.
    let portrait = |id: i64| -> Result<Rule, Box<dyn std::error::Error>> {
        let doc = json!({
            "version": 1, "frameRate": 30, "videoQuality": 99,
            "resolutionRatio": {"name": "9:16", "width": 90, "height": 160, "sizeId": 50, "targetWidth": 90},
            "scenes": [scene(Some(id), json!({"bgFit": "cover", "bgBlur": 12}), json!([]))]
        });
        Ok(Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?)
    };
    let clip = render_frame(&portrait(700)?, &m, 0.5)?;
    let picture = render_frame(&portrait(701)?, &m, 0.5)?;
    assert_eq!((clip.w, clip.h), (90, 160));
    // The edge between the halves runs down the middle, blurred over several pixels.
    let mid = px(&clip, 45, 80);
    assert!(mid[0] > 60 && mid[2] > 60, "blurred edge {mid:?}");
    assert!(near(px(&clip, 10, 80), RED) && near(px(&clip, 80, 80), BLUE));
    // Across the frame the clip (cut, blurred at its own size, then enlarged) matches the
    // picture (enlarged, cut, then blurred).
    for x in (0..90).step_by(5) {
        let (a, b) = (px(&clip, x, 80), px(&picture, x, 80));
        assert!(
            a.iter().zip(b).all(|(p, q)| p.abs_diff(q) <= 40),
            "x {x}: clip {a:?}, picture {b:?}"
        );
    }
    Ok(())
}

#[test]
fn an_unblurred_covering_clip_background_matches_the_picture_covering() -> R {
    // The covering clip is decoded at its own size and only the part that shows is converted
    // and enlarged (`prepare::Cut` with no blur); the picture is enlarged and cut once.
    let dir = tempfile::tempdir()?;
    halves(dir.path())?;
    let m = with_ids(dir.path(), &[("710", "halves.mp4"), ("711", "halves.png")]);
    let portrait = |id: i64| -> Result<Rule, Box<dyn std::error::Error>> {
        let doc = json!({
            "version": 1, "frameRate": 30, "videoQuality": 99,
            "resolutionRatio": {"name": "9:16", "width": 90, "height": 160, "sizeId": 50, "targetWidth": 90},
            "scenes": [scene(Some(id), json!({"bgFit": "cover"}), json!([]))]
        });
        Ok(Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?)
    };
    let clip = render_frame(&portrait(710)?, &m, 0.5)?;
    let picture = render_frame(&portrait(711)?, &m, 0.5)?;
    assert_eq!((clip.w, clip.h), (90, 160));
    assert!(near(px(&clip, 10, 80), RED) && near(px(&clip, 80, 80), BLUE));
    for y in [0, 80, 159] {
        for x in (0..90).step_by(3) {
            let (a, b) = (px(&clip, x, y), px(&picture, x, y));
            // Away from the edge the two agree to the codec's error; at the edge by less than
            // the width of one enlarged source pixel (4.4 output pixels) of difference.
            let tolerance = if (36..=54).contains(&x) { 255 } else { 40 };
            assert!(
                a.iter().zip(b).all(|(p, q)| p.abs_diff(q) <= tolerance),
                "({x}, {y}): clip {a:?}, picture {b:?}"
            );
        }
    }
    // The edge sits where the picture puts it, to within one enlarged source pixel.
    let edge = |b: &Bitmap| (0..90).find(|x| px(b, *x, 80)[2] > px(b, *x, 80)[0]);
    let (ce, pe) = (edge(&clip), edge(&picture));
    assert!(
        matches!((ce, pe), (Some(c), Some(p)) if c.abs_diff(p) <= 5),
        "edge at {ce:?} in the clip, {pe:?} in the picture"
    );
    Ok(())
}

#[test]
fn a_clip_stored_on_its_side_is_drawn_upright() -> R {
    // A phone's portrait clip: stored 64×36 (red left, blue right) with a track header that turns
    // it 90° clockwise, so it shows 36×64 with red on top, as the editor's player shows it.
    let dir = tempfile::tempdir()?;
    halves(dir.path())?;
    reelforge_render::mp4edit::set_turn(&dir.path().join("halves.mp4"), 90)?;
    let info = reelforge_render::probe::probe(&dir.path().join("halves.mp4"), 20)?;
    assert_eq!((info.width, info.height), (36, 64), "the size as shown");
    let m = with_ids(dir.path(), &[("720", "halves.mp4")]);
    let portrait = |bg: Value, layers: Value| -> Result<Rule, Box<dyn std::error::Error>> {
        let doc = json!({
            "version": 1, "frameRate": 30, "videoQuality": 99,
            "resolutionRatio": {"name": "9:16", "width": 90, "height": 160, "sizeId": 50, "targetWidth": 90},
            "scenes": [scene(Some(720), bg, layers)]
        });
        Ok(Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?)
    };
    // As a layer filling the frame (the same 9:16 shape: no bars) and as the scene's background.
    let layer = json!([{"type": "video", "id": "clip", "videoSrc": "halves.mp4", "x": 0, "y": 0, "w": 90, "h": 160,
        "startTime": 0, "endTime": 1, "inTime": 0, "outTime": 0, "noAudio": true}]);
    for frame in [render_frame(&portrait(json!({}), layer)?, &m, 0.5)?, render_frame(&portrait(json!({"bgFit": "cover"}), json!([]))?, &m, 0.5)?] {
        for x in [5, 45, 85] {
            assert!(near(px(&frame, x, 20), RED), "({x}, 20): {:?}", px(&frame, x, 20));
            assert!(near(px(&frame, x, 140), BLUE), "({x}, 140): {:?}", px(&frame, x, 140));
        }
    }
    Ok(())
}

#[test]
fn a_photo_stored_on_its_side_is_drawn_upright() -> R {
    // A 48×32 JPEG, red left and blue right, with EXIF orientation 6 (turn 90° clockwise to show
    // it): shown 32×48 with red on top, as the editor's browser draws it.
    let dir = tempfile::tempdir()?;
    let stored = image::RgbImage::from_fn(48, 32, |x, _| if x < 24 { image::Rgb(RED) } else { image::Rgb(BLUE) });
    let mut jpeg = Vec::new();
    let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 95);
    // A TIFF header and one IFD entry: Orientation (0x0112), SHORT, 1, value 6.
    let exif = vec![0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0];
    image::ImageEncoder::set_exif_metadata(&mut encoder, exif)?;
    image::ImageEncoder::write_image(encoder, stored.as_raw(), 48, 32, image::ExtendedColorType::Rgb8)?;
    std::fs::write(dir.path().join("photo.jpg"), &jpeg)?;
    let m = with_ids(dir.path(), &[("730", "photo.jpg")]);
    let doc = json!({
        "version": 1, "frameRate": 30, "videoQuality": 99,
        "resolutionRatio": {"name": "9:16", "width": 90, "height": 160, "sizeId": 50, "targetWidth": 90},
        "scenes": [scene(Some(730), json!({"bgFit": "cover"}), json!([]))]
    });
    let frame = render_frame(&Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?, &m, 0.5)?;
    for x in [10, 45, 80] {
        assert!(near(px(&frame, x, 20), RED), "({x}, 20): {:?}", px(&frame, x, 20));
        assert!(near(px(&frame, x, 140), BLUE), "({x}, 140): {:?}", px(&frame, x, 140));
    }
    Ok(())
}

#[test]
fn a_clip_contained_over_its_own_blurred_cover_matches_the_clip_alone() -> R {
    // The background and the layer show the same frames of one clip, so they share one
    // decoder (at the clip's own size, which the cut background needs) and the contained copy
    // is scaled from the shared frame before it is converted: it must look like the clip
    // decoded on its own at the size it shows.
    let dir = tempfile::tempdir()?;
    wide_halves(dir.path())?;
    let m = with_ids(dir.path(), &[("720", "wide.mp4")]);
    let portrait = |background: Option<i64>| -> Result<Rule, Box<dyn std::error::Error>> {
        let layer = json!([{"type": "video", "id": "middle", "videoSrc": "wide.mp4", "x": 0, "y": 55,
            "w": 90, "h": 50.625, "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0,
            "noAudio": true, "cutInfo": {"start": 0, "end": 2}}]);
        let doc = json!({
            "version": 1, "frameRate": 30, "videoQuality": 99,
            "resolutionRatio": {"name": "9:16", "width": 90, "height": 160, "sizeId": 50, "targetWidth": 90},
            "scenes": [scene(background, json!({"bgFit": "cover", "bgBlur": 8, "range": [0, 2]}), layer)]
        });
        Ok(Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?)
    };
    let shared = render_frame(&portrait(Some(720))?, &m, 0.5)?;
    let alone = render_frame(&portrait(None)?, &m, 0.5)?;
    for y in [58, 80, 102] {
        for x in (0..90).step_by(3) {
            let (a, b) = (px(&shared, x, y), px(&alone, x, y));
            // The two scalers differ by a pixel at the red/blue edge at most.
            let tolerance = if (42..=48).contains(&x) { 255 } else { 24 };
            assert!(
                a.iter().zip(b).all(|(p, q)| p.abs_diff(q) <= tolerance),
                "({x}, {y}): shared {a:?}, alone {b:?}"
            );
        }
    }
    assert!(near(px(&shared, 10, 80), RED) && near(px(&shared, 80, 80), BLUE));
    // Above the clip: the blurred background, red left and blue right, not the bgColor.
    assert!(near(px(&shared, 10, 20), RED) && near(px(&shared, 80, 20), BLUE));
    Ok(())
}

/// Writes a 2 s 192×108 clip (`wide.mp4`) and a picture of its frame (`wide.png`): red on the
/// left half, blue on the right.
fn wide_halves(dir: &Path) -> R {
    let (w, h) = (192, 108);
    png(dir, "wide.png", w, h, |x, _| {
        if x < w / 2 {
            [255, 0, 0, 255]
        } else {
            [0, 0, 255, 255]
        }
    })?;
    let settings = EncodeSettings {
        width: w,
        height: h,
        fps: (30, 1),
        crf: 18,
        audio_bitrate: 128_000,
        audio: false,
        watchdog_s: 20,
    };
    let mut frame = Bitmap::filled(w, h, BLUE);
    for row in frame.px.chunks_exact_mut(w as usize * 4) {
        for p in row[..w as usize / 2 * 4].chunks_exact_mut(4) {
            p[..3].copy_from_slice(&RED);
        }
    }
    let mut enc = Encoder::create(&dir.join("wide.mp4"), settings)?;
    for _ in 0..60 {
        enc.push_frame(&frame.px)?;
    }
    enc.finish()?;
    Ok(())
}

#[test]
fn a_strongly_blurred_clip_background_shrunk_before_blurring_matches_the_picture() -> R {
    // σ of about 8 decoded pixels: the crop is shrunk 4× (plane by plane) before it is
    // converted and blurred, which must not show against the picture blurred at full size.
    let dir = tempfile::tempdir()?;
    wide_halves(dir.path())?;
    let m = with_ids(dir.path(), &[("730", "wide.mp4"), ("731", "wide.png")]);
    let portrait = |id: i64| -> Result<Rule, Box<dyn std::error::Error>> {
        let doc = json!({
            "version": 1, "frameRate": 30, "videoQuality": 99,
            "resolutionRatio": {"name": "9:16", "width": 90, "height": 160, "sizeId": 50, "targetWidth": 90},
            "scenes": [scene(Some(id), json!({"bgFit": "cover", "bgBlur": 24}), json!([]))]
        });
        Ok(Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?)
    };
    let clip = render_frame(&portrait(730)?, &m, 0.5)?;
    let picture = render_frame(&portrait(731)?, &m, 0.5)?;
    assert_eq!((clip.w, clip.h), (90, 160));
    for y in [0, 80, 159] {
        for x in (0..90).step_by(3) {
            let (a, b) = (px(&clip, x, y), px(&picture, x, y));
            assert!(
                a.iter().zip(b).all(|(p, q)| p.abs_diff(q) <= 24),
                "({x}, {y}): clip {a:?}, picture {b:?}"
            );
        }
    }
    // The blur spreads the edge over many pixels: a wide ramp, mid-way at the centre.
    let mid = px(&clip, 45, 80);
    assert!(mid[0] > 80 && mid[2] > 80, "blurred edge {mid:?}");
    assert!(px(&clip, 30, 80)[0] > px(&clip, 40, 80)[0]);
    Ok(())
}
