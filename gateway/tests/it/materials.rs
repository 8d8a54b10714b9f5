//! The material library end to end through the gateway: streamed uploads into the blob store,
//! GStreamer probing in the background, the library calls, the signed file URLs, and deletes that
//! leave no objects. The main flow runs on PostgreSQL and the S3-compatible server.

use crate::common;

use std::time::{Duration, Instant};

use common::{Fallible, MP4, PNG, System, User, data, envelope, settled, upload, upload_to};
use reelforge_material::starter::catalogue;
use reqwest::Method;

/// A mono 16-bit WAV of `seconds` at 8 kHz: a 440 Hz tone at `amplitude` (0 is silence).
pub(crate) fn wav(seconds: u32, amplitude: f64) -> Vec<u8> {
    let rate = 8000u32;
    let n = rate * seconds;
    let mut out = Vec::new();
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + n * 2).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(n * 2).to_le_bytes());
    for i in 0..n {
        let v = (amplitude * 32767.0 * (2.0 * std::f64::consts::PI * 440.0 * f64::from(i) / f64::from(rate)).sin()) as i16;
        out.extend_from_slice(&v.to_le_bytes());
    }
    out
}

/// A mono 16-bit WAV at 8 kHz of noise (no two of its S3 parts alike), `data_bytes` of samples.
fn noise_wav(data_bytes: u32) -> Vec<u8> {
    let mut out = wav(0, 0.0);
    out[4..8].copy_from_slice(&(36 + data_bytes).to_le_bytes());
    out[40..44].copy_from_slice(&data_bytes.to_le_bytes());
    let mut x = 0x2545_f491_u32;
    out.extend((0..data_bytes).map(|_| {
        // xorshift: cheap noise, the same every run.
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x as u8
    }));
    out
}

async fn objects(s: &System, user: &User) -> Fallible<Vec<String>> {
    let prefix = reelforge_kit::blob::user_material_prefix(&user.tenant, &user.user_id);
    let mut keys = s.blobs.list(&prefix).await?;
    keys.sort();
    Ok(keys)
}

async fn get_bytes(s: &System, url: &str, range: Option<&str>) -> Fallible<(u16, String, Vec<u8>)> {
    let origin = s.base.trim_end_matches("/diyvrbt");
    let mut r = reqwest::Client::new().get(format!("{origin}{url}"));
    if let Some(range) = range {
        r = r.header("Range", range);
    }
    let res = r.send().await?;
    let status = res.status().as_u16();
    let ct = res.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    // A user's file is never sniffed into something the browser runs (catalogue S11).
    if res.status().is_success() {
        let nosniff = res.headers().get("x-content-type-options").and_then(|v| v.to_str().ok());
        assert_eq!(nosniff, Some("nosniff"), "{url} is served with nosniff");
    }
    Ok((status, ct, res.bytes().await?.to_vec()))
}

fn s3_storage() -> String {
    format!("{}&root=/{}", reelforge_kit::testing::s3_url(), reelforge_kit::testing::unique("materials"))
}

