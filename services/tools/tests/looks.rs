//! PPT_CONVERTER, VIDEO_BEAUTY and INCREASE_RESOLUTION on real files, each with a measured property.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::AtomicBool;

use reelforge_tools::testing::{Clip, encode_frames, luma_frames, psnr};
use reelforge_tools::{OutputKind, Params, ToolError, ToolType, probe, run};
use serde_json::json;

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

fn tool(tool: ToolType, params: serde_json::Value, input: &Path, dir: &Path) -> std::result::Result<Vec<reelforge_tools::Output>, ToolError> {
    let params = Params::parse(tool, &params)?;
    run(&params, &[input.to_path_buf()], dir, &mut |_| {}, &AtomicBool::new(false))
}

/// A presentation of three 16:9 pages, each a large rectangle of its own colour (light, middle,
/// dark), written as flat ODF and saved as pptx by LibreOffice itself.
fn presentation(dir: &Path) -> Result<PathBuf> {
    let colours = ["#f0f040", "#20a040", "#2020a0"];
    let styles: String = colours
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!(
                r#"<style:style style:name="r{i}" style:family="graphic"><style:graphic-properties draw:fill="solid" draw:fill-color="{c}" draw:stroke="none"/></style:style>"#
            )
        })
        .collect();
    let pages: String = (0..colours.len())
        .map(|i| {
            format!(
                r#"<draw:page draw:name="p{i}" draw:master-page-name="Default"><draw:rect draw:style-name="r{i}" svg:x="2cm" svg:y="2cm" svg:width="24cm" svg:height="11.75cm"/></draw:page>"#
            )
        })
        .collect();
    let doc = format!(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0" xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" office:version="1.2" office:mimetype="application/vnd.oasis.opendocument.presentation">
<office:automatic-styles><style:page-layout style:name="PM1"><style:page-layout-properties fo:margin-top="0cm" fo:margin-bottom="0cm" fo:margin-left="0cm" fo:margin-right="0cm" fo:page-width="28cm" fo:page-height="15.75cm"/></style:page-layout>{styles}</office:automatic-styles>
<office:master-styles><style:master-page style:name="Default" style:page-layout-name="PM1"/></office:master-styles>
<office:body><office:presentation>{pages}</office:presentation></office:body></office:document>"#
    );
    let flat = dir.join("deck.fodp");
    std::fs::write(&flat, doc)?;
    let profile = format!("-env:UserInstallation=file://{}", dir.join("profile").display());
    let status = Command::new("soffice")
        .args([profile.as_str(), "--headless", "--convert-to", "pptx", "--outdir"])
        .arg(dir)
        .arg(&flat)
        .env("HOME", dir)
        .output()?;
    let pptx = dir.join("deck.pptx");
    assert!(pptx.is_file(), "soffice made no pptx: {}", String::from_utf8_lossy(&status.stderr));
    Ok(pptx)
}

