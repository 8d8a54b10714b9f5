//! `compose::shape`: shape SVGs read no files.

use reelforge_render::compose::Bitmap;
use reelforge_render::compose::shape::{ShapeFill, ShapeStyle, rasterise};

fn style(svg: String) -> ShapeStyle {
    ShapeStyle {
        kind: "rect".to_owned(),
        svg: Some(svg),
        recolour: false,
        fill: ShapeFill::Colours(Vec::new()),
        stroke: None,
        radius: 0.0,
        shadow: None,
    }
}

fn covered(b: &Bitmap) -> usize {
    b.px.chunks_exact(4).filter(|p| p[3] > 0).count()
}

#[test]
fn shape_svgs_cannot_read_files() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let red = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\" width=\"10\" \
               height=\"10\"><rect width=\"10\" height=\"10\" fill=\"red\"/></svg>";
    let file = dir.path().join("red.svg");
    std::fs::write(&file, red).unwrap_or_else(|e| panic!("{e}"));
    let wrap = |href: &str| {
        format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 10 10\" width=\"10\" \
             height=\"10\"><image href=\"{href}\" width=\"10\" height=\"10\"/></svg>"
        )
    };
    // An absolute path, a file URL and a path relative to the working directory draw nothing.
    let relative = std::env::current_dir()
        .ok()
        .and_then(|d| pathdiff(&file, &d))
        .unwrap_or_default();
    for href in [
        file.display().to_string(),
        format!("file://{}", file.display()),
        relative,
    ] {
        let out = rasterise(&style(wrap(&href)), 10, 10).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(covered(&out.bitmap), 0, "{href} was loaded");
    }
    // The same picture embedded as data: is drawn, so the check above is not vacuous.
    let data = format!(
        "data:image/svg+xml;utf8,{}",
        red.replace('"', "'")
            .replace('<', "%3C")
            .replace('>', "%3E")
    );
    let out = rasterise(&style(wrap(&data)), 10, 10).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(covered(&out.bitmap), 100);
}

/// `file` relative to `base` through `..` steps (both absolute).
fn pathdiff(file: &std::path::Path, base: &std::path::Path) -> Option<String> {
    let ups = base.components().count().checked_sub(1)?;
    let rest = file.strip_prefix("/").ok()?;
    Some(format!("{}{}", "../".repeat(ups), rest.display()))
}
