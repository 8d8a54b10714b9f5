//! Renders small documents and reads the results back with GStreamer.

use reelforge_render::decode::{VideoDecoder, VideoRequest, decode_audio};
use reelforge_render::{Materials, RenderError, RenderOptions, render, render_frame};
use reelforge_timeline::Rule;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::atomic::AtomicBool;

type R = Result<(), Box<dyn std::error::Error>>;

fn rule(scenes: Value, audio: Value) -> Result<Rule, Box<dyn std::error::Error>> {
    let doc = json!({
        "version": 1, "frameRate": 30, "videoQuality": 99,
        "resolutionRatio": {"name": "16:9", "width": 160, "height": 90, "ratio": 1.777, "sizeId": 41, "targetWidth": 160},
        "scenes": scenes, "audio": audio
    });
    Ok(Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?)
}

fn png(dir: &Path, name: &str, rgb: [u8; 3]) -> R {
    let img = image::RgbaImage::from_pixel(40, 20, image::Rgba([rgb[0], rgb[1], rgb[2], 255]));
    img.save(dir.join(name))?;
    Ok(())
}

fn sine_wav(dir: &Path) -> R {
    let st = std::process::Command::new("gst-launch-1.0")
        .args([
            "-q",
            "audiotestsrc",
            "num-buffers=200",
            "wave=sine",
            "!",
            "audio/x-raw,rate=48000,channels=2",
            "!",
            "wavenc",
            "!",
            "filesink",
        ])
        .arg(format!("location={}", dir.join("tone.wav").display()))
        .status()?;
    assert!(st.success());
    Ok(())
}

fn scene(bg: &str, len: f64, effect: &str, layers: Value) -> Value {
    json!({"bgColor": bg, "timeLength": len, "effect": effect, "effectTime": 1, "layers": layers})
}

fn px(b: &reelforge_render::compose::Bitmap, x: u32, y: u32) -> [u8; 3] {
    let o = ((y * b.w + x) * 4) as usize;
    [b.px[o], b.px[o + 1], b.px[o + 2]]
}

fn near(a: [u8; 3], b: [u8; 3], tol: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= tol)
}