/// The mean luma of a `stride`-wide picture's centre (a quarter of each side in from the edges).
fn centre(luma: &[u8], stride: usize) -> f64 {
    let rows = luma.len() / stride;
    let v: Vec<f64> = (rows / 4..rows * 3 / 4).flat_map(|y| (stride / 4..stride * 3 / 4).map(move |x| f64::from(luma[y * stride + x]))).collect();
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

#[test]
fn a_presentation_becomes_pages_times_seconds_of_video_one_page_after_another() -> Result {
    let dir = tempfile::tempdir()?;
    let deck = presentation(dir.path())?;
    let out = tool(ToolType::PptConverter, json!({"secondsPerPage": 1}), &deck, &dir.path().join("cut"))?;
    let o = &out[0];
    assert_eq!((o.kind, o.name.as_str(), o.width, o.height), (OutputKind::Video, "slides.mp4", 1280, 720));
    let facts = probe(&o.path)?;
    assert!(facts.duration_ms.abs_diff(3000) <= 40 && !facts.audio, "{facts:?}");
    let frames = luma_frames(&o.path)?;
    assert_eq!(frames.len(), 75, "3 pages × 1 s × 25 fps");
    // Each page's frames are its own: the centres differ page to page, and are steady within a page.
    let means: Vec<f64> = [5, 20, 30, 45, 55, 70].iter().map(|&k| centre(&frames[k].1, 1280)).collect();
    eprintln!("page centres: {means:?}");
    for pair in [(0, 1), (2, 3), (4, 5)] {
        assert!((means[pair.0] - means[pair.1]).abs() < 2.0, "a page is steady: {means:?}");
    }
    assert!((means[1] - means[2]).abs() > 30.0 && (means[3] - means[4]).abs() > 30.0, "the pages differ: {means:?}");
    assert!(psnr(&frames[20].1, &frames[30].1) < 25.0);
    // A crossfade keeps the length and passes between the pages at the end of each.
    let faded = tool(ToolType::PptConverter, json!({"secondsPerPage": 1, "crossfadeMs": 400}), &deck, &dir.path().join("fade"))?;
    assert!(probe(&faded[0].path)?.duration_ms.abs_diff(3000) <= 40);
    let frames = luma_frames(&faded[0].path)?;
    assert_eq!(frames.len(), 75);
    let (a, mid, b) = (centre(&frames[10].1, 1280), centre(&frames[20].1, 1280), centre(&frames[30].1, 1280));
    assert!(mid < a.max(b) - 10.0 && mid > a.min(b) + 10.0, "half way through the fade: {a:.0} → {mid:.0} → {b:.0}");
    // A file LibreOffice cannot open fails naming it, and leaves nothing.
    let bad = dir.path().join("broken.pptx");
    std::fs::write(&bad, b"PK\x03\x04 not really a presentation")?;
    let err = tool(ToolType::PptConverter, json!({}), &bad, &dir.path().join("bad"));
    assert!(matches!(&err, Err(ToolError::Param(p)) if p.field == "materialIds" && p.message.contains("broken.pptx")), "{err:?}");
    assert!(std::fs::read_dir(dir.path().join("bad"))?.next().is_none());
    Ok(())
}

/// A video of `frames` 320×180 pictures: the left half skin-coloured with ±20 levels of noise, the
/// right half grey with a sharp black/white edge (not skin: neutral chroma).
fn skin_clip(dir: &Path, frames: u64) -> Result<PathBuf> {
    let path = dir.join("skin.mp4");
    let description = "appsrc name=src format=time caps=video/x-raw,format=I420,width=320,height=180,framerate=25/1 \
                       ! x264enc speed-preset=ultrafast pass=qual quantizer=8 ! mp4mux ! filesink name=sink";
    let mut seed: u64 = 7;
    let pictures = (0..frames).map(move |_| {
        let mut data = vec![0u8; 320 * 180 * 3 / 2];
        for y in 0..180 {
            for x in 0..320 {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                let noise = ((seed >> 33) % 41) as i32 - 20;
                data[y * 320 + x] = if x < 160 { (150 + noise) as u8 } else if x < 240 { 30 } else { 220 };
            }
        }
        let (u, v) = data[320 * 180..].split_at_mut(160 * 90);
        for (i, (cb, cr)) in u.iter_mut().zip(v.iter_mut()).enumerate() {
            let skin = i % 160 < 80;
            (*cb, *cr) = if skin { (110, 150) } else { (128, 128) };
        }
        data
    });
    encode_frames(description, &path, pictures, 40)?;
    Ok(path)
}

/// The luma variance of a 320-wide picture's rows and columns.
fn variance(luma: &[u8], rows: std::ops::Range<usize>, cols: std::ops::Range<usize>) -> f64 {
    let v: Vec<f64> = rows.flat_map(|y| cols.clone().map(move |x| f64::from(luma[y * 320 + x]))).collect();
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64
}

fn columns(luma: &[u8], stride: usize, cols: std::ops::Range<usize>) -> Vec<u8> {
    (0..luma.len() / stride).flat_map(|y| cols.clone().map(move |x| luma[y * stride + x])).collect()
}

#[test]
fn beauty_smooths_noisy_skin_and_leaves_what_is_not_skin() -> Result {
    let dir = tempfile::tempdir()?;
    let input = skin_clip(dir.path(), 25)?;
    let source = luma_frames(&input)?;
    let out = tool(ToolType::VideoBeauty, json!({"strength": 100}), &input, &dir.path().join("beauty"))?;
    let o = &out[0];
    assert_eq!((o.kind, o.name.as_str(), o.width, o.height), (OutputKind::Video, "beauty.mp4", 320, 180));
    let frames = luma_frames(&o.path)?;
    assert_eq!(frames.len(), 25, "every frame kept");
    for k in [0, 12, 24] {
        let (src, got) = (&source[k].1, &frames[k].1);
        let (was, now) = (variance(src, 8..172, 8..150), variance(got, 8..172, 8..150));
        assert!(now * 2.0 <= was, "frame {k}: the skin's noise variance {was:.1} → {now:.1}");
        // The edge at x 240 and the grey around it, away from the skin's border.
        let kept = psnr(&columns(src, 320, 176..320), &columns(got, 320, 176..320));
        assert!(kept >= 40.0, "frame {k}: {kept:.1} dB outside the skin");
    }
    Ok(())
}

/// The mean absolute difference of neighbouring samples across and down: how sharp a picture is.
fn mean_gradient(luma: &[u8], w: usize) -> f64 {
    let h = luma.len() / w;
    let mut sum = 0.0;
    for y in 0..h - 1 {
        for x in 0..w - 1 {
            let p = luma[y * w + x];
            sum += f64::from(p.abs_diff(luma[y * w + x + 1])) + f64::from(p.abs_diff(luma[(y + 1) * w + x]));
        }
    }
    sum / ((w - 1) * (h - 1)) as f64
}

/// A plain bilinear 2× of a `w`-wide picture (sample centres aligned, edges clamped).
fn bilinear_double(luma: &[u8], w: usize) -> Vec<u8> {
    let h = luma.len() / w;
    let at = |x: f64, y: f64| {
        let (x, y) = (x.clamp(0.0, (w - 1) as f64), y.clamp(0.0, (h - 1) as f64));
        let (x0, y0) = (x.floor() as usize, y.floor() as usize);
        let (x1, y1) = ((x0 + 1).min(w - 1), (y0 + 1).min(h - 1));
        let (fx, fy) = (x - x0 as f64, y - y0 as f64);
        let p = |x: usize, y: usize| f64::from(luma[y * w + x]);
        (p(x0, y0) * (1.0 - fx) + p(x1, y0) * fx) * (1.0 - fy) + (p(x0, y1) * (1.0 - fx) + p(x1, y1) * fx) * fy
    };
    (0..h * 2).flat_map(|y| (0..w * 2).map(move |x| (y, x))).map(|(y, x)| at((x as f64 + 0.5) / 2.0 - 0.5, (y as f64 + 0.5) / 2.0 - 0.5).round() as u8).collect()
}

#[test]
fn an_upscale_doubles_the_size_and_is_sharper_than_a_bilinear_one() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip { pattern: Some("smpte horizontal-speed=4"), ..Clip::default() }.make(dir.path(), "in.mp4")?;
    let source = luma_frames(&input)?;
    let out = tool(ToolType::IncreaseResolution, json!({"target": "2x", "sharpen": 50}), &input, &dir.path().join("up"))?;
    let o = &out[0];
    assert_eq!((o.kind, o.name.as_str(), o.width, o.height), (OutputKind::Video, "upscaled.mp4", 640, 360));
    let facts = probe(&o.path)?;
    assert!(facts.audio && facts.duration_ms.abs_diff(4000) <= 40, "{facts:?}");
    let frames = luma_frames(&o.path)?;
    assert_eq!(frames.len(), source.len(), "every frame kept");
    for k in [10, 50, 90] {
        let (ours, plain) = (mean_gradient(&frames[k].1, 640), mean_gradient(&bilinear_double(&source[k].1, 320), 640));
        eprintln!("frame {k}: mean gradient {ours:.3} against bilinear {plain:.3}");
        assert!(ours >= plain, "frame {k}: {ours:.3} < bilinear {plain:.3}");
    }
    Ok(())
}