#[tokio::test]
async fn upload_probe_serve_and_delete_on_postgres_and_s3() -> Fallible<()> {
    let db = reelforge_kit::testing::fresh_postgres().await?;
    let s = common::start_on(&db, Some(s3_storage()), |c| c.upload.picture_mb = 1).await?;
    let me = s.user("qs", "uploader", 8).await?;

    // A picture: probed, with a cover, served by its signed URLs (with ranges) to a browser that
    // sends no headers.
    let pic = upload(&s, &me, "红色 logo.PNG", PNG).await?;
    let m = settled(&s, &me, &pic).await?;
    assert_eq!((m["state"].as_str(), m["type"].as_str(), m["size"].as_str()), (Some("ready"), Some("picture"), Some("64x48")), "{m}");
    assert_eq!((m["materialName"].as_str(), m["fileSize"].as_u64(), m["horizontalOrVertical"].as_i64()), (Some("红色 logo.PNG"), Some(PNG.len() as u64), Some(0)));
    let (status, ct, cover) = get_bytes(&s, m["coverUrl"].as_str().ok_or("coverUrl")?, None).await?;
    assert_eq!((status, ct.as_str()), (200, "image/jpeg"));
    assert!(cover.starts_with(&[0xFF, 0xD8, 0xFF]), "the cover is a JPEG");
    let (status, _, head) = get_bytes(&s, m["url"].as_str().ok_or("url")?, Some("bytes=0-7")).await?;
    assert_eq!((status, head.as_slice()), (206, &PNG[..8]));
    let forged = m["url"].as_str().ok_or("url")?.replace(&pic, "0b8f2a4e-1f5e-4d3a-9c7b-2a1e3f4d5c6b");
    let (status, _, body) = get_bytes(&s, &forged, None).await?;
    assert!(status == 200 && String::from_utf8_lossy(&body).contains("4000"), "a ticket opens only its own material");

    // A 2 s video with sound: duration, size, rate, audio, codec, cover and a filmstrip of frames.
    let clip = upload(&s, &me, "clip.mp4", MP4).await?;
    let v = settled(&s, &me, &clip).await?;
    assert_eq!((v["state"].as_str(), v["size"].as_str(), v["hasAudio"].as_bool()), (Some("ready"), Some("320x240"), Some(true)), "{v}");
    let duration = v["duration"].as_f64().ok_or("duration")?;
    assert!((1.9..=2.2).contains(&duration), "duration {duration}");
    assert_eq!(v["frameRate"].as_f64(), Some(25.0));
    assert!(v["codec"].as_str().is_some_and(|c| c.contains("264")), "{v}");
    let (_, _, strip) = get_bytes(&s, v["filmstripUrl"].as_str().ok_or("filmstripUrl")?, None).await?;
    assert!(strip.starts_with(&[0xFF, 0xD8, 0xFF]), "the filmstrip is a JPEG");
    assert!(v["coverUrl"].as_str().is_some_and(|u| !u.is_empty()));

    // Audio: a waveform of peaks and a loudness; silence has no loudness to answer.
    let tone = upload(&s, &me, "tone.wav", &wav(2, 0.5)).await?;
    let a = settled(&s, &me, &tone).await?;
    assert_eq!((a["state"].as_str(), a["type"].as_str()), (Some("ready"), Some("audio")), "{a}");
    let (_, ct, peaks) = get_bytes(&s, a["waveformUrl"].as_str().ok_or("waveformUrl")?, None).await?;
    assert_eq!(ct, "application/json");
    let peaks: Vec<f64> = serde_json::from_slice(&peaks)?;
    assert!(!peaks.is_empty() && peaks.len() <= 1000, "{} peaks", peaks.len());
    assert!(peaks.iter().all(|p| (0.45..=0.55).contains(p)), "a steady tone at half scale");
    let db = data(s.call(Method::POST, "/material/getVolumeDB", &me).json(&serde_json::json!({"materialId": tone}))).await?;
    let db = db.as_f64().ok_or("dB")?;
    assert!((-12.0..=-8.0).contains(&db), "a sine at half scale is about -9 dB RMS: {db}");
    let silent = upload(&s, &me, "silence.wav", &wav(1, 0.0)).await?;
    settled(&s, &me, &silent).await?;
    let quiet = envelope(s.call(Method::POST, "/material/getVolumeDB", &me).json(&serde_json::json!({"materialId": silent}))).await?;
    assert_eq!(quiet["code"], 3000, "{quiet}");
    assert!(quiet["desc"].as_str().is_some_and(|d| d.contains("-96")), "{quiet}");

    let st = data(s.call(Method::POST, "/material/getVideoState", &me).json(&serde_json::json!({"id": clip}))).await?;
    assert_eq!(st["state"], "ready");

    // Refusals store nothing: a truncated video (no moov: it cannot be read), a renamed .exe, an
    // over-size picture (by its length up front, and while streaming when several files share
    // the request).
    let before = objects(&s, &me).await?;
    let broken = upload_to(&s, "/upload/material", &me, &[("broken.mp4", &MP4[..MP4.len() / 2])]).await?;
    assert_eq!((broken["code"].as_i64(), broken["data"]["reason"].as_str()), (Some(3000), Some("unreadable_file")), "{broken}");
    let exe = upload_to(&s, "/upload/material", &me, &[("setup.png", b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00")]).await?;
    assert_eq!((exe["code"].as_i64(), exe["data"]["reason"].as_str()), (Some(3000), Some("unsupported_file_type")), "{exe}");
    assert!(exe["desc"].as_str().is_some_and(|d| d.starts_with("unsupported file type; accepted: jpg, jpeg, png")), "{exe}");
    let mut big = PNG.to_vec();
    big.resize(2 * 1024 * 1024, 0);
    let over = upload_to(&s, "/upload/material", &me, &[("big.png", &big)]).await?;
    assert_eq!(over["desc"], "file too large: picture limit is 1 MB", "{over}");
    let over = upload_to(&s, "/upload/multimaterial", &me, &[("ok.png", PNG), ("big.png", &big)]).await?;
    assert_eq!(over["desc"], "file too large: picture limit is 1 MB", "{over}");
    assert_eq!(objects(&s, &me).await?, before, "no object left by a refused upload");
    let listed = data(s.call(Method::POST, "/material/ofuser", &me).json(&serde_json::json!({}))).await?;
    assert_eq!(listed["total"], 4, "no row either: {listed}");
    assert_eq!((listed["pageNum"].as_i64(), listed["pageSize"].as_i64()), (Some(1), Some(1200)));

    // Delete: soft keeps nothing visible and removes every object of the material.
    data(s.call(Method::POST, "/material/delete", &me).json(&serde_json::json!({"materialId": pic}))).await?;
    let gone = envelope(s.call(Method::POST, &format!("/material/info/{pic}"), &me)).await?;
    assert_eq!(gone["code"], 3000);
    assert!(objects(&s, &me).await?.iter().all(|k| !k.contains(&pic)), "the picture's objects are gone");
    // Delete by choice: everything but the video.
    let r = data(
        s.call(Method::POST, "/material/batchDeleteByChoice", &me)
            .json(&serde_json::json!({"isAll": true, "isSoftDelete": false, "undeleteUuid": clip})),
    )
    .await?;
    assert_eq!(r["deleted"].as_array().map(Vec::len), Some(2), "{r}");
    let left = data(s.call(Method::POST, "/material/ofuser", &me).json(&serde_json::json!({}))).await?;
    assert_eq!(left["dataList"].as_array().map(|l| l.iter().map(|m| m["id"].clone()).collect::<Vec<_>>()), Some(vec![serde_json::json!(clip)]));
    assert!(objects(&s, &me).await?.iter().all(|k| k.contains(&clip)), "only the video's objects remain");
    Ok(())
}

#[tokio::test]
async fn twenty_uploads_at_once_make_twenty_rows_and_objects() -> Fallible<()> {
    let db = reelforge_kit::testing::fresh_postgres().await?;
    let s = common::start_on(&db, Some(s3_storage()), |_| {}).await?;
    let me = s.user("cc", "busy", 8).await?;
    // Twenty different pictures: the same file twice would be one material.
    let pictures: Vec<Vec<u8>> = (0..20u8)
        .map(|i| {
            let mut png = Vec::new();
            image::RgbaImage::from_pixel(8, 8, image::Rgba([i, 255 - i, 7, 255]))
                .write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)
                .map(|_| png)
        })
        .collect::<Result<_, _>>()?;
    let uploads = pictures.iter().enumerate().map(|(i, png)| {
        let (s, me) = (&s, &me);
        async move { upload(s, me, &format!("p{i}.png"), png).await }
    });
    let ids: Vec<String> = futures::future::try_join_all(uploads).await.map_err(|e| e.to_string())?;
    for id in &ids {
        assert_eq!(settled(&s, &me, id).await?["state"], "ready");
    }
    let listed = data(s.call(Method::POST, "/material/ofuser", &me).json(&serde_json::json!({"type": "picture"}))).await?;
    assert_eq!(listed["total"], 20);
    let keys = objects(&s, &me).await?;
    let originals = keys.iter().filter(|k| k.ends_with("/original.png")).count();
    let covers = keys.iter().filter(|k| k.ends_with("/cover.jpg")).count();
    assert_eq!((originals, covers, keys.len()), (20, 20, 40), "{keys:?}");
    assert!(ids.iter().all(|id| keys.iter().filter(|k| k.contains(id.as_str())).count() == 2));
    Ok(())
}

#[tokio::test]
async fn list_filters_paging_rename_move_and_audit() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "lister", 8).await?;
    let manager = s.user("qs", "auditor", 3).await?;
    let owner = reelforge_material::Owner { tenant: "qs".into(), user_id: me.user_id.clone() };
    let add = |name: &str, kind, category, size: &str, system| reelforge_material::NewMaterial {
        name: name.into(),
        kind,
        category_id: category,
        open_state: 0,
        picture_path: String::new(),
        time_length: 0.0,
        size: size.into(),
        material_state: 1,
        system,
    };
    use reelforge_material::MaterialKind::{Backgrounds, Picture, Video};
    let wide = s.materials.insert(&owner, add("wide.png", Picture, 1200, "1920x1080", false)).await?;
    let tall = s.materials.insert(&owner, add("tall.png", Picture, 1201, "1080x1920", false)).await?;
    let film = s.materials.insert(&owner, add("film.mp4", Video, 1200, "640x360", false)).await?;
    // Offered (open state 1): the libraries do not list a retired system material.
    let mask = s.materials.insert(&owner, reelforge_material::NewMaterial { open_state: 1, ..add("mask.png", Backgrounds, 2003, "100x100", true) }).await?;
    // Sorted: rows made in the same millisecond have no defined newest.
    let ids = |v: &serde_json::Value| -> Vec<String> {
        let mut ids: Vec<String> =
            v["dataList"].as_array().map(|l| l.iter().filter_map(|m| m["id"].as_str().map(str::to_owned)).collect()).unwrap_or_default();
        ids.sort();
        ids
    };
    let sorted = |mut v: Vec<String>| {
        v.sort();
        v
    };
    let list = |body: serde_json::Value| data(s.call(Method::POST, "/material/ofuser", &me).json(&body));
    assert_eq!(ids(&list(serde_json::json!({})).await?), sorted(vec![film.id.clone(), tall.id.clone(), wide.id.clone()]), "own only");
    assert_eq!(ids(&list(serde_json::json!({"type": "video"})).await?), [film.id.as_str()]);
    assert_eq!(ids(&list(serde_json::json!({"categoryId": "1201"})).await?), [tall.id.as_str()]);
    assert_eq!(ids(&list(serde_json::json!({"categoryId": -1, "type": "picture"})).await?).len(), 2);
    assert_eq!(ids(&list(serde_json::json!({"horizontalOrVertical": 1})).await?), [tall.id.as_str()]);
    assert_eq!(ids(&list(serde_json::json!({"horizontalOrVertical": 0})).await?), sorted(vec![film.id.clone(), wide.id.clone()]));
    let first = list(serde_json::json!({"pageNum": 1, "pageSize": 2})).await?;
    let second = list(serde_json::json!({"pageNum": 2, "pageSize": 2})).await?;
    assert_eq!((ids(&first).len(), ids(&second).len(), second["total"].as_i64()), (2, 1, Some(3)));
    assert_eq!(sorted([ids(&first), ids(&second)].concat()), sorted(vec![film.id.clone(), tall.id.clone(), wide.id.clone()]), "pages do not overlap");
    assert_eq!(ids(&list(serde_json::json!({"orderType": "hottest"})).await?).len(), 3);
    let bad = envelope(s.call(Method::POST, "/material/ofuser", &me).json(&serde_json::json!({"orderType": "loudest"}))).await?;
    assert!(bad["desc"].as_str().is_some_and(|d| d.contains("orderType")), "{bad}");
    let system = data(s.call(Method::POST, "/material/ofdefault", &me).json(&serde_json::json!({"categoryId": 2003}))).await?;
    let starter_masks = catalogue::entries().iter().filter(|e| e.category_id == catalogue::MASKS).count();
    assert_eq!(system["total"].as_u64(), Some(starter_masks as u64 + 1), "the starter masks and this one: {system}");
    assert!(ids(&system).contains(&mask.id));

    // Rename, move, open state by the owner; the audit only by a manager.
    let r = data(s.call(Method::POST, "/material/updatename", &me).json(&serde_json::json!({"materialId": wide.id, "materialName": "宽图"}))).await?;
    assert_eq!(r["materialName"], "宽图");
    data(s.call(Method::POST, "/material/updateMaterialCategory", &me).json(&serde_json::json!({"materialIds": format!("{},{}", wide.id, tall.id), "categoryIds": "1300"})))
        .await?;
    assert_eq!(ids(&list(serde_json::json!({"categoryId": 1300})).await?).len(), 2);
    data(s.call(Method::POST, "/material/batchUpdateOpenState", &me).json(&serde_json::json!({"materialIds": film.id, "openState": 2}))).await?;
    assert_eq!(ids(&list(serde_json::json!({"openState": 2})).await?), [film.id.as_str()]);
    let approve_self = envelope(s.call(Method::POST, "/material/batchUpdateOpenState", &me).json(&serde_json::json!({"materialIds": film.id, "openState": 1}))).await?;
    assert_ne!(approve_self["code"], 2000, "an owner does not approve their own: {approve_self}");
    let refused = envelope(s.call(Method::POST, "/material/updatematerial", &me).json(&serde_json::json!({"materialId": film.id, "openState": 3}))).await?;
    assert_eq!(refused["code"], 4001, "{refused}");
    data(s.call(Method::POST, "/material/updatematerial", &manager).json(&serde_json::json!({"materialId": film.id, "openState": 3, "reasonsForFailureOfAudit": "模糊"}))).await?;
    let f = data(s.call(Method::POST, &format!("/material/info/{}", film.id), &me)).await?;
    assert_eq!((f["openState"].as_i64(), f["reasonsForFailureOfAudit"].as_str()), (Some(3), Some("模糊")));
    let both = data(s.call(Method::POST, "/material/byIds", &me).json(&serde_json::json!({"ids": format!("{},{}", tall.id, film.id)}))).await?;
    assert_eq!(both.as_array().map(Vec::len), Some(2));
    // A form repeats a list's field (how the spec's client encodes an array): every id counts.
    let repeated = data(s.call(Method::POST, "/material/byIds", &me).form(&[("ids", tall.id.as_str()), ("ids", film.id.as_str())])).await?;
    let ids: Vec<&str> = repeated.as_array().into_iter().flatten().filter_map(|m| m["id"].as_str()).collect();
    assert_eq!(ids, [tall.id.as_str(), film.id.as_str()]);
    Ok(())
}

