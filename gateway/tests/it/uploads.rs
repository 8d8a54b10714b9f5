//! Uploads end to end (issues 23 and 24): the common formats accepted, with browser previews for
//! those browsers cannot show; refusals that name the accepted formats; content that cannot be
//! decoded, or would decode beyond a limit, refused with nothing kept; bodies that are not
//! multipart or announce more than a route takes answered in the envelope before a byte is read;
//! and the same file uploaded twice offered as the material it already made. Samples are made
//! here (GStreamer, libheif, the zip and image crates), never checked in.

use crate::common;

use std::io::{Read, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use common::{Fallible, MP4, PNG, System, User, data, envelope, settled, upload, upload_to};
use reqwest::Method;

/// Waits for the preview made after a video is ready; answers its URL.
async fn preview_of(s: &System, user: &User, id: &str) -> Fallible<String> {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let m = data(s.call(Method::POST, &format!("/material/info/{id}"), user)).await?;
        if let Some(url) = m["previewUrl"].as_str().filter(|u| !u.is_empty()) {
            return Ok(url.to_owned());
        }
        if Instant::now() > deadline {
            return Err(format!("no preview: {m}").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Runs `gst-launch-1.0 -q {pipeline} ! filesink location={out}`; answers the file.
fn gst(pipeline: &str, out: &Path) -> Fallible<Vec<u8>> {
    let mut args: Vec<String> = vec!["-q".into()];
    args.extend(pipeline.split_whitespace().map(str::to_owned));
    args.extend(["!".into(), "filesink".into(), format!("location={}", out.display())]);
    let st = std::process::Command::new("gst-launch-1.0").args(&args).status()?;
    if !st.success() {
        return Err(format!("gst-launch failed: {pipeline}").into());
    }
    Ok(std::fs::read(out)?)
}

async fn get(s: &System, url: &str) -> Fallible<(u16, String, Vec<u8>)> {
    let origin = s.base.trim_end_matches("/diyvrbt");
    let res = reqwest::get(format!("{origin}{url}")).await?;
    let status = res.status().as_u16();
    let ct = res.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    Ok((status, ct, res.bytes().await?.to_vec()))
}

/// The keys stored for `user`, and every file under the blob directory (`.partial/` included).
async fn stored(s: &System, user: &User) -> Fallible<(Vec<String>, Vec<String>)> {
    let prefix = reelforge_kit::blob::user_material_prefix(&user.tenant, &user.user_id);
    let mut keys = s.blobs.list(&prefix).await?;
    keys.sort();
    let mut files = Vec::new();
    let mut dirs = vec![s.dir.path().join("blobs")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path.display().to_string());
            }
        }
    }
    files.sort();
    Ok((keys, files))
}

async fn own_total(s: &System, user: &User) -> Fallible<u64> {
    let listed = data(s.call(Method::POST, "/material/ofuser", user).json(&serde_json::json!({}))).await?;
    listed["total"].as_u64().ok_or_else(|| format!("no total: {listed}").into())
}

/// A picture of `w`×`h` in a gradient seeded by `seed`, as straight RGBA.
fn gradient(w: u32, h: u32, seed: u8) -> Vec<u8> {
    (0..h).flat_map(|y| (0..w).flat_map(move |x| [(x * 3) as u8 ^ seed, (y * 5) as u8, seed, 255])).collect()
}

fn png_of(seed: u8) -> Fallible<Vec<u8>> {
    let img = image::RgbaImage::from_raw(32, 24, gradient(32, 24, seed)).ok_or("size")?;
    let mut out = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)?;
    Ok(out)
}

/// A zip of `entries`, deflated.
fn zip_of(entries: &[(&str, &[u8])]) -> Fallible<Vec<u8>> {
    let mut w = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in entries {
        w.start_file(*name, options)?;
        w.write_all(bytes)?;
    }
    Ok(w.finish()?.into_inner())
}

const CONTENT_TYPES: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>"#;
const RELS: &str = r#"<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="ppt/presentation.xml"/></Relationships>"#;
const PRESENTATION: &str = r#"<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:sldSz cx="9144000" cy="6858000"/></p:presentation>"#;

/// The three parts every presentation has.
fn deck_parts() -> Vec<(String, Vec<u8>)> {
    vec![
        ("[Content_Types].xml".into(), CONTENT_TYPES.as_bytes().to_vec()),
        ("_rels/.rels".into(), RELS.as_bytes().to_vec()),
        ("ppt/presentation.xml".into(), PRESENTATION.as_bytes().to_vec()),
    ]
}

