//! The originals of uploads browsers cannot show are what renders decode: HEVC video in Matroska
//! and QuickTime, and HEIF/HEIC and AVIF pictures (libheif). The samples are made here, with
//! GStreamer's x265 and libheif's encoders, never checked in.

use std::path::Path;

use reelforge_render::compose::image;
use reelforge_render::decode::{VideoDecoder, VideoRequest};

type R = Result<(), Box<dyn std::error::Error>>;

/// A second of 320x240 test pattern at 25 fps, HEVC, in the container `mux`.
fn hevc(path: &Path, mux: &str) -> R {
    let st = std::process::Command::new("gst-launch-1.0")
        .args(["-q", "videotestsrc", "num-buffers=25", "!", "video/x-raw,width=320,height=240,framerate=25/1"])
        .args(["!", "x265enc", "speed-preset=ultrafast", "!", "h265parse", "!", mux, "!", "filesink"])
        .arg(format!("location={}", path.display()))
        .status()?;
    assert!(st.success(), "gst-launch made {}", path.display());
    Ok(())
}

#[test]
fn hevc_in_matroska_and_quicktime_decodes() -> R {
    let dir = tempfile::tempdir()?;
    for (name, mux) in [("clip.mkv", "matroskamux"), ("clip.mov", "qtmux")] {
        let path = dir.path().join(name);
        hevc(&path, mux)?;
        let req = VideoRequest { width: 160, height: 120, fps: (25, 1), start: 0.0, watchdog_s: 20, alpha: false };
        let mut decoder = VideoDecoder::open(&path, &req)?;
        let mut frames = 0;
        while let Some(frame) = decoder.next_frame()? {
            assert_eq!((frame.width(), frame.height()), (160, 120), "{name}");
            frames += 1;
        }
        assert!((20..=30).contains(&frames), "{name}: {frames} frames");
    }
    Ok(())
}

#[test]
fn heic_and_avif_pictures_decode() -> R {
    let dir = tempfile::tempdir()?;
    let rgba: Vec<u8> = (0..48u32).flat_map(|y| (0..64u32).flat_map(move |x| [(x * 4) as u8, (y * 5) as u8, 200, 255])).collect();
    for (name, codec) in [("p.heic", reelforge_heif::Codec::Hevc), ("p.avif", reelforge_heif::Codec::Av1)] {
        let path = dir.path().join(name);
        std::fs::write(&path, reelforge_heif::encode(&rgba, 64, 48, codec, 90)?)?;
        let bitmap = image::load(&path)?;
        assert_eq!((bitmap.w, bitmap.h), (64, 48), "{name}");
    }
    Ok(())
}