#[tokio::test]
async fn a_video_browsers_cannot_play_gets_an_h264_preview() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "avi", 8).await?;
    let avi = s.dir.path().join("clip.avi");
    let made = std::process::Command::new("ffmpeg")
        .args(["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25", "-f", "lavfi", "-i", "sine=frequency=440"])
        .args(["-t", "1", "-c:v", "mpeg4", "-c:a", "libmp3lame", "-y"])
        .arg(&avi)
        .status()?;
    assert!(made.success(), "ffmpeg made the AVI fixture");
    let id = upload(&s, &me, "clip.avi", &std::fs::read(&avi)?).await?;
    let m = settled(&s, &me, &id).await?;
    assert_eq!((m["state"].as_str(), m["size"].as_str()), (Some("ready"), Some("320x240")), "{m}");
    // The preview is made after the material is ready.
    let deadline = Instant::now() + Duration::from_secs(60);
    let preview = loop {
        let m = data(s.call(Method::POST, &format!("/material/info/{id}"), &me)).await?;
        if let Some(url) = m["previewUrl"].as_str().filter(|u| !u.is_empty()) {
            break url.to_owned();
        }
        if Instant::now() > deadline {
            return Err(format!("no preview: {m}").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    let (status, ct, head) = get_bytes(&s, &preview, Some("bytes=0-11")).await?;
    assert_eq!((status, ct.as_str(), &head[4..8]), (206, "video/mp4", b"ftyp".as_slice()));
    Ok(())
}

/// A new tenant's first look at its system library finds the starter library: every category the
/// editor's panel asks for is filled with ready materials whose files, covers and waveforms are
/// served, and a seeded track answers getVolumeDB.
#[tokio::test]
async fn the_starter_library_fills_every_category() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "newcomer", 8).await?;
    let list = |body: serde_json::Value| data(s.call(Method::POST, "/material/ofdefault", &me).json(&body));
    for (category, kind) in [
        (catalogue::MASKS, "picture"),
        (catalogue::BACKGROUNDS_STATIC, "backgrounds"),
        (catalogue::BACKGROUNDS_DYNAMIC, "backgrounds"),
        (catalogue::BUTTONS, "picture"),
        (catalogue::ATMOSPHERE, "specialEffects"),
        (catalogue::BORDERS, "specialEffects"),
        (catalogue::MUSIC, "audio"),
    ] {
        let page = list(serde_json::json!({"categoryId": category})).await?;
        let items = page["dataList"].as_array().ok_or("dataList")?;
        assert!(!items.is_empty(), "category {category} is filled");
        for m in items {
            assert_eq!((m["type"].as_str(), m["state"].as_str()), (Some(kind), Some("ready")), "{m}");
        }
        let first = &items[0];
        let (status, _, bytes) = get_bytes(&s, first["url"].as_str().ok_or("url")?, None).await?;
        assert_eq!((status, bytes.len() as u64), (200, first["fileSize"].as_u64().unwrap_or(0)), "{first}");
        let extra = if kind == "audio" { "waveformUrl" } else { "coverUrl" };
        let (status, _, _) = get_bytes(&s, first[extra].as_str().ok_or("derived file")?, None).await?;
        assert_eq!(status, 200, "{extra} of {first}");
    }
    let backgrounds = list(serde_json::json!({"type": "backgrounds", "horizontalOrVertical": 1})).await?;
    assert!(backgrounds["total"].as_u64().is_some_and(|n| n >= 8), "vertical backgrounds: {backgrounds}");
    let music = list(serde_json::json!({"categoryId": catalogue::MUSIC})).await?;
    let track = music["dataList"][0]["id"].as_str().ok_or("a track")?.to_owned();
    let db = data(s.call(Method::POST, "/material/getVolumeDB", &me).json(&serde_json::json!({"materialId": track}))).await?;
    assert!(db.as_f64().is_some_and(|d| (-30.0..0.0).contains(&d)), "{db}");
    let again = list(serde_json::json!({})).await?;
    assert_eq!(again["total"].as_u64(), Some(catalogue::entries().len() as u64), "listing again seeds nothing more");
    Ok(())
}

