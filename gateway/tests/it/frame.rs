//! The exact-frame still through the gateway: a real render of a tiny document naming an uploaded
//! picture (the PNG decoded, its pixels checked where the picture and the background lie), and the
//! refusals: a source of another tenant or a URL (3000 naming the field's path), another user's
//! material, a document with errors. No scratch directory outlives its call.

use crate::common;

use common::{Fallible, envelope};
use reqwest::Method;
use serde_json::{Value, json};

/// A solid red 64×64 PNG.
fn red_png() -> Fallible<Vec<u8>> {
    let img = image::RgbaImage::from_pixel(64, 64, image::Rgba([255, 0, 0, 255]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)?;
    Ok(out.into_inner())
}

/// A 160×90 document on blue with one picture over its left half.
fn doc(src: &str) -> Value {
    json!({
        "version": 1, "renderVersion": 2, "ruleType": "VIDEO_EDIT", "videoQuality": 30, "frameRate": 25,
        "resolutionRatio": {"name": "16:9", "width": 160, "height": 90, "ratio": "16:9", "sizeId": 41, "targetWidth": 160},
        // No scene `id`: a scene's id names its background material.
        "scenes": [{"type": "canvas", "timeLength": 2, "bgColor": "#0000ff", "effectTime": 1,
            "layers": [{"type": "picture", "src": src, "x": 0, "y": 0, "w": 80, "h": 90, "startTime": 0, "endTime": 2}]}],
        "audio": []
    })
}

fn near(p: &image::Rgba<u8>, want: [u8; 3]) -> bool {
    (0..3).all(|c| p[c].abs_diff(want[c]) <= 12)
}

#[tokio::test]
async fn the_still_is_the_rendered_frame_and_refuses_foreign_sources() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "maker", 8).await?;
    let id = common::upload(&s, &me, "red.png", &red_png()?).await?;
    let mine = doc(&format!("/diyvrbt/material/file/{id}/original"));

    let r = s.call(Method::POST, "/videotask/frame", &me).json(&json!({"taskInfo": mine.to_string(), "time": 1.0})).send().await?;
    let png_type = r.headers().get("content-type").and_then(|v| v.to_str().ok()) == Some("image/png");
    assert!(png_type, "not a PNG: {} {}", r.status(), r.text().await?);
    let png = image::load_from_memory(&r.bytes().await?)?.to_rgba8();
    assert_eq!(png.dimensions(), (160, 90));
    assert!(near(png.get_pixel(20, 45), [255, 0, 0]), "the picture: {:?}", png.get_pixel(20, 45));
    assert!(near(png.get_pixel(140, 45), [0, 0, 255]), "the background: {:?}", png.get_pixel(140, 45));

    // The document as an object and a time past its end (the last frame) work too.
    let r = s.call(Method::POST, "/videotask/frame", &me).json(&json!({"taskInfo": mine, "time": 60})).send().await?;
    assert_eq!(r.status(), 200);
    assert!(near(image::load_from_memory(&r.bytes().await?)?.to_rgba8().get_pixel(20, 45), [255, 0, 0]));

    // Another tenant's key and a URL: refused by validation, naming the field.
    s.blobs.put("t/cc/u/1/materials/x/original.png", red_png()?).await?;
    for src in ["t/cc/u/1/materials/x/original.png", "http://evil.example/x.png", "../x.png"] {
        let answer = envelope(s.call(Method::POST, "/videotask/frame", &me).json(&json!({"taskInfo": doc(src).to_string(), "time": 0.5}))).await?;
        assert_eq!(answer["code"], 3000, "{src}: {answer}");
        assert!(answer["desc"].as_str().unwrap_or_default().contains("scenes[0].layers[0].src"), "{src}: {answer}");
    }
    // My material named by a colleague: not theirs, so it does not exist for them.
    let colleague = s.user("qs", "colleague", 8).await?;
    let answer = envelope(s.call(Method::POST, "/videotask/frame", &colleague).json(&json!({"taskInfo": mine.to_string(), "time": 0.5}))).await?;
    assert_eq!(answer["code"], 3000, "{answer}");
    assert!(answer["desc"].as_str().unwrap_or_default().contains("does not exist"), "{answer}");
    // A document with an error, and a bad time.
    let mut bad = mine.clone();
    bad["scenes"][0]["timeLength"] = json!(-1);
    let answer = envelope(s.call(Method::POST, "/videotask/frame", &me).json(&json!({"taskInfo": bad, "time": 0.5}))).await?;
    assert_eq!(answer["code"], 3000, "{answer}");
    assert!(answer["desc"].as_str().unwrap_or_default().contains("scenes[0]"), "{answer}");
    let answer = envelope(s.call(Method::POST, "/videotask/frame", &me).json(&json!({"taskInfo": mine, "time": -1}))).await?;
    assert_eq!(answer["code"], 3000, "{answer}");
    // Signed out: login expired.
    let r = reqwest::Client::new().post(format!("{}/videotask/frame", s.base)).header("X-Variant", "qs").json(&json!({"taskInfo": mine, "time": 0})).send().await?;
    assert_eq!(r.json::<Value>().await?["code"], 4000);

    let scratch = s.dir.path().join("scratch");
    let left: Vec<_> = std::fs::read_dir(&scratch).map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect()).unwrap_or_default();
    assert!(left.is_empty(), "scratch directories left: {left:?}");
    Ok(())
}

/// The pickers' previews: a PNG for anyone of a known variant, signed in or not (a plain `<img>`),
/// cached by the browser; an unknown key or kind is refused naming it.
#[tokio::test]
async fn catalogue_previews_are_pngs_for_anyone_and_unknown_keys_are_named() -> Fallible<()> {
    let s = common::start().await?;
    let r = reqwest::Client::new().get(format!("{}/catalogue/preview/filter/warm", s.base)).send().await?;
    assert_eq!(r.status(), 200);
    let header = |name: &str| r.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
    assert_eq!(header("content-type").as_deref(), Some("image/png"));
    assert!(header("cache-control").is_some_and(|c| c.contains("max-age")), "{:?}", header("cache-control"));
    assert_eq!(image::load_from_memory(&r.bytes().await?)?.to_rgba8().dimensions(), (320, 180));

    let r = reqwest::Client::new().get(format!("{}/catalogue/preview/transition/CIRCLE_OPEN", s.base)).send().await?;
    assert_eq!(image::load_from_memory(&r.bytes().await?)?.to_rgba8().dimensions(), (320, 180));

    for (path, named) in [("filter/sparkle", "filter `sparkle`"), ("transition/nope", "transition `nope`"), ("shape/rect", "`shape`")] {
        let answer = envelope(reqwest::Client::new().get(format!("{}/catalogue/preview/{path}", s.base))).await?;
        assert_eq!(answer["code"], 3000, "{path}: {answer}");
        assert!(answer["desc"].as_str().is_some_and(|d| d.contains(named)), "{path}: {answer}");
    }
    Ok(())
}