fn zip_parts(parts: &[(String, Vec<u8>)]) -> Fallible<Vec<u8>> {
    let borrowed: Vec<(&str, &[u8])> = parts.iter().map(|(n, b)| (n.as_str(), b.as_slice())).collect();
    zip_of(&borrowed)
}

/// A PNG chunk with its CRC-32.
fn png_chunk(kind: &[u8; 4], body: &[u8]) -> Vec<u8> {
    let mut c = 0xFFFF_FFFFu32;
    for b in kind.iter().chain(body) {
        c ^= u32::from(*b);
        for _ in 0..8 {
            c = if c & 1 == 1 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 };
        }
    }
    let mut out = u32::try_from(body.len()).unwrap_or(0).to_be_bytes().to_vec();
    out.extend_from_slice(kind);
    out.extend_from_slice(body);
    out.extend_from_slice(&(!c).to_be_bytes());
    out
}

/// A PNG signature and header announcing `w`×`h` RGBA pixels.
fn png_header(w: u32, h: u32) -> Vec<u8> {
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    out.extend(png_chunk(b"IHDR", &ihdr));
    out
}

fn reason(v: &serde_json::Value) -> (Option<i64>, Option<&str>) {
    (v["code"].as_i64(), v["data"]["reason"].as_str())
}

#[tokio::test]
async fn common_formats_are_accepted_and_browsers_get_previews() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "formats", 8).await?;
    let dir = tempfile::tempdir()?;
    let video = |enc: &str| format!("videotestsrc num-buffers=25 ! video/x-raw,width=320,height=240,framerate=25/1 ! {enc}");
    let tone = |enc: &str| format!("audiotestsrc num-buffers=40 wave=sine ! audioconvert ! {enc}");

    // Videos: Matroska (H.264, a container browsers do not play), QuickTime with HEVC (a codec
    // they do not play), m4v and WebM (both played as they are).
    let mkv = gst(&video("x264enc ! h264parse ! matroskamux"), &dir.path().join("a.mkv"))?;
    let mov = gst(&video("x265enc speed-preset=ultrafast ! h265parse ! qtmux"), &dir.path().join("a.mov"))?;
    let m4v = gst(&video("x264enc ! h264parse ! mp4mux"), &dir.path().join("a.m4v"))?;
    let webm = gst(&video("vp8enc deadline=1 ! webmmux"), &dir.path().join("a.webm"))?;
    let mut videos = Vec::new();
    for (name, bytes) in [("film.mkv", &mkv), ("iphone.MOV", &mov), ("clip.m4v", &m4v), ("clip.webm", &webm)] {
        let id = upload(&s, &me, name, bytes).await?;
        let m = settled(&s, &me, &id).await?;
        assert_eq!((m["state"].as_str(), m["type"].as_str(), m["size"].as_str()), (Some("ready"), Some("video"), Some("320x240")), "{name}: {m}");
        assert!(m["coverUrl"].as_str().is_some_and(|u| !u.is_empty()) && m["filmstripUrl"].as_str().is_some_and(|u| !u.is_empty()), "{name}: {m}");
        videos.push((name, id, m));
    }
    assert!(videos[1].2["codec"].as_str().is_some_and(|c| c.contains("H.265")), "{}", videos[1].2);
    for (name, id, _) in &videos[..2] {
        let preview = preview_of(&s, &me, id).await?;
        let (status, ct, head) = get(&s, &preview).await?;
        assert_eq!((status, ct.as_str(), &head[4..8]), (200, "video/mp4", b"ftyp".as_slice()), "{name}");
        // The original stays what renders use.
        let m = data(s.call(Method::POST, &format!("/material/info/{id}"), &me)).await?;
        let (_, _, original) = get(&s, m["url"].as_str().ok_or("url")?).await?;
        assert_eq!(original.len() as u64, m["fileSize"].as_u64().unwrap_or(0), "{name}");
    }
    for (name, id, _) in &videos[2..] {
        let m = data(s.call(Method::POST, &format!("/material/info/{id}"), &me)).await?;
        assert_eq!(m["previewUrl"], "", "{name} plays as it is: {m}");
    }

    // Pictures: HEIC (a JPEG preview, browsers do not show it), AVIF and WebP (shown as they are).
    let heic = reelforge_heif::encode(&gradient(64, 48, 1), 64, 48, reelforge_heif::Codec::Hevc, 80)?;
    let avif = reelforge_heif::encode(&gradient(64, 48, 2), 64, 48, reelforge_heif::Codec::Av1, 80)?;
    let mut webp = Vec::new();
    image::RgbaImage::from_raw(64, 48, gradient(64, 48, 3))
        .ok_or("size")?
        .write_to(&mut std::io::Cursor::new(&mut webp), image::ImageFormat::WebP)?;
    for (name, bytes, preview) in [("IMG_0001.HEIC", &heic, true), ("p.avif", &avif, false), ("p.webp", &webp, false)] {
        let id = upload(&s, &me, name, bytes).await?;
        let m = settled(&s, &me, &id).await?;
        assert_eq!((m["state"].as_str(), m["type"].as_str(), m["size"].as_str()), (Some("ready"), Some("picture"), Some("64x48")), "{name}: {m}");
        let (status, ct, cover) = get(&s, m["coverUrl"].as_str().ok_or("coverUrl")?).await?;
        assert!(status == 200 && ct == "image/jpeg" && cover.starts_with(&[0xFF, 0xD8]), "{name}'s cover");
        assert_eq!(m["previewUrl"].as_str().is_some_and(|u| !u.is_empty()), preview, "{name}: {m}");
        if preview {
            let (status, ct, jpeg) = get(&s, m["previewUrl"].as_str().ok_or("previewUrl")?).await?;
            assert_eq!((status, ct.as_str()), (200, "image/jpeg"));
            assert_eq!(image::load_from_memory(&jpeg)?.to_rgb8().dimensions(), (64, 48), "the preview is the whole picture");
            let (_, ct, _) = get(&s, m["url"].as_str().ok_or("url")?).await?;
            assert_eq!(ct, "image/heic", "the original is kept");
        }
    }

    // Audio: m4a, ADTS AAC, Ogg Vorbis and FLAC, each with its waveform and loudness.
    let m4a = gst(&tone("avenc_aac ! aacparse ! mp4mux"), &dir.path().join("a.m4a"))?;
    let aac = gst(&tone("avenc_aac ! aacparse ! audio/mpeg,stream-format=adts"), &dir.path().join("a.aac"))?;
    let ogg = gst(&tone("vorbisenc ! oggmux"), &dir.path().join("a.ogg"))?;
    let flac = gst(&tone("flacenc"), &dir.path().join("a.flac"))?;
    for (name, bytes) in [("a.m4a", &m4a), ("a.aac", &aac), ("a.ogg", &ogg), ("a.flac", &flac)] {
        let id = upload(&s, &me, name, bytes).await?;
        let m = settled(&s, &me, &id).await?;
        assert_eq!((m["state"].as_str(), m["type"].as_str(), m["hasAudio"].as_bool()), (Some("ready"), Some("audio"), Some(true)), "{name}: {m}");
        assert!(m["waveformUrl"].as_str().is_some_and(|u| !u.is_empty()), "{name}: {m}");
    }
    Ok(())
}