#[test]
fn mp4_has_exact_frames_size_colour_and_synced_audio() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "red.png", [255, 0, 0])?;
    sine_wav(dir.path())?;
    let pic = json!([{"type": "picture", "id": "logo", "src": "red.png", "x": 40, "y": 20, "w": 40, "h": 20, "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0}]);
    let r = rule(
        json!([scene("#0000ff", 2.0, "", pic)]),
        json!([{"src": "tone.wav", "startTime": 0, "endTime": 2, "volume": 100, "fadeInTime": 1}]),
    )?;
    let out = dir.path().join("out.mp4");
    let report = render(
        &r,
        &Materials::new(dir.path()),
        &out,
        &RenderOptions::default(),
        &mut |_| {},
        &AtomicBool::new(false),
    )?;
    assert_eq!(report.frames, 60);
    let info = reelforge_render::probe::probe(&out, 20)?;
    assert_eq!((info.width, info.height), (160, 90));
    assert!(
        (info.duration - 2.0).abs() < 0.05,
        "duration {}",
        info.duration
    );
    assert!(info.has_audio);
    let mut dec = VideoDecoder::open(
        &out,
        &VideoRequest {
            width: 160,
            height: 90,
            fps: (30, 1),
            start: 0.0,
            watchdog_s: 20,
            alpha: false,
        },
    )?;
    let mut n = 0;
    while let Some(f) = dec.next_frame()? {
        if n == 15 {
            let d = f.to_packed();
            let at = |x: usize, y: usize| {
                [
                    d[(y * 160 + x) * 4],
                    d[(y * 160 + x) * 4 + 1],
                    d[(y * 160 + x) * 4 + 2],
                ]
            };
            assert!(
                near(at(60, 30), [255, 0, 0], 40),
                "layer colour {:?}",
                at(60, 30)
            );
            assert!(
                near(at(10, 80), [0, 0, 255], 40),
                "background {:?}",
                at(10, 80)
            );
        }
        n += 1;
    }
    assert_eq!(n, 60);
    // A/V sync: the audio track lasts as long as the video, within one frame.
    let pcm = decode_audio(&out, 0.0, None, 20)?;
    let secs = pcm.len() as f64 / 2.0 / 48_000.0;
    assert!((secs - 2.0).abs() <= 1.0 / 30.0 + 0.03, "audio {secs} s");
    // The fade-in: RMS rises over its length.
    let rms = |a: f64, b: f64| {
        let s = &pcm[(a * 96_000.0) as usize..(b * 96_000.0) as usize];
        (s.iter().map(|v| f64::from(*v).powi(2)).sum::<f64>() / s.len() as f64).sqrt()
    };
    assert!(rms(0.05, 0.3) < rms(0.4, 0.65) && rms(0.4, 0.65) < rms(0.7, 0.95));
    Ok(())
}

#[test]
fn transition_midpoint_mixes_both_scenes() -> R {
    let dir = tempfile::tempdir()?;
    let r = rule(
        json!([
            scene("#ff0000", 2.0, "OVERLAY", json!([])),
            scene("#0000ff", 2.0, "", json!([]))
        ]),
        json!([]),
    )?;
    let b = render_frame(&r, &Materials::new(dir.path()), 2.0)?;
    let c = px(&b, 80, 45);
    assert!(c[0] > 90 && c[2] > 90, "midpoint {c:?}");
    Ok(())
}

#[test]
fn cjk_text_is_drawn_inside_its_box() -> R {
    let dir = tempfile::tempdir()?;
    let text = json!([{"type": "word", "id": "t", "content": "你好", "color": "#ffffff", "fontSize": 30,
        "x": 40, "y": 20, "w": 80, "h": 50, "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0}]);
    let r = rule(json!([scene("#000000", 2.0, "", text)]), json!([]))?;
    let b = render_frame(&r, &Materials::new(dir.path()), 1.0)?;
    let (mut inside, mut outside) = (0, 0);
    for y in 0..90 {
        for x in 0..160 {
            if px(&b, x, y)[0] > 128 {
                if (40..120).contains(&x) && (20..70).contains(&y) {
                    inside += 1
                } else {
                    outside += 1
                }
            }
        }
    }
    assert!(inside > 100, "glyph pixels {inside}");
    assert_eq!(outside, 0);
    Ok(())
}

/// A title with more lines than its box holds overflows it evenly above and below, drawn whole as
/// the stage lets it overflow (issue 33: its lines past the box were cut off mid-glyph).
#[test]
fn a_title_overflowing_its_box_is_drawn_whole() -> R {
    let dir = tempfile::tempdir()?;
    let text = json!([{"type": "word", "id": "t", "content": "你好你好你好", "color": "#ffffff", "fontSize": 30,
        "x": 40, "y": 20, "w": 80, "h": 50, "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0}]);
    let r = rule(json!([scene("#000000", 2.0, "", text)]), json!([]))?;
    let b = render_frame(&r, &Materials::new(dir.path()), 1.0)?;
    let lit = |rows: std::ops::Range<u32>| rows.flat_map(|y| (0..160).map(move |x| (x, y))).filter(|&(x, y)| px(&b, x, y)[0] > 128).count();
    assert!(lit(0..20) > 20, "glyph pixels above the box: {}", lit(0..20));
    assert!(lit(70..90) > 20, "glyph pixels below the box: {}", lit(70..90));
    Ok(())
}

#[test]
fn every_animation_and_transition_renders() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "p.png", [200, 100, 0])?;
    use reelforge_timeline::catalogue::animations::{ANIMATIONS, Phase};
    use reelforge_timeline::catalogue::transitions::TRANSITIONS;
    for a in ANIMATIONS {
        let (mi, mo) = if a.phase == Phase::In {
            (a.key, "")
        } else {
            ("", a.key)
        };
        let l = json!([{"type": "picture", "id": a.key, "src": "p.png", "x": 10, "y": 10, "w": 40, "h": 20, "rotate": 15,
            "startTime": 0, "endTime": 2, "motionIn": mi, "motionOut": mo, "inTime": 1, "outTime": 1}]);
        let r = rule(json!([scene("#000000", 2.0, "", l)]), json!([]))?;
        for t in [0.2, 0.5, 1.5, 1.9] {
            render_frame(&r, &Materials::new(dir.path()), t)?;
        }
    }
    for t in TRANSITIONS {
        let r = rule(
            json!([
                scene("#ff0000", 2.0, t.key, json!([])),
                scene("#0000ff", 2.0, "", json!([]))
            ]),
            json!([]),
        )?;
        for time in [1.6, 2.0, 2.4] {
            render_frame(&r, &Materials::new(dir.path()), time)?;
        }
    }
    Ok(())
}

#[test]
fn malformed_input_fails_with_the_layer_named() -> R {
    let dir = tempfile::tempdir()?;
    std::fs::write(dir.path().join("junk.mp4"), b"not a video at all")?;
    let missing =
        json!([{"type": "picture", "id": "logo", "src": "nope.png", "startTime": 0, "endTime": 2}]);
    let junk = json!([{"type": "video", "id": "clip", "videoSrc": "junk.mp4", "startTime": 0, "endTime": 2}]);
    let out = dir.path().join("out.mp4");
    for (layers, want) in [(missing, "layer logo"), (junk, "layer clip")] {
        let r = rule(json!([scene("#000000", 2.0, "", layers)]), json!([]))?;
        let err = render(
            &r,
            &Materials::new(dir.path()),
            &out,
            &RenderOptions::default(),
            &mut |_| {},
            &AtomicBool::new(false),
        )
        .err()
        .ok_or("should fail")?;
        let msg = err.to_string();
        assert!(msg.contains(want) && msg.contains("scene 1"), "{msg}");
        assert!(!out.exists());
    }
    let r = rule(json!([scene("#000000", 0.0, "", json!([]))]), json!([]))?;
    let msg = render(
        &r,
        &Materials::new(dir.path()),
        &out,
        &RenderOptions::default(),
        &mut |_| {},
        &AtomicBool::new(false),
    )
    .err()
    .ok_or("should fail")?
    .to_string();
    // Refused by validation (an error problem) before anything is loaded.
    assert!(
        msg.contains("scenes[0].timeLength: below minimum 2 s"),
        "{msg}"
    );
    Ok(())
}

#[test]
fn cancel_leaves_no_file() -> R {
    let dir = tempfile::tempdir()?;
    let r = rule(json!([scene("#000000", 2.0, "", json!([]))]), json!([]))?;
    let out = dir.path().join("out.mp4");
    let err = render(
        &r,
        &Materials::new(dir.path()),
        &out,
        &RenderOptions::default(),
        &mut |_| {},
        &AtomicBool::new(true),
    );
    assert!(matches!(err, Err(RenderError::Cancelled)));
    assert_eq!(std::fs::read_dir(dir.path())?.count(), 0);
    Ok(())
}

#[test]
fn segments_cover_their_scenes() -> R {
    let dir = tempfile::tempdir()?;
    let r = rule(
        json!([
            scene("#ff0000", 2.0, "", json!([])),
            scene("#00ff00", 2.0, "", json!([]))
        ]),
        json!([]),
    )?;
    let out = dir.path().join("seg.mp4");
    let opts = RenderOptions {
        scenes: Some(1..2),
        ..RenderOptions::default()
    };
    let rep = render(
        &r,
        &Materials::new(dir.path()),
        &out,
        &opts,
        &mut |_| {},
        &AtomicBool::new(false),
    )?;
    assert_eq!(rep.frames, 60);
    Ok(())
}

/// A `seconds` long stereo sine of `freq` Hz at `volume` (0..1) as `name`.
fn tone(dir: &Path, name: &str, freq: u32, seconds: u32, volume: f64) -> R {
    let st = std::process::Command::new("gst-launch-1.0")
        .args(["-q", "audiotestsrc", "wave=sine", "samplesperbuffer=4800"])
        .arg(format!("num-buffers={}", seconds * 10))
        .arg(format!("freq={freq}"))
        .arg(format!("volume={volume}"))
        .args([
            "!",
            "audio/x-raw,rate=48000,channels=2",
            "!",
            "wavenc",
            "!",
            "filesink",
        ])
        .arg(format!("location={}", dir.join(name).display()))
        .status()?;
    assert!(st.success());
    Ok(())
}

/// The amplitude of `freq` Hz in the left channel of `pcm` (interleaved stereo, 48 kHz) over
/// `[a, b)` seconds (a Goertzel filter: one frequency's share of a mix).
fn level_of(pcm: &[f32], freq: f64, a: f64, b: f64) -> f64 {
    let (from, to) = ((a * 48_000.0) as usize, (b * 48_000.0) as usize);
    let w = 2.0 * std::f64::consts::PI * freq / 48_000.0;
    let (mut s1, mut s2) = (0.0f64, 0.0f64);
    for i in from..to {
        let s = f64::from(pcm[i * 2]) + 2.0 * w.cos() * s1 - s2;
        s2 = s1;
        s1 = s;
    }
    let power = s1 * s1 + s2 * s2 - 2.0 * w.cos() * s1 * s2;
    2.0 * power.sqrt() / (to - from) as f64
}

fn render_audio(
    audio: Value,
    loudness: Value,
) -> Result<(Vec<f32>, Option<f64>), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    tone(dir.path(), "music.wav", 440, 6, 0.3)?;
    tone(dir.path(), "voice.wav", 2000, 2, 0.3)?;
    let mut doc = json!({
        "version": 1, "frameRate": 30, "videoQuality": 99,
        "resolutionRatio": {"name": "16:9", "width": 160, "height": 90, "ratio": 1.777, "sizeId": 41, "targetWidth": 160},
        "scenes": [scene("#000000", 6.0, "", json!([]))], "audio": audio,
    });
    if !loudness.is_null() {
        doc["loudness"] = loudness;
    }
    let r = Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?;
    let out = dir.path().join("out.mp4");
    let report = render(
        &r,
        &Materials::new(dir.path()),
        &out,
        &RenderOptions::default(),
        &mut |_| {},
        &AtomicBool::new(false),
    )?;
    Ok((decode_audio(&out, 0.0, None, 20)?, report.loudness))
}

fn db(ratio: f64) -> f64 {
    20.0 * ratio.log10()
}

#[test]
fn music_ducks_under_a_voice_and_the_mix_meets_its_loudness() -> R {
    let music = json!({"src": "music.wav", "startTime": 0, "endTime": 6, "volume": 100});
    let voice =
        json!({"type": "voice", "src": "voice.wav", "startTime": 2, "endTime": 4, "volume": 100});
    let (pcm, loudness) = render_audio(json!([music, voice]), Value::Null)?;
    let (before, under, after) = (
        level_of(&pcm, 440.0, 0.5, 1.5),
        level_of(&pcm, 440.0, 2.3, 3.7),
        level_of(&pcm, 440.0, 4.8, 5.8),
    );
    // The default depth is 12 dB; the attack and release ramps lie outside the windows measured.
    assert!(
        db(before / under) >= 8.0,
        "music {before:.4} → {under:.4} under the voice: {:.1} dB",
        db(before / under)
    );
    assert!(
        db(before / after).abs() < 1.0,
        "music back after the voice: {before:.4} / {after:.4}"
    );
    assert!(
        level_of(&pcm, 2000.0, 2.3, 3.7) > under,
        "the voice is in front"
    );
    // The render reports the mix brought to −16 LUFS; the encoded sound measures about that.
    let reported = loudness.ok_or("a loudness")?;
    assert!((reported - -16.0).abs() < 0.01, "reported {reported}");
    let measured = reelforge_render::mix::Mixer::from_samples(&pcm)
        .normalise(None).ok_or("measured")?;
    assert!(
        (measured - -16.0).abs() < 1.0,
        "the MP4's sound measures {measured} LUFS"
    );
    Ok(())
}

#[test]
fn ducking_and_loudness_can_be_switched_off() -> R {
    let music =
        json!({"src": "music.wav", "startTime": 0, "endTime": 6, "volume": 100, "duck": false});
    let voice =
        json!({"type": "voice", "src": "voice.wav", "startTime": 2, "endTime": 4, "volume": 100});
    let (pcm, loudness) = render_audio(
        json!([music, voice]),
        json!({"status": false, "target": -16}),
    )?;
    let (before, under) = (
        level_of(&pcm, 440.0, 0.5, 1.5),
        level_of(&pcm, 440.0, 2.3, 3.7),
    );
    assert!(
        db(before / under).abs() < 1.0,
        "music not ducked: {before:.4} / {under:.4}"
    );
    // Left at its items' level: a 0.3 sine at volume 100 stays about 0.3.
    assert!((before - 0.3).abs() < 0.05, "music level {before:.3}");
    assert!(
        loudness.is_some_and(|l| l < -5.0),
        "still measured: {loudness:?}"
    );
    Ok(())
}

/// A scene restores only what its moving layers drew on the frame before (the canvas is reused
/// from frame to frame); every frame must still equal the same frame drawn by a new engine on a
/// new canvas: moving layers, a layer passing over a static base, rotation, a zoom and a
/// transition included.
#[test]
fn frames_drawn_in_sequence_equal_frames_drawn_afresh() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "p.png", [200, 100, 0])?;
    png(dir.path(), "q.png", [0, 160, 60])?;
    let first = json!([
        {"type": "picture", "id": "base", "src": "q.png", "x": 60, "y": 30, "w": 40, "h": 20,
         "startTime": 0, "endTime": 2},
        {"type": "picture", "id": "in", "src": "p.png", "x": 10, "y": 10, "w": 40, "h": 20,
         "startTime": 0.2, "endTime": 2, "motionIn": "MOTIONIN_MOVE_RIGHT", "inTime": 1},
        {"type": "picture", "id": "out", "src": "p.png", "x": 90, "y": 50, "w": 40, "h": 20, "rotate": 15,
         "startTime": 0, "endTime": 1.5, "motionOut": "MOTIONOUT_MOVE_LEFT", "outTime": 1},
        {"type": "word", "id": "t", "content": "Hi", "color": "#ffffff", "fontSize": 20,
         "x": 20, "y": 50, "w": 80, "h": 30, "startTime": 0.5, "endTime": 2, "motionIn": "MOTIONIN_OPACITY", "inTime": 0.5}
    ]);
    let second = json!([
        {"type": "picture", "id": "zoom", "src": "q.png", "x": 0, "y": 0, "w": 160, "h": 90,
         "startTime": 0, "endTime": 2, "motion": "ZOOM_IN"},
        {"type": "picture", "id": "over", "src": "p.png", "x": 30, "y": 30, "w": 40, "h": 20,
         "startTime": 0.3, "endTime": 2, "motionIn": "MOTIONIN_MOVE_LEFT", "inTime": 1}
    ]);
    let r = rule(
        json!([
            scene("#000080", 2.0, "MOVE_LEFT", first),
            scene("#400000", 2.0, "", second)
        ]),
        json!([]),
    )?;
    let m = Materials::new(dir.path());
    let mut in_sequence = reelforge_render::Engine::new(&r, &m)?;
    let (w, h) = in_sequence.size;
    let mut canvas = reelforge_render::compose::Bitmap::new(w, h);
    let mut moved = 0;
    let mut last = canvas.clone();
    for f in 0..in_sequence.total_frames() {
        in_sequence.draw(f, &mut canvas)?;
        let fresh = render_frame(&r, &m, (f as f64 + 0.5) / 30.0)?;
        assert!(
            canvas.px == fresh.px,
            "frame {f} differs from the frame drawn afresh"
        );
        moved += usize::from(canvas.px != last.px);
        last.clone_from(&canvas);
    }
    // The document moves: most frames differ from the one before.
    assert!(moved > 60, "{moved} frames changed");
    Ok(())
}

/// Writes soft.png: 40×20, orange to red downwards, transparent on the left to nearly opaque
/// on the right.
fn soft_png(dir: &Path) -> R {
    let soft = image::RgbaImage::from_fn(40, 20, |x, y| {
        image::Rgba([250, (200 - y * 8) as u8, 0, (x * 6) as u8])
    });
    soft.save(dir.join("soft.png"))?;
    Ok(())
}

/// Converts an RGBA frame to the encoder's I420.
fn i420_of(b: &reelforge_render::compose::Bitmap) -> Vec<u8> {
    let mut planes = vec![0; reelforge_render::yuv::i420_len(b.w, b.h)];
    reelforge_render::yuv::rgba_to_i420(&b.px, b.w, b.h, &mut planes);
    planes
}

/// Frames drawn straight into I420 (`Engine::draw_i420`) are the frames drawn in RGBA and
/// converted: byte for byte over a colour or a cached base, where only the layers' rectangle
/// is converted; within rounding over a covering clip, whose decoded planes are copied instead
/// of going to RGBA and back. Transitions and filtered scenes are left to the RGBA drawing.
#[test]
fn frames_drawn_as_planes_are_the_frames_drawn_in_rgba() -> R {
    let dir = tempfile::tempdir()?;
    // A clip of a moving gradient, in the encoder's own colours.
    let settings = reelforge_render::encode::EncodeSettings {
        width: 160,
        height: 90,
        fps: (30, 1),
        crf: 18,
        audio_bitrate: 128_000,
        audio: false,
        watchdog_s: 20,
    };
    let mut enc =
        reelforge_render::encode::Encoder::create(&dir.path().join("clip.mp4"), settings)?;
    for i in 0..30u32 {
        let px: Vec<u8> = (0..90u32)
            .flat_map(|y| {
                (0..160u32).flat_map(move |x| [((x + i * 4) % 256) as u8, (y * 2) as u8, 90, 255])
            })
            .collect();
        enc.push_frame(&px)?;
    }
    enc.finish()?;
    png(dir.path(), "q.png", [0, 160, 60])?;
    soft_png(dir.path())?;
    let word = |id: &str, motion: &str| {
        json!({"type": "word", "id": id, "content": "Hi", "color": "#ffffff", "fontSize": 20,
               "x": 40, "y": 50, "w": 80, "h": 30, "startTime": 0.1, "endTime": 2,
               "motionIn": motion, "inTime": 0.6})
    };
    let over_colour = json!([
        {"type": "picture", "id": "soft", "src": "soft.png", "x": 20, "y": 10, "w": 120, "h": 60,
         "startTime": 0, "endTime": 2, "motion": "ZOOM_IN", "motionIn": "MOTIONIN_OPACITY", "inTime": 0.5},
        word("a", "MOTIONIN_MOVE_RIGHT")
    ]);
    let over_base = json!([
        {"type": "picture", "id": "base", "src": "q.png", "x": 0, "y": 0, "w": 160, "h": 90,
         "startTime": 0, "endTime": 2},
        {"type": "picture", "id": "moving", "src": "soft.png", "x": 10, "y": 10, "w": 40, "h": 20, "rotate": 20,
         "startTime": 0, "endTime": 2, "motionIn": "MOTIONIN_MOVE_LEFT", "inTime": 0.8},
        word("b", "MOTIONIN_OPACITY")
    ]);
    let over_clip = json!([
        {"type": "video", "id": "clip", "videoSrc": "clip.mp4", "x": 0, "y": 0, "w": 160, "h": 90,
         "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0, "noAudio": true},
        word("c", "MOTIONIN_MOVE_UP")
    ]);
    // A landscape clip contained in a narrow box, over the colour.
    let contained = json!([
        {"type": "video", "id": "small", "videoSrc": "clip.mp4", "x": 40, "y": 0, "w": 80, "h": 90,
         "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0, "noAudio": true},
        word("e", "MOTIONIN_MOVE_LEFT")
    ]);
    // An opaque picture zooming over the whole frame.
    let pattern = image::RgbaImage::from_fn(80, 45, |x, y| {
        image::Rgba([(x * 3) as u8, (y * 5) as u8, ((x ^ y) * 8) as u8, 255])
    });
    pattern.save(dir.path().join("pattern.png"))?;
    let zooming = json!([
        {"type": "picture", "id": "zoom", "src": "pattern.png", "x": 0, "y": 0, "w": 160, "h": 90,
         "startTime": 0, "endTime": 2, "motion": "ZOOM_IN"},
        word("f", "MOTIONIN_MOVE_RIGHT")
    ]);
    // The portrait ringtone's look: the clip covering the frame blurred, the same clip
    // contained above it at an odd height (its last chroma row shared with the background).
    let mut footage = scene(
        "#000000",
        2.0,
        "",
        json!([
            {"type": "video", "id": "inside", "videoSrc": "clip.mp4", "x": 40, "y": 22, "w": 80, "h": 45,
             "startTime": 0, "endTime": 2, "inTime": 0, "outTime": 0, "noAudio": true},
            word("g", "MOTIONIN_MOVE_UP")
        ]),
    );
    footage["id"] = json!("900");
    footage["bgFit"] = json!("cover");
    footage["bgBlur"] = json!(6);
    let mut filtered = scene("#102030", 2.0, "", json!([word("d", "MOTIONIN_OPACITY")]));
    filtered["visualFilter"] = json!("film");
    let r = rule(
        json!([
            scene("#203040", 2.0, "", over_colour),
            scene("#000000", 2.0, "MOVE_LEFT", over_base),
            scene("#000000", 2.0, "", over_clip),
            filtered,
            scene("#401010", 2.0, "", contained),
            scene("#000000", 2.0, "", zooming),
            footage
        ]),
        json!([]),
    )?;
    let mut m = Materials::new(dir.path());
    m.by_id.insert("900".to_owned(), "clip.mp4".to_owned());
    let mut planar = reelforge_render::Engine::new(&r, &m)?;
    let mut rgba = reelforge_render::Engine::new(&r, &m)?;
    let (w, h) = rgba.size;
    let mut canvas = reelforge_render::compose::Bitmap::new(w, h);
    let mut fallback = reelforge_render::compose::Bitmap::new(w, h);
    // Frames drawn as planes in each scene, and in transitions.
    let mut as_planes = [0usize; 8];
    for f in 0..rgba.total_frames() {
        let scene = match rgba.timeline.at(f) {
            Some(reelforge_timeline::FrameSource::Scene { scene, .. }) => scene,
            _ => 7,
        };
        let mut planes = vec![0; reelforge_render::yuv::i420_len(w, h)];
        if planar.draw_i420(f, &mut planes)?.is_some() {
            as_planes[scene] += 1;
        } else {
            planar.draw(f, &mut fallback)?;
            planes = i420_of(&fallback);
        }
        rgba.draw(f, &mut canvas)?;
        let expected = i420_of(&canvas);
        if ![2, 4, 5, 6].contains(&scene) {
            assert!(planes == expected, "frame {f} differs");
        } else {
            let diff: u64 = planes
                .iter()
                .zip(&expected)
                .map(|(a, b)| u64::from(a.abs_diff(*b)))
                .sum();
            let mean = diff as f64 / planes.len() as f64;
            assert!(mean < 2.0, "frame {f}: mean difference {mean:.2}");
        }
    }
    // The transition's 30 frames take 15 of each of its scenes (and are drawn in RGBA). The
    // clips, covering and contained, are drawn as planes while they play and while they hold
    // their last frame; the zooming picture but at its first frame, unscaled, drawn in RGBA;
    // the blurred background with its contained clip in every frame.
    assert_eq!(
        as_planes,
        [60, 45, 45, 0, 60, 59, 60, 0],
        "frames drawn as planes by scene"
    );
    Ok(())
}

/// A rotated picture is drawn whole, its corners past its unrotated box included, as the stage
/// shows it (issue 33: the export used to clip a turned layer to its unrotated box).
#[test]
fn a_rotated_picture_keeps_its_corners() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "q.png", [0, 160, 60])?;
    let pic = json!({"type": "picture", "id": "turned", "src": "q.png", "x": 40, "y": 20, "w": 80, "h": 50,
        "rotate": 30, "startTime": 0, "endTime": 2});
    let doc = rule(json!([scene("#000000", 2.0, "", json!([pic]))]), json!([]))?;
    let frame = render_frame(&doc, &Materials::new(dir.path()), 0.5)?;
    // The box turns 30° clockwise about (80, 45): its top-left corner lands at (57.9, 3.3), above
    // the unrotated box (y ≥ 20). A point a sixth of the way from it to the centre is picture.
    assert!(near(px(&frame, 61, 10), [0, 160, 60], 12), "the turned top-left corner is drawn: {:?}", px(&frame, 61, 10));
    // And the bottom-right one, below the unrotated box (y < 70).
    assert!(near(px(&frame, 99, 80), [0, 160, 60], 12), "the turned bottom-right corner is drawn: {:?}", px(&frame, 99, 80));
    // Outside the turned box it is the scene's colour: the unrotated box's top-right corner.
    assert!(near(px(&frame, 118, 22), [0, 0, 0], 12), "outside the turned box: {:?}", px(&frame, 118, 22));
    Ok(())
}

/// A transparent still at the bottom of a scene is flattened onto the scene's colour: drawn
/// fading, zooming and turning, it gives the pixels the same still gives drawn over the
/// colour with a layer under it (which keeps it from being flattened).
#[test]
fn a_transparent_bottom_still_flattened_on_its_colour_draws_the_same() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "q.png", [0, 160, 60])?;
    soft_png(dir.path())?;
    let pic = json!({"type": "picture", "id": "soft", "src": "soft.png", "x": 20, "y": 10, "w": 120, "h": 60,
        "rotate": 12, "startTime": 0, "endTime": 2, "motion": "ZOOM_IN", "motionIn": "MOTIONIN_OPACITY", "inTime": 1.5});
    // Under it, a layer that has ended by the frames compared.
    let gone = json!({"type": "picture", "id": "gone", "src": "q.png", "x": 0, "y": 0, "w": 160, "h": 90,
        "startTime": 0, "endTime": 0.1, "z": -5});
    let flattened = rule(
        json!([scene("#3050a0", 2.0, "", json!([pic.clone()]))]),
        json!([]),
    )?;
    let blended = rule(
        json!([scene("#3050a0", 2.0, "", json!([gone, pic]))]),
        json!([]),
    )?;
    let m = Materials::new(dir.path());
    for t in [0.5, 1.0, 1.9] {
        let a = render_frame(&flattened, &m, t)?;
        let b = render_frame(&blended, &m, t)?;
        let worst =
            a.px.iter()
                .zip(&b.px)
                .map(|(x, y)| x.abs_diff(*y))
                .max()
                .unwrap_or(0);
        assert!(worst <= 2, "at {t} s: a pixel differs by {worst}");
        assert!(
            a.px != render_frame(&flattened, &m, 0.0)?.px,
            "the still moves"
        );
    }
    Ok(())
}

/// Random documents of pictures and words (placed anywhere, in or out of the frame, faded,
/// turned, moving in and out, zooming), each frame drawn as planes and in RGBA: byte for byte
/// the same when nothing zooms (the base is a colour or a cached base), within rounding when a
/// zooming picture may be scaled as planes. Seeded, so a failure names a document to replay.
#[test]
fn random_documents_draw_the_same_as_planes() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "q.png", [0, 160, 60])?;
    soft_png(dir.path())?;
    let pattern = image::RgbaImage::from_fn(64, 36, |x, y| {
        image::Rgba([(x * 4) as u8, (y * 7) as u8, ((x ^ y) * 8) as u8, 255])
    });
    pattern.save(dir.path().join("pattern.png"))?;
    let m = Materials::new(dir.path());
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: u64| {
        // xorshift64*
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) % n.max(1)
    };
    let motions_in = [
        "",
        "MOTIONIN_OPACITY",
        "MOTIONIN_MOVE_LEFT",
        "MOTIONIN_MOVE_UP",
        "MOTIONIN_BOUNCE_DOWN",
        "PYTHONERASE_RIGHT",
    ];
    let motions_out = [
        "",
        "MOTIONOUT_OPACITY",
        "MOTIONOUT_MOVE_RIGHT",
        "PYTHONERASE_LEFT_OUT",
    ];
    for seed in 0..24 {
        let zooms = seed % 3 == 0;
        let layers: Vec<Value> = (0..2 + next(4))
            .map(|i| {
                let (x, y) = (next(200) as f64 - 20.0, next(120) as f64 - 15.0);
                let (w, h) = (8.0 + next(170) as f64, 6.0 + next(100) as f64);
                let start = next(10) as f64 / 10.0;
                let end = (start + 0.6 + next(14) as f64 / 10.0).min(2.0);
                let opacity = [1.0, 1.0, 0.6][next(3) as usize];
                let rotate = [0, 0, 0, 17][next(4) as usize];
                let (motion_in, motion_out) =
                    (motions_in[next(6) as usize], motions_out[next(4) as usize]);
                let motion = if zooms && next(2) == 0 { "ZOOM_IN" } else { "" };
                let common = json!({
                    "id": format!("l{i}"), "x": x, "y": y, "w": w, "h": h, "z": 100 + i,
                    "startTime": start, "endTime": end, "opacity": opacity, "rotate": rotate,
                    "motionIn": motion_in, "inTime": 0.5, "motionOut": motion_out, "outTime": 0.4,
                    "motion": motion
                });
                let mut l = match next(4) {
                    0 => {
                        json!({"type": "word", "content": "Hi", "color": "#ffffff", "fontSize": 14})
                    }
                    1 => json!({"type": "picture", "src": "soft.png"}),
                    2 => json!({"type": "picture", "src": "pattern.png"}),
                    _ => json!({"type": "picture", "src": "q.png"}),
                };
                if let (Some(o), Some(c)) = (l.as_object_mut(), common.as_object()) {
                    o.extend(c.clone());
                }
                l
            })
            .collect();
        let colour = format!("#{:06x}", next(0x100_0000));
        let r = rule(
            json!([scene(&colour, 2.0, "", Value::Array(layers))]),
            json!([]),
        )?;
        let mut planar = reelforge_render::Engine::new(&r, &m)?;
        let mut rgba = reelforge_render::Engine::new(&r, &m)?;
        let (w, h) = rgba.size;
        let mut canvas = reelforge_render::compose::Bitmap::new(w, h);
        let mut drawn_as_planes = 0;
        for f in 0..rgba.total_frames() {
            let mut planes = vec![0; reelforge_render::yuv::i420_len(w, h)];
            let as_planes = planar.draw_i420(f, &mut planes)?.is_some();
            rgba.draw(f, &mut canvas)?;
            if !as_planes {
                continue;
            }
            drawn_as_planes += 1;
            let expected = i420_of(&canvas);
            if zooms {
                let diff: u64 = planes
                    .iter()
                    .zip(&expected)
                    .map(|(a, b)| u64::from(a.abs_diff(*b)))
                    .sum();
                let mean = diff as f64 / planes.len() as f64;
                assert!(
                    mean < 2.0,
                    "seed {seed}, frame {f}: mean difference {mean:.2}"
                );
            } else {
                assert!(planes == expected, "seed {seed}, frame {f} differs");
            }
        }
        assert!(drawn_as_planes > 0, "seed {seed}: no frame drawn as planes");
    }
    Ok(())
}

