//! The editor's media edits through the gateway (docs/toolbox.md, "The editor's media edits"):
//! `/material/videoClip`, `cutAudio`, `cropVideo` and `v2/reverVideo` queue tool runs whose jobs
//! the test works as the farm's worker does (the real tool on a real clip), their outputs made the
//! caller's materials; `v2/reverToUuid` answers a reverse's state and, once done, its material;
//! `croppicture` cuts a picture in the request. Refusals name the route's field, nothing queued or
//! stored; another user's material is not found.

use crate::common;
use crate::toolbox::work_the_job;

use common::{Fallible, System, User, data, envelope};
use reelforge_tools::ToolType;
use reqwest::Method;

async fn post(s: &System, user: &User, path: &str, body: serde_json::Value) -> Fallible<serde_json::Value> {
    envelope(s.call(Method::POST, path, user).json(&body)).await
}

/// Asserts `answer` is a refusal naming `field` (its `desc` starting with it).
fn refused_as(answer: &serde_json::Value, field: &str) {
    assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{answer}");
    assert!(answer["desc"].as_str().is_some_and(|d| d.starts_with(field)), "{answer}");
}

#[tokio::test]
async fn bad_edits_are_refused_naming_their_field_and_nothing_is_queued_or_stored() -> Fallible<()> {
    let s = common::start().await?;
    let ann = s.user("qs", "ann", 8).await?;
    let dir = tempfile::tempdir()?;
    let clip = std::fs::read(reelforge_tools::testing::Clip { seconds: 2.0, ..Default::default() }.make(dir.path(), "clip.mp4")?)?;
    let video = common::upload(&s, &ann, "clip.mp4", &clip).await?;
    let picture = common::upload(&s, &ann, "pic.png", common::PNG).await?;
    for id in [&video, &picture] {
        common::settled(&s, &ann, id).await?;
    }
    let bob = s.user("qs", "bob", 8).await?;
    let theirs = common::upload(&s, &bob, "theirs.mp4", &clip).await?;
    common::settled(&s, &bob, &theirs).await?;
    let before = data(s.call(Method::POST, "/material/ofuser", &ann).json(&serde_json::json!({"pageNum": 1, "pageSize": 50}))).await?;
    let cases = [
        ("/material/videoClip", serde_json::json!({"startTime": 0, "endTime": 1000}), "materialId"),
        ("/material/videoClip", serde_json::json!({"materialId": video, "endTime": 1000}), "startTime"),
        ("/material/videoClip", serde_json::json!({"materialId": video, "startTime": -5, "endTime": 1000}), "startTime"),
        ("/material/videoClip", serde_json::json!({"materialId": video, "startTime": 2030, "endTime": 2040}), "startTime"),
        ("/material/videoClip", serde_json::json!({"materialId": video, "startTime": 500, "endTime": 9000}), "endTime"),
        ("/material/videoClip", serde_json::json!({"materialId": video, "startTime": 1500, "endTime": 1000}), "endTime"),
        ("/material/videoClip", serde_json::json!({"materialId": picture, "startTime": 0, "endTime": 1000}), "materialId"),
        ("/material/cutAudio", serde_json::json!({"materialId": picture, "startTime": 0, "endTime": 1000}), "materialId"),
        ("/material/cutAudio", serde_json::json!({"materialId": video, "startTime": 0, "endTime": 5000}), "endTime"),
        ("/material/cropVideo", serde_json::json!({"materialId": video, "x": 0, "y": 0, "width": 161, "height": 100}), "width"),
        ("/material/cropVideo", serde_json::json!({"materialId": video, "x": 200, "y": 0, "width": 160, "height": 100}), "width"),
        ("/material/cropVideo", serde_json::json!({"materialId": video, "x": 0, "y": 100, "width": 160, "height": 100}), "height"),
        ("/material/cropVideo", serde_json::json!({"materialId": video, "x": 0, "y": 0, "width": 160}), "height"),
        ("/material/cropVideo", serde_json::json!({"materialId": picture, "x": 0, "y": 0, "width": 16, "height": 16}), "materialId"),
        ("/material/v2/reverVideo", serde_json::json!({}), "uuid"),
        ("/material/v2/reverVideo", serde_json::json!({"uuid": video, "isFile": false}), "isFile"),
        ("/material/v2/reverVideo", serde_json::json!({"uuid": picture, "isFile": true}), "uuid"),
        ("/material/v2/reverToUuid", serde_json::json!({}), "uuid"),
        ("/material/croppicture", serde_json::json!({"materialId": video, "x": 0, "y": 0, "width": 10, "height": 10}), "materialId"),
        ("/material/croppicture", serde_json::json!({"materialId": picture, "x": 64, "y": 0, "width": 1, "height": 1}), "x"),
        ("/material/croppicture", serde_json::json!({"materialId": picture, "x": 0, "y": 40, "width": 10, "height": 9}), "height"),
        ("/material/croppicture", serde_json::json!({"materialId": picture, "x": 0, "y": 0, "width": 0, "height": 9}), "width"),
    ];
    for (path, body, field) in cases {
        let answer = post(&s, &ann, path, body).await?;
        refused_as(&answer, field);
    }
    // Another user's material is not found, whichever edit names it.
    for (path, body) in [
        ("/material/videoClip", serde_json::json!({"materialId": theirs, "startTime": 0, "endTime": 1000})),
        ("/material/cutAudio", serde_json::json!({"materialId": theirs, "startTime": 0, "endTime": 1000})),
        ("/material/cropVideo", serde_json::json!({"materialId": theirs, "x": 0, "y": 0, "width": 16, "height": 16})),
        ("/material/v2/reverVideo", serde_json::json!({"uuid": theirs, "isFile": true})),
        ("/material/v2/reverToUuid", serde_json::json!({"uuid": theirs})),
        ("/material/croppicture", serde_json::json!({"materialId": theirs, "x": 0, "y": 0, "width": 16, "height": 16})),
    ] {
        let answer = post(&s, &ann, path, body).await?;
        assert_eq!(answer["code"], 3000, "{path}: {answer}");
        assert!(!answer.to_string().contains(&bob.user_id), "{path}: {answer}");
    }
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &ann)).await?["total"], 0, "nothing was queued");
    let after = data(s.call(Method::POST, "/material/ofuser", &ann).json(&serde_json::json!({"pageNum": 1, "pageSize": 50}))).await?;
    assert_eq!(after["total"], before["total"], "nothing was stored: {after}");
    Ok(())
}