/// A PNG of `side`² pixels of noise seeded by `seed`: as large as its pixels, and a different file
/// for each seed.
fn noise(seed: u32, side: u32) -> Fallible<Vec<u8>> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    let img = image::RgbaImage::from_fn(side, side, |_, _| {
        x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        let [a, b, c, _] = x.to_le_bytes();
        image::Rgba([a, b, c, 255])
    });
    let mut png = Vec::new();
    img.write_to(&mut std::io::Cursor::new(&mut png), image::ImageFormat::Png)?;
    Ok(png)
}

/// Uploads `files` to `route`; answers the HTTP status and the envelope.
async fn upload_status(s: &System, route: &str, user: &User, files: &[(&str, &[u8])]) -> Fallible<(u16, serde_json::Value)> {
    let mut parts: Vec<(&str, Option<&str>, &[u8])> = common::FORM.iter().map(|(k, v)| (*k, None, v.as_bytes())).collect();
    parts.extend(files.iter().map(|(name, bytes)| ("uploadFile", Some(*name), *bytes)));
    let (content_type, body) = common::multipart(&parts);
    let r = s.call(Method::POST, route, user).header("Content-Type", content_type).body(body).send().await?;
    Ok((r.status().as_u16(), r.json().await?))
}

/// Waits until `user`'s objects are `want` (a refused upload's probe may still be cleaning up).
async fn objects_become(s: &System, user: &User, want: &[String]) -> Fallible<()> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let now = objects(s, user).await?;
        if now == want {
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err(format!("objects left: {now:?}, want {want:?}").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test]
async fn uploads_beyond_the_quota_are_refused_and_store_nothing() -> Fallible<()> {
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        c.quota.user_mb = 1;
        c.quota.user_materials = 3;
    })
    .await?;
    let (me, other) = (s.user("qs", "thrifty", 8).await?, s.user("qs", "neighbour", 8).await?);
    let quota = |u: &User| s.call(Method::GET, "/material/quota", u);
    let empty = serde_json::json!({
        "usedBytes": 0, "limitBytes": 1_048_576, "materials": 0, "limitMaterials": 3,
        "tenantUsedBytes": 0, "tenantLimitBytes": 0, "tenantMaterials": 0, "tenantLimitMaterials": 0,
    });
    assert_eq!(data(quota(&me)).await?, empty);

    // Bytes: 700 kB fit into 1 MiB; another 700 kB are refused by their length, before a byte is read.
    let (big, bigger) = (noise(1, 420)?, noise(2, 420)?);
    assert!(big.len() > 600_000 && bigger.len() > 600_000, "noise does not compress: {}", big.len());
    let first = upload(&s, &me, "big.png", &big).await?;
    settled(&s, &me, &first).await?;
    let used = data(quota(&me)).await?;
    assert_eq!((used["usedBytes"].as_u64(), used["materials"].as_u64()), (Some(big.len() as u64), Some(1)), "{used}");
    let before = objects(&s, &me).await?;
    let (status, refused) = upload_status(&s, "/upload/material", &me, &[("bigger.png", &bigger)]).await?;
    assert_eq!((status, refused["code"].as_i64(), refused["data"]["reason"].as_str()), (413, Some(3000), Some("quota_exceeded")), "{refused}");
    assert_eq!((refused["data"]["usedBytes"].as_u64(), refused["data"]["limitBytes"].as_u64()), (Some(big.len() as u64), Some(1_048_576)));
    assert_eq!(objects(&s, &me).await?, before, "nothing stored");
    assert_eq!(data(quota(&me)).await?, used, "usage unchanged");

    // Materials: two small pictures in one request where one fits; the edge lets it through (room
    // for one more), the material service refuses the second and the request is undone whole.
    let small = upload(&s, &me, "small.png", PNG).await?;
    settled(&s, &me, &small).await?;
    let two = data(quota(&me)).await?;
    let before = objects(&s, &me).await?;
    let (a, b) = (noise(3, 8)?, noise(4, 8)?);
    let (status, refused) = upload_status(&s, "/upload/multimaterial", &me, &[("a.png", &a), ("b.png", &b)]).await?;
    assert_eq!((status, refused["code"].as_i64(), refused["data"]["reason"].as_str()), (200, Some(3000), Some("quota_exceeded")), "{refused}");
    assert_eq!((refused["data"]["materials"].as_u64(), refused["data"]["limitMaterials"].as_u64()), (Some(3), Some(3)), "{refused}");
    objects_become(&s, &me, &before).await?;
    assert_eq!(data(quota(&me)).await?, two, "the recorded first file was undone");
    let one = upload(&s, &me, "a.png", &a).await?;
    let (status, refused) = upload_status(&s, "/upload/material", &me, &[("b.png", &b)]).await?;
    assert_eq!((status, refused["data"]["reason"].as_str()), (413, Some("quota_exceeded")), "the count is full: {refused}");

    // The quota is the caller's own: the neighbour uploads freely and sees their own usage, the
    // tenant's beside it.
    upload(&s, &other, "big.png", &bigger).await?;
    let theirs = data(quota(&other)).await?;
    assert_eq!((theirs["usedBytes"].as_u64(), theirs["materials"].as_u64()), (Some(bigger.len() as u64), Some(1)), "{theirs}");
    let tenant = big.len() + PNG.len() + a.len() + bigger.len();
    assert_eq!((theirs["tenantUsedBytes"].as_u64(), theirs["tenantMaterials"].as_u64()), (Some(tenant as u64), Some(4)), "{theirs}");

    // Deleting releases: the big picture goes, the bigger one fits.
    data(s.call(Method::POST, "/material/delete", &me).json(&serde_json::json!({"materialId": first}))).await?;
    data(s.call(Method::POST, "/material/delete", &me).json(&serde_json::json!({"materialId": one}))).await?;
    let freed = data(quota(&me)).await?;
    assert_eq!((freed["usedBytes"].as_u64(), freed["materials"].as_u64()), (Some(PNG.len() as u64), Some(1)), "{freed}");
    upload(&s, &me, "bigger.png", &bigger).await?;
    Ok(())
}