/// A layer wholly above the frame while it moves in: every frame is drawn (the restore of what
/// it drew once read an inverted rectangle as billions of rows and never finished), in RGBA
/// and as planes, and the frames show only the background.
#[test]
fn a_layer_wholly_off_the_frame_is_drawn_as_nothing() -> R {
    let dir = tempfile::tempdir()?;
    png(dir.path(), "q.png", [0, 160, 60])?;
    let above = json!([
        {"type": "picture", "id": "above", "src": "q.png", "x": 60, "y": -60, "w": 40, "h": 30,
         "startTime": 0, "endTime": 2, "motionIn": "MOTIONIN_MOVE_LEFT", "inTime": 1}
    ]);
    let r = rule(json!([scene("#203040", 2.0, "", above)]), json!([]))?;
    let m = Materials::new(dir.path());
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let drawn = (|| -> Result<bool, RenderError> {
            let mut rgba = reelforge_render::Engine::new(&r, &m)?;
            let mut planar = reelforge_render::Engine::new(&r, &m)?;
            let (w, h) = rgba.size;
            let mut canvas = reelforge_render::compose::Bitmap::new(w, h);
            let mut planes = vec![0; reelforge_render::yuv::i420_len(w, h)];
            let blank = reelforge_render::compose::Bitmap::filled(w, h, [0x20, 0x30, 0x40]);
            let mut all_blank = true;
            for f in 0..rgba.total_frames() {
                rgba.draw(f, &mut canvas)?;
                all_blank &= canvas.px == blank.px;
                all_blank &=
                    planar.draw_i420(f, &mut planes)?.is_some() && planes == i420_of(&blank);
            }
            Ok(all_blank)
        })();
        let _ = done.send(drawn.map_err(|e| e.to_string()));
    });
    let drawn = finished.recv_timeout(std::time::Duration::from_secs(60))?;
    assert_eq!(drawn, Ok(true), "every frame is the background alone");
    Ok(())
}