/// Queues `path` with `body` for `user`; answers the run's ids.
async fn queued(s: &System, user: &User, path: &str, body: serde_json::Value) -> Fallible<(i64, String)> {
    let run = data(s.call(Method::POST, path, user).json(&body)).await?;
    Ok((run["taskId"].as_i64().ok_or("taskId")?, run["jobId"].as_str().ok_or("jobId")?.to_owned()))
}

/// The run's output 0 made `user`'s material, once it has settled.
async fn used(s: &System, user: &User, task_id: i64) -> Fallible<serde_json::Value> {
    let used = data(s.call(Method::POST, "/toolbox/use", user).json(&serde_json::json!({"taskId": task_id, "index": 0}))).await?;
    common::settled(s, user, used["materialId"].as_str().ok_or("materialId")?).await
}

#[tokio::test]
async fn a_clip_a_cut_sound_and_a_crop_become_new_materials() -> Fallible<()> {
    let s = common::start().await?;
    let ann = s.user("qs", "ann", 8).await?;
    let dir = tempfile::tempdir()?;
    let clip = std::fs::read(reelforge_tools::testing::Clip { seconds: 2.0, ..Default::default() }.make(dir.path(), "clip.mp4")?)?;
    let video = common::upload(&s, &ann, "clip.mp4", &clip).await?;
    common::settled(&s, &ann, &video).await?;

    let (task, job) = queued(&s, &ann, "/material/videoClip", serde_json::json!({"materialId": video, "startTime": 500, "endTime": 1500})).await?;
    let run = data(s.call(Method::GET, &format!("/toolbox/run/{task}"), &ann)).await?;
    let params = run["params"].clone();
    assert_eq!((run["type"].as_str(), &params), (Some("QUICK_CUT_VIDEO"), &serde_json::json!({"mode": "keep", "ranges": [{"startMs": 500, "endMs": 1500}]})), "{run}");
    work_the_job(&s, &ann, task, &job, &clip, params, ToolType::QuickCutVideo).await?;
    let m = used(&s, &ann, task).await?;
    assert_eq!(m["type"], "video", "{m}");
    assert!(m["duration"].as_f64().is_some_and(|d| (d - 1.0).abs() <= 0.05), "one second of the clip: {m}");

    let (task, job) = queued(&s, &ann, "/material/cutAudio", serde_json::json!({"materialId": video, "startTime": "250", "endTime": 1000})).await?;
    let params = data(s.call(Method::GET, &format!("/toolbox/run/{task}"), &ann)).await?["params"].clone();
    work_the_job(&s, &ann, task, &job, &clip, params, ToolType::QuickCutAudio).await?;
    let m = used(&s, &ann, task).await?;
    assert_eq!(m["type"], "audio", "{m}");
    assert!(m["duration"].as_f64().is_some_and(|d| (d - 0.75).abs() <= 0.06), "the sound's 0.75 s: {m}");

    let (task, job) = queued(&s, &ann, "/material/cropVideo", serde_json::json!({"materialId": video, "x": 40, "y": 20, "width": 160, "height": 100})).await?;
    let run = data(s.call(Method::GET, &format!("/toolbox/run/{task}"), &ann)).await?;
    assert_eq!(run["type"], "VIDEO_CROP", "{run}");
    work_the_job(&s, &ann, task, &job, &clip, run["params"].clone(), ToolType::VideoCrop).await?;
    let m = used(&s, &ann, task).await?;
    assert_eq!((m["type"].as_str(), m["width"].as_i64(), m["height"].as_i64()), (Some("video"), Some(160), Some(100)), "{m}");
    Ok(())
}