#[tokio::test]
async fn a_refused_type_names_the_accepted_formats() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "refused", 8).await?;
    let txt = upload_to(&s, "/upload/material", &me, &[("notes.txt", b"hello")]).await?;
    assert_eq!(reason(&txt), (Some(3000), Some("unsupported_file_type")), "{txt}");
    let accepted = &txt["data"]["accepted"];
    for (kind, ext) in [("picture", "heic"), ("picture", "avif"), ("picture", "webp"), ("video", "mkv"), ("video", "m4v"), ("audio", "flac"), ("audio", "ogg"), ("gif", "gif"), ("pptx", "pptx")] {
        assert!(accepted[kind].as_array().is_some_and(|l| l.iter().any(|e| e == ext)), "{kind} {ext}: {txt}");
    }
    let desc = txt["desc"].as_str().unwrap_or_default();
    assert!(desc.starts_with("unsupported file type") && desc.contains("mkv") && desc.contains("heic") && desc.contains("flac"), "{desc}");
    // A file whose content is not what its extension says is refused the same way.
    let exe = upload_to(&s, "/upload/multimaterial", &me, &[("setup.mkv", b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00")]).await?;
    assert_eq!(reason(&exe), (Some(3000), Some("unsupported_file_type")), "{exe}");
    // A cover takes pictures only, and says so.
    let pic = upload(&s, &me, "p.png", PNG).await?;
    let (ct, body) = common::multipart(&[("materialId", None, pic.as_bytes()), ("uploadFile", Some("c.mp4"), MP4)]);
    let cover = envelope(s.call(Method::POST, "/material/changeCoverPic", &me).header("Content-Type", ct).body(body)).await?;
    assert_eq!(reason(&cover), (Some(3000), Some("unsupported_file_type")), "{cover}");
    assert_eq!(cover["data"]["accepted"].as_object().map(|a| a.keys().cloned().collect::<Vec<_>>()), Some(vec!["picture".to_owned()]), "{cover}");
    Ok(())
}

#[tokio::test]
async fn content_that_cannot_be_decoded_is_refused_and_nothing_is_kept() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "careful", 8).await?;
    let before = stored(&s, &me).await?;
    let mut html = png_header(32, 24);
    html.extend_from_slice(b"<html><body><script>alert(document.cookie)</script></body></html>");
    let mut huge = png_header(20_000, 20_000);
    huge.extend(png_chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
    huge.extend(png_chunk(b"IEND", &[]));
    let mut noise_wav = b"RIFF\x00\x10\x00\x00WAVE".to_vec();
    noise_wav.extend(std::iter::repeat_n(b'x', 4096));
    let mut long_gif = Vec::new();
    {
        let frames = (0..1001u32).map(|i| image::Frame::new(image::RgbaImage::from_pixel(2, 2, image::Rgba([(i % 2 * 255) as u8, 0, 0, 255]))));
        image::codecs::gif::GifEncoder::new(&mut long_gif).encode_frames(frames)?;
    }
    let exe_deck = zip_of(&[("setup.exe", b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff")])?;
    let mut crowded = deck_parts();
    crowded.extend((0..10_001).map(|i| (format!("ppt/media/x{i}.bin"), vec![1u8])));
    let crowded = zip_parts(&crowded)?;
    let cases: [(&str, &[u8], &str, &str); 7] = [
        ("cut.mp4", &MP4[..MP4.len() / 2], "unreadable_file", "cannot read the file"),
        ("page.png", &html, "unreadable_file", "cannot be decoded"),
        ("huge.png", &huge, "content_too_large", "20000x20000"),
        ("noise.wav", &noise_wav, "unreadable_file", ""),
        ("long.gif", &long_gif, "content_too_large", "more than 1000 frames"),
        ("setup.pptx", &exe_deck, "unreadable_file", "not a pptx presentation"),
        ("crowded.pptx", &crowded, "content_too_large", "more than 10000 entries"),
    ];
    for (name, bytes, want, says) in cases {
        let v = upload_to(&s, "/upload/material", &me, &[(name, bytes)]).await?;
        assert_eq!(reason(&v), (Some(3000), Some(want)), "{name}: {v}");
        assert!(v["desc"].as_str().is_some_and(|d| d.contains(says)), "{name}: {v}");
    }
    // In a multi-upload, a bad file undoes the good one before it.
    let v = upload_to(&s, "/upload/multimaterial", &me, &[("fine.png", &png_of(7)?), ("page.png", &html)]).await?;
    assert_eq!(reason(&v), (Some(3000), Some("unreadable_file")), "{v}");
    // The good file's probe may still be finishing when its row goes; what it made goes with it.
    let deadline = Instant::now() + Duration::from_secs(20);
    while stored(&s, &me).await? != before && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(stored(&s, &me).await?, before, "no object, no partial file");
    assert_eq!(own_total(&s, &me).await?, 0, "no row");

    // A real presentation passes, and is ready once stored.
    let deck = upload(&s, &me, "deck.pptx", &zip_parts(&deck_parts())?).await?;
    assert_eq!(settled(&s, &me, &deck).await?["state"], "ready");
    Ok(())
}

#[tokio::test]
async fn media_beyond_the_frame_size_duration_or_stream_limits_is_refused_and_nothing_is_kept() -> Fallible<()> {
    // The frame size keeps its default (8K); the duration and stream limits are set low.
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        c.upload.media_max_seconds = 5;
        c.upload.media_max_streams = 2;
    })
    .await?;
    let me = s.user("qs", "limited", 8).await?;
    let before = stored(&s, &me).await?;
    let dir = tempfile::tempdir()?;
    let at = |name: &str| dir.path().join(name);
    // One frame 16 pixels wider than 8K, Motion JPEG: cheap to make and to decode.
    let wide = gst("videotestsrc num-buffers=1 ! video/x-raw,width=7696,height=4320,framerate=1/1 ! jpegenc ! matroskamux", &at("w.mkv"))?;
    // Ten seconds of video at one frame a second, and twelve seconds of 8 kHz audio.
    let long = gst("videotestsrc num-buffers=10 ! video/x-raw,width=64,height=48,framerate=1/1 ! x264enc ! h264parse ! mp4mux", &at("l.mp4"))?;
    let long_wav = gst("audiotestsrc num-buffers=12 samplesperbuffer=8000 ! audio/x-raw,rate=8000,channels=1 ! wavenc", &at("l.wav"))?;
    // A video and two audio streams.
    let crowded = gst(
        "audiotestsrc num-buffers=5 ! audioconvert ! vorbisenc ! m. audiotestsrc num-buffers=5 freq=880 ! audioconvert ! vorbisenc ! m. \
         videotestsrc num-buffers=5 ! video/x-raw,width=64,height=48,framerate=5/1 ! jpegenc ! matroskamux name=m",
        &at("c.mkv"),
    )?;
    let cases: [(&str, &[u8], &str); 4] = [
        ("wide.mkv", &wide, "7696x4320, more than 33177600 pixels (upload.video_max_pixels"),
        ("long.mp4", &long, "lasts 10 s, more than 5 s (upload.media_max_seconds)"),
        ("long.wav", &long_wav, "lasts 12 s, more than 5 s (upload.media_max_seconds)"),
        ("crowded.mkv", &crowded, "has 3 streams, more than 2 (upload.media_max_streams)"),
    ];
    for (name, bytes, says) in cases {
        let v = upload_to(&s, "/upload/material", &me, &[(name, bytes)]).await?;
        assert_eq!(reason(&v), (Some(3000), Some("content_too_large")), "{name}: {v}");
        assert!(v["desc"].as_str().is_some_and(|d| d.contains(says)), "{name}: {v}");
    }
    assert_eq!(stored(&s, &me).await?, before, "no object, no partial file");
    assert_eq!(own_total(&s, &me).await?, 0, "no row");

    // Within the limits: two seconds, a video and an audio stream.
    let fine = gst(
        "audiotestsrc num-buffers=20 ! audioconvert ! vorbisenc ! m. \
         videotestsrc num-buffers=10 ! video/x-raw,width=64,height=48,framerate=5/1 ! jpegenc ! matroskamux name=m",
        &at("f.mkv"),
    )?;
    let id = upload(&s, &me, "fine.mkv", &fine).await?;
    assert_eq!(settled(&s, &me, &id).await?["state"], "ready");
    Ok(())
}

#[tokio::test]
async fn spoofs_named_as_media_are_refused_and_real_jpg_gif_and_mp3_are_accepted() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "spoofed", 8).await?;
    let before = stored(&s, &me).await?;
    let elf = std::fs::read("/bin/true")?;
    assert!(elf.starts_with(b"\x7fELF"), "an ELF executable");
    let svg = br#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.cookie)</script><rect width="9" height="9"/></svg>"#;
    let html = b"<!doctype html><html><body><script>alert(document.cookie)</script></body></html>";
    let png = png_of(9)?;
    let zip = zip_of(&[("setup.exe", b"MZ\x90\x00\x03\x00\x00\x00")])?;
    // An MP4 box header, then a page: the magic bytes agree, the content does not decode.
    let mut boxed = b"\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom".to_vec();
    boxed.extend_from_slice(html);
    let cases: [(&str, &[u8], &str); 14] = [
        ("clip.mp4", &elf, "unsupported_file_type"),
        ("photo.png", &elf, "unsupported_file_type"),
        ("photo.jpg", &elf, "unsupported_file_type"),
        ("song.mp3", &elf, "unsupported_file_type"),
        ("logo.png", svg, "unsupported_file_type"),
        ("logo.jpg", svg, "unsupported_file_type"),
        ("logo.gif", svg, "unsupported_file_type"),
        ("logo.mp4", svg, "unsupported_file_type"),
        ("logo.svg", svg, "unsupported_file_type"),
        ("picture.mp4", &png, "unsupported_file_type"),
        ("page.mp4", html, "unsupported_file_type"),
        ("archive.mp4", &zip, "unsupported_file_type"),
        ("boxed.mp4", &boxed, "unreadable_file"),
        ("boxed.mp3", &boxed, "unsupported_file_type"),
    ];
    for (name, bytes, want) in cases {
        for route in ["/upload/material", "/upload/multimaterial"] {
            let v = upload_to(&s, route, &me, &[(name, bytes)]).await?;
            assert_eq!(reason(&v), (Some(3000), Some(want)), "{name} on {route}: {v}");
        }
    }
    assert_eq!(stored(&s, &me).await?, before, "no object, no partial file");
    assert_eq!(own_total(&s, &me).await?, 0, "no row");

    // The real formats pass end to end: a JPEG, an animated GIF, an MP3 (made by LAME).
    let mut jpg = Vec::new();
    image::RgbImage::from_fn(64, 48, |x, y| image::Rgb([(x * 4) as u8, (y * 5) as u8, 90]))
        .write_to(&mut std::io::Cursor::new(&mut jpg), image::ImageFormat::Jpeg)?;
    let mut gif = Vec::new();
    {
        let frames = (0..3u8).map(|i| image::Frame::new(image::RgbaImage::from_raw(64, 48, gradient(64, 48, i * 70)).unwrap_or_default()));
        image::codecs::gif::GifEncoder::new(&mut gif).encode_frames(frames)?;
    }
    let dir = tempfile::tempdir()?;
    let mp3 = gst("audiotestsrc num-buffers=40 wave=sine ! audioconvert ! lamemp3enc", &dir.path().join("a.mp3"))?;
    for (name, bytes, kind, size) in [("photo.jpg", &jpg, "picture", Some("64x48")), ("moving.gif", &gif, "gif", Some("64x48")), ("tone.mp3", &mp3, "audio", None)] {
        let id = upload(&s, &me, name, bytes).await?;
        let m = settled(&s, &me, &id).await?;
        assert_eq!((m["state"].as_str(), m["type"].as_str()), (Some("ready"), Some(kind)), "{name}: {m}");
        if let Some(size) = size {
            assert_eq!(m["size"].as_str(), Some(size), "{name}: {m}");
        } else {
            assert_eq!(m["hasAudio"].as_bool(), Some(true), "{name}: {m}");
        }
        let (status, _, original) = get(&s, m["url"].as_str().ok_or("url")?).await?;
        assert_eq!((status, original.as_slice()), (200, bytes.as_slice()), "{name} is served as uploaded");
    }
    Ok(())
}