/// An upload larger than two S3 write chunks goes to SeaweedFS as a multipart upload (opendal cuts
/// the parts as the gateway streams the body) and is stored whole: the object's size and SHA-256
/// are the upload's (catalogue U2).
#[tokio::test]
async fn an_upload_of_several_parts_is_stored_whole_on_s3() -> Fallible<()> {
    use sha2::{Digest, Sha256};
    let db = reelforge_kit::testing::fresh_postgres().await?;
    let s = common::start_on(&db, Some(s3_storage()), |_| {}).await?;
    let me = s.user("qs", "parts", 8).await?;
    let chunk = u32::try_from(reelforge_kit::blob::WRITE_CHUNK)?;
    let sent = noise_wav(2 * chunk + chunk / 2);
    let id = upload(&s, &me, "long.wav", &sent).await?;
    let m = settled(&s, &me, &id).await?;
    assert_eq!((m["state"].as_str(), m["fileSize"].as_u64()), (Some("ready"), Some(sent.len() as u64)), "{m}");
    let key = objects(&s, &me).await?.into_iter().find(|k| k.contains(&id) && k.contains("/original")).ok_or("no original stored")?;
    let stored = s.blobs.get(&key).await?;
    assert_eq!(stored.len(), sent.len());
    assert_eq!(Sha256::digest(&stored), Sha256::digest(&sent), "the stored object is the upload, part for part");
    Ok(())
}