#[tokio::test]
async fn a_reverse_is_a_run_whose_material_reverto_uuid_answers() -> Fallible<()> {
    let s = common::start().await?;
    let ann = s.user("qs", "ann", 8).await?;
    let dir = tempfile::tempdir()?;
    let clip = std::fs::read(reelforge_tools::testing::Clip { seconds: 2.0, ..Default::default() }.make(dir.path(), "clip.mp4")?)?;
    let video = common::upload(&s, &ann, "clip.mp4", &clip).await?;
    common::settled(&s, &ann, &video).await?;
    let never = data(s.call(Method::POST, "/material/v2/reverToUuid", &ann).json(&serde_json::json!({"uuid": video}))).await?;
    assert_eq!((never["state"].as_str(), never["uuid"].as_str(), never["taskId"].as_i64()), (Some("none"), Some(""), Some(0)), "{never}");

    let (task, job) = queued(&s, &ann, "/material/v2/reverVideo", serde_json::json!({"uuid": video, "isFile": true})).await?;
    let waiting = data(s.call(Method::POST, "/material/v2/reverToUuid", &ann).json(&serde_json::json!({"uuid": video}))).await?;
    assert_eq!((waiting["state"].as_str(), waiting["uuid"].as_str(), waiting["taskId"].as_i64()), (Some("queued"), Some(""), Some(task)), "{waiting}");
    work_the_job(&s, &ann, task, &job, &clip, serde_json::json!({}), ToolType::VideoReverse).await?;
    let done = data(s.call(Method::POST, "/material/v2/reverToUuid", &ann).json(&serde_json::json!({"uuid": video}))).await?;
    let reversed = done["uuid"].as_str().ok_or("uuid")?.to_owned();
    assert_eq!((done["state"].as_str(), done["percent"].as_u64(), reversed.is_empty()), (Some("done"), Some(100), false), "{done}");
    let m = common::settled(&s, &ann, &reversed).await?;
    assert_eq!((m["type"].as_str(), m["materialName"].as_str()), (Some("video"), Some("reverse.mp4")), "{m}");
    assert!(m["duration"].as_f64().is_some_and(|d| (d - 2.0).abs() <= 0.05), "as long as the clip: {m}");
    // Asked again, the same material: the library knows the file by its content.
    let again = data(s.call(Method::POST, "/material/v2/reverToUuid", &ann).json(&serde_json::json!({"uuid": video}))).await?;
    assert_eq!(again["uuid"].as_str(), Some(reversed.as_str()), "{again}");
    Ok(())
}