#[tokio::test]
async fn an_upload_cut_off_midway_leaves_nothing() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "cancelling", 8).await?;
    let before = stored(&s, &me).await?;
    // A video of 24 MiB announced whole; the browser cancels (the connection closes) at half of it,
    // past the first part the store is sent (`WRITE_CHUNK`), so the upload's temporary file exists.
    let mut video = MP4.to_vec();
    video.extend((0..24u32 << 20).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    let mut parts: Vec<(&str, Option<&str>, &[u8])> = vec![("userId", None, me.user_id.as_bytes())];
    parts.extend(common::FORM.iter().map(|(k, v)| (*k, None, v.as_bytes())));
    parts.push(("uploadFile", Some("long.mp4"), &video));
    let (content_type, body) = common::multipart(&parts);
    assert!(body.len() / 2 > reelforge_kit::blob::WRITE_CHUNK, "half the body fills the first part sent");
    let head = format!(
        "POST /diyvrbt/upload/material HTTP/1.1\r\nHost: {}\r\nX-Variant: qs\r\nAuthorization: {}\r\nuserId: {}\r\nmobile: \r\n\
         Content-Type: {content_type}\r\nContent-Length: {}\r\n\r\n",
        s.config.http.addr,
        me.token,
        me.user_id,
        body.len()
    );
    let addr = s.config.http.addr.clone();
    let partial = s.dir.path().join("blobs/.partial");
    tokio::task::spawn_blocking(move || -> std::io::Result<()> {
        let mut conn = std::net::TcpStream::connect(&addr)?;
        conn.write_all(head.as_bytes())?;
        conn.write_all(&body[..body.len() / 2])?;
        conn.flush()?;
        // The connection closes once the gateway is streaming the file to the store (its
        // temporary file is there): closed earlier, on a loaded machine the check below found
        // nothing yet and passed before the gateway had begun, then met its temporary file.
        let streaming = || std::fs::read_dir(&partial).is_ok_and(|mut d| d.next().is_some());
        let deadline = Instant::now() + Duration::from_secs(30);
        while !streaming() {
            if Instant::now() > deadline {
                return Err(std::io::Error::other("the gateway never began storing the upload"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        conn.shutdown(std::net::Shutdown::Both)
    })
    .await??;
    // The partial file goes once the gateway sees the body end early; no object, no row.
    let deadline = Instant::now() + Duration::from_secs(30);
    while stored(&s, &me).await? != before && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(stored(&s, &me).await?, before, "no object, no partial file");
    assert_eq!(own_total(&s, &me).await?, 0, "no row");
    // The same user's next upload goes through.
    upload(&s, &me, "after.png", &png_of(3)?).await?;
    Ok(())
}

/// Each upload route, and the multipart body it takes.
const UPLOAD_ROUTES: [&str; 6] = [
    "/upload/material",
    "/upload/multimaterial",
    "/material/changeCoverPic",
    "/font/upload",
    "/v2/business/runBusinessCardTasks",
    "/upload/copyright",
];

#[tokio::test]
async fn upload_routes_answer_a_body_that_is_not_multipart() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "json", 8).await?;
    for route in UPLOAD_ROUTES {
        for (ct, body) in [
            ("application/json", br#"{"uploadFile": "x"}"#.as_slice()),
            ("text/plain", b"just text".as_slice()),
            ("multipart/form-data", b"--x\r\n\r\n--x--".as_slice()),
        ] {
            let v = envelope(s.call(Method::POST, route, &me).header("Content-Type", ct).body(body)).await?;
            assert_eq!(reason(&v), (Some(3000), Some("not_multipart")), "{route} {ct}: {v}");
        }
        let none = envelope(s.call(Method::POST, route, &me).body("x")).await?;
        assert_eq!(reason(&none), (Some(3000), Some("not_multipart")), "{route} without a type: {none}");
    }
    // The gateway is still whole.
    data(s.call(Method::POST, "/material/ofuser", &me).json(&serde_json::json!({}))).await?;
    Ok(())
}

#[tokio::test]
async fn a_huge_announced_length_is_refused_before_any_byte() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "huge", 8).await?;
    let addr = s.config.http.addr.clone();
    for route in UPLOAD_ROUTES {
        // Headers only: no byte of the announced 10 GiB is ever sent.
        let request = format!(
            "POST /diyvrbt{route} HTTP/1.1\r\nHost: {addr}\r\nX-Variant: qs\r\nAuthorization: {}\r\nuserId: {}\r\nmobile: \r\n\
             Content-Type: multipart/form-data; boundary=x\r\nContent-Length: 10737418240\r\n\r\n",
            me.token, me.user_id
        );
        let to = addr.clone();
        let answer = tokio::task::spawn_blocking(move || -> Result<String, std::io::Error> {
            let mut conn = std::net::TcpStream::connect(&to)?;
            conn.set_read_timeout(Some(Duration::from_secs(10)))?;
            conn.write_all(request.as_bytes())?;
            let mut buf = Vec::new();
            let mut chunk = [0u8; 4096];
            // Read until the envelope's closing brace; the server may keep the connection open.
            while !buf.ends_with(b"}") {
                let n = conn.read(&mut chunk)?;
                if n == 0 {
                    break;
                }
                buf.extend_from_slice(&chunk[..n]);
            }
            Ok(String::from_utf8_lossy(&buf).into_owned())
        })
        .await??;
        assert!(answer.starts_with("HTTP/1.1 413"), "{route}: {answer}");
        let body = answer.split_once("\r\n\r\n").map(|(_, b)| b).unwrap_or_default();
        let v: serde_json::Value = serde_json::from_str(body)?;
        assert_eq!(reason(&v), (Some(3000), Some("file_too_large")), "{route}: {v}");
        assert!(v["data"]["limitMb"].as_u64().is_some_and(|mb| mb < 10 * 1024), "{route}: {v}");
    }
    Ok(())
}

#[tokio::test]
async fn the_same_file_twice_offers_the_existing_material() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "twice", 8).await?;
    let colleague = s.user("qs", "colleague", 8).await?;
    let elsewhere = s.user("cc", "twice", 8).await?;
    let pic = png_of(42)?;
    let first = upload_to(&s, "/upload/material", &me, &[("a.png", &pic)]).await?;
    let id = first["uploads"][0]["id"].as_str().ok_or("uploads")?.to_owned();
    assert_eq!((first["data"].as_str(), first["uploads"][0]["duplicate"].as_bool()), (Some(format!("UPLOADED - {id}").as_str()), Some(false)), "{first}");
    let keys = stored(&s, &me).await?.0;

    // Again, under another name: the same material, nothing new stored.
    let again = upload_to(&s, "/upload/material", &me, &[("copy of a.png", &pic)]).await?;
    assert_eq!(again["code"], 2000, "{again}");
    assert_eq!(again["data"].as_str(), Some(format!("UPLOADED - {id}").as_str()), "{again}");
    assert_eq!(again["uploads"], serde_json::json!([{"id": id, "duplicate": true}]), "{again}");
    assert_eq!(again["desc"], "素材已存在");
    assert_eq!(own_total(&s, &me).await?, 1);
    settled(&s, &me, &id).await?;
    let now = stored(&s, &me).await?.0;
    assert!(now.iter().all(|k| k.contains(&id)) && now.len() >= keys.len(), "only the first material's objects: {now:?}");

    // In one multi-upload: the second copy is the first one's material.
    let other = png_of(43)?;
    let many = upload_to(&s, "/upload/multimaterial", &me, &[("b.png", &other), ("b2.png", &other), ("a3.png", &pic)]).await?;
    let b = many["uploads"][0]["id"].as_str().ok_or("uploads")?.to_owned();
    assert_eq!(
        many["uploads"],
        serde_json::json!([{"id": b, "duplicate": false}, {"id": b, "duplicate": true}, {"id": id, "duplicate": true}]),
        "{many}"
    );
    assert_eq!(many["desc"], "素材添加成功");
    assert_eq!(own_total(&s, &me).await?, 2);

    // Only the caller's own materials are matched: another user, another tenant get their own.
    for user in [&colleague, &elsewhere] {
        let theirs = upload_to(&s, "/upload/material", user, &[("a.png", &pic)]).await?;
        assert_eq!(theirs["uploads"][0]["duplicate"], false, "{theirs}");
        assert_ne!(theirs["uploads"][0]["id"], id.as_str());
    }
    // A deleted material is not offered: the file makes a new one.
    data(s.call(Method::POST, "/material/delete", &me).json(&serde_json::json!({"materialId": id}))).await?;
    let after = upload_to(&s, "/upload/material", &me, &[("a.png", &pic)]).await?;
    assert_eq!(after["uploads"][0]["duplicate"], false, "{after}");
    assert_ne!(after["uploads"][0]["id"], id.as_str());
    Ok(())
}