/// The calling thread's nice value.
fn own_nice() -> i32 {
    // SAFETY: reads the calling thread's priority; takes no pointers.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) }
}

/// The name and nice value of every thread of this process (`/proc/self/task/*/stat`).
fn threads_nice() -> Vec<(String, i32)> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else { return Vec::new() };
    tasks
        .filter_map(|t| std::fs::read_to_string(t.ok()?.path().join("stat")).ok())
        .filter_map(|stat| {
            let (head, tail) = stat.rsplit_once(')')?;
            let name = head.split_once('(')?.1.to_owned();
            // After the name: state is field 3 and nice field 19.
            let nice = tail.split_whitespace().nth(16)?.parse().ok()?;
            Some((name, nice))
        })
        .collect()
}

#[test]
fn a_render_runs_at_the_nice_value_it_was_given() -> R {
    let dir = tempfile::tempdir()?;
    let r = rule(json!([scene("#204080", 2.0, "", json!([]))]), json!([]))?;
    let caller = own_nice();
    let base = caller.max(5);
    let mut drawing = Vec::new();
    let mut encoder_threads: Vec<(String, i32)> = Vec::new();
    let mut progress = |p: reelforge_render::Progress| {
        drawing.push(own_nice());
        // While frames are drawn the encoder's pipeline is playing. GStreamer names a streaming
        // thread after its pad (`appsrc0:src`, `queue0:src`); other tests of this process have
        // theirs too (at their own nice value), so the threads are read until this render's show.
        if p.stage == reelforge_render::Stage::Compose && !encoder_threads.iter().any(|(name, nice)| name.ends_with(":src") && *nice == base) {
            encoder_threads = threads_nice();
        }
    };
    let opts = RenderOptions { nice: 5, ..RenderOptions::default() };
    render(&r, &Materials::new(dir.path()), &dir.path().join("out.mp4"), &opts, &mut progress, &AtomicBool::new(false))?;
    assert_eq!(own_nice(), caller, "the caller's thread keeps its priority");
    assert_eq!(drawing.first(), Some(&base), "the render's thread starts at the nice value given");
    assert_eq!(drawing.last(), Some(&(base + 10).min(19)), "the drawing yields to the encoder: {drawing:?}");
    assert!(
        encoder_threads.iter().any(|(name, nice)| name.ends_with(":src") && *nice == base),
        "the encoder's streaming threads run at the nice value given: {encoder_threads:?}"
    );
    Ok(())
}