#[tokio::test]
async fn a_picture_crop_is_a_new_picture_of_the_box() -> Fallible<()> {
    let s = common::start().await?;
    let ann = s.user("qs", "ann", 8).await?;
    let picture = common::upload(&s, &ann, "pic.png", common::PNG).await?;
    common::settled(&s, &ann, &picture).await?;
    let cut = data(s.call(Method::POST, "/material/croppicture", &ann).json(&serde_json::json!({"materialId": picture, "x": 8, "y": 4, "width": 20, "height": 12}))).await?;
    assert_eq!((cut["width"].as_u64(), cut["height"].as_u64()), (Some(20), Some(12)), "{cut}");
    let m = common::settled(&s, &ann, cut["materialId"].as_str().ok_or("materialId")?).await?;
    assert_eq!((m["type"].as_str(), m["materialName"].as_str(), m["width"].as_i64(), m["height"].as_i64()), (Some("picture"), Some("pic-crop.png"), Some(20), Some(12)), "{m}");
    let bytes = s.call(Method::GET, &format!("/material/file/{}/original", cut["materialId"].as_str().unwrap_or_default()), &ann).send().await?.bytes().await?;
    let (source, made) = (image::load_from_memory(common::PNG)?.to_rgb8(), image::load_from_memory(&bytes)?.to_rgb8());
    assert_eq!((made.get_pixel(0, 0), made.get_pixel(19, 11)), (source.get_pixel(8, 4), source.get_pixel(27, 15)), "the box's pixels");
    Ok(())
}

/// A 48×32 JPEG stored on its side, EXIF orientation 6 (turn 90° clockwise to show it): shown, it
/// is 32×48, its bottom half blue (stored: its right half) and its right half green (stored: its
/// top half).
fn sideways_jpeg() -> Fallible<Vec<u8>> {
    use image::ImageEncoder;
    let stored = image::RgbImage::from_fn(48, 32, |x, y| image::Rgb([if x < 24 { 255 } else { 0 }, if y < 16 { 255 } else { 0 }, if x < 24 { 0 } else { 255 }]));
    // A little-endian TIFF block of one entry: Orientation (0x0112), SHORT, 1 value, 6.
    let exif = vec![0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0];
    let mut jpeg = Vec::new();
    let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 95);
    encoder.set_exif_metadata(exif)?;
    encoder.write_image(stored.as_raw(), 48, 32, image::ExtendedColorType::Rgb8)?;
    Ok(jpeg)
}

#[tokio::test]
async fn a_picture_crop_is_of_the_picture_as_shown_after_its_exif_orientation() -> Fallible<()> {
    let s = common::start().await?;
    let ann = s.user("qs", "ann", 8).await?;
    let picture = common::upload(&s, &ann, "phone.jpg", &sideways_jpeg()?).await?;
    common::settled(&s, &ann, &picture).await?;
    // The shown picture's lower right quarter: past the stored picture's height (32), inside the shown one's (48).
    let cut = data(s.call(Method::POST, "/material/croppicture", &ann).json(&serde_json::json!({"materialId": picture, "x": 16, "y": 24, "width": 16, "height": 24}))).await?;
    assert_eq!((cut["width"].as_u64(), cut["height"].as_u64()), (Some(16), Some(24)), "{cut}");
    let id = cut["materialId"].as_str().ok_or("materialId")?;
    let m = common::settled(&s, &ann, id).await?;
    assert_eq!((m["width"].as_i64(), m["height"].as_i64(), m["rotation"].as_i64()), (Some(16), Some(24), Some(0)), "upright, no orientation of its own: {m}");
    let bytes = s.call(Method::GET, &format!("/material/file/{id}/original"), &ann).send().await?.bytes().await?;
    let made = image::load_from_memory(&bytes)?.to_rgb8();
    let near = |p: &image::Rgb<u8>, want: [u8; 3]| p.0.iter().zip(want).all(|(a, b)| a.abs_diff(b) < 48);
    assert!(near(made.get_pixel(8, 12), [0, 255, 255]), "blue and green: the shown picture's lower right, {:?}", made.get_pixel(8, 12));
    // The whole shown height is a box; the stored one's is past it.
    let tall = post(&s, &ann, "/material/croppicture", serde_json::json!({"materialId": picture, "x": 0, "y": 0, "width": 32, "height": 48})).await?;
    assert_eq!(tall["code"], 2000, "{tall}");
    refused_as(&post(&s, &ann, "/material/croppicture", serde_json::json!({"materialId": picture, "x": 0, "y": 0, "width": 48, "height": 32})).await?, "width");
    Ok(())
}

#[tokio::test]
async fn the_openapi_document_lists_the_media_edits() -> Fallible<()> {
    let s = common::start().await?;
    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    for path in ["videoClip", "cutAudio", "cropVideo", "croppicture", "v2/reverVideo", "v2/reverToUuid"] {
        assert!(doc["paths"][format!("/diyvrbt/material/{path}")]["post"].is_object(), "POST /material/{path} is in the document");
    }
    Ok(())
}