/// Hostile file names (catalogue S4): climbing paths in both separators and percent-encoded,
/// absolute paths, a NUL, quotes and a line break, and a long Chinese name. Each upload is answered
/// in the envelope; what is stored lies under the server-made key of the user's own material, no
/// file appears anywhere else in the store, and the original is served with an RFC 6266
/// `Content-Disposition` whose plain `filename` is a safe ASCII name and whose `filename*` is
/// percent-encoded.
#[tokio::test]
async fn hostile_file_names_never_reach_a_key_or_a_header() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "hostile", 8).await?;
    let long = format!("{}.png", "长".repeat(300));
    let names = [
        "../../etc/passwd.png",
        "..\\..\\windows\\win.png",
        "%2e%2e%2f%2e%2e%2fetc%2fpasswd.png",
        "..%252f..%252fetc.png",
        "/etc/passwd.png",
        "C:\\Windows\\System32\\x.png",
        "a\0b.png",
        "quote\".png",
        "line\r\nX-Injected: 1.png",
        long.as_str(),
    ];
    let prefix = reelforge_kit::blob::user_material_prefix(&me.tenant, &me.user_id);
    for (n, name) in names.iter().enumerate() {
        let answer = upload_to(&s, "/upload/material", &me, &[(name, &png_of(100 + u8::try_from(n)?)?)]).await?;
        let Some(id) = answer["uploads"][0]["id"].as_str() else {
            assert_eq!(answer["code"], 3000, "{name:?}: stored or refused in the envelope: {answer}");
            continue;
        };
        let m = settled(&s, &me, id).await?;
        let keys = stored(&s, &me).await?.0;
        let original = format!("{prefix}{id}/original.png");
        assert!(keys.contains(&original), "{name:?}: the server-made key {original} in {keys:?}");
        let url = format!("{}{}", s.base.trim_end_matches("/diyvrbt"), m["url"].as_str().ok_or("url")?);
        let r = reqwest::Client::new().get(url).header("X-Variant", "qs").send().await?;
        assert_eq!(r.status(), 200, "{name:?}");
        let disposition = r.headers().get("content-disposition").ok_or("no Content-Disposition")?.to_str()?.to_owned();
        let plain = disposition
            .strip_prefix("inline; filename=\"")
            .and_then(|d| d.split_once("\"; filename*=UTF-8''"))
            .ok_or_else(|| format!("{name:?}: {disposition}"))?;
        assert!(
            plain.0.ends_with(".png") && plain.0.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')),
            "{name:?}: the plain name {:?}",
            plain.0
        );
        assert!(plain.1.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.~%".contains(&b)), "{name:?}: {disposition}");
        assert!(r.headers().get("x-injected").is_none(), "{name:?}");
    }
    let (keys, files) = stored(&s, &me).await?;
    assert!(keys.iter().all(|k| k.starts_with(&prefix)), "{keys:?}");
    let outside = |f: &&String| !f.contains("/blobs/t/") || f.contains("passwd") || f.to_lowercase().contains("windows");
    assert!(files.iter().find(outside).is_none(), "nothing stored outside the tenants' keys: {files:?}");
    Ok(())
}
