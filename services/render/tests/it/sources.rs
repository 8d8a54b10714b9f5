//! A document naming a file outside its materials directory is refused before anything is read:
//! the engine refuses its unsafe sources (error problems), and the CLI does too.

use reelforge_render::{Materials, RenderOptions, render};
use reelforge_timeline::Rule;
use serde_json::json;
use std::sync::atomic::AtomicBool;

type R = Result<(), Box<dyn std::error::Error>>;

#[test]
fn sources_outside_the_materials_are_never_read() -> R {
    let root = tempfile::tempdir()?;
    let dir = root.path().join("materials");
    std::fs::create_dir_all(&dir)?;
    let img = image::RgbaImage::from_pixel(8, 8, image::Rgba([255, 0, 0, 255]));
    img.save(root.path().join("secret.png"))?;
    let secret = root.path().join("secret.png").display().to_string();
    let out = dir.join("out.mp4");
    for (src, path) in [
        (secret.as_str(), "scenes[0].layers[0].src"),
        ("../secret.png", "scenes[0].layers[0].src"),
        ("/etc/passwd", "scenes[0].layers[0].src"),
        ("http://evil.example/x", "scenes[0].layers[0].src"),
    ] {
        let doc = json!({
            "frameRate": 30, "videoQuality": 99,
            "resolutionRatio": {"width": 160, "height": 90, "targetWidth": 160},
            "scenes": [{"timeLength": 2, "bgColor": "#000000",
                "layers": [{"type": "picture", "id": "p", "src": src, "w": 20, "h": 20, "endTime": 2}]}]
        });
        let rule = Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?;
        let err = render(
            &rule,
            &Materials::new(&dir),
            &out,
            &RenderOptions::default(),
            &mut |_| {},
            &AtomicBool::new(false),
        )
        .err()
        .ok_or_else(|| format!("{src} rendered"))?
        .to_string();
        assert!(
            err.contains(path) && err.contains("material source"),
            "{src}: {err}"
        );
        assert!(!out.exists(), "{src}: an output was written");
        // Materials by id resolve through the same check.
        let mut by_id = Materials::new(&dir);
        by_id.by_id.insert("7".into(), src.to_owned());
        let path_of = by_id.path_of("7").unwrap_or_default().to_owned();
        assert!(by_id.resolve(&path_of).is_err(), "{src} resolved");
    }
    Ok(())
}
