//! The manage area's calls (issue 29): the index's counts, the review queue of users' submitted
//! stickers (reject with a reason the owner reads, approve into everyone's library, all or none),
//! and the tenant's music library kept by template managers; anyone else gets 4001 and changes
//! nothing, another tenant's manager sees and changes nothing of this one.

use crate::common;

use common::{Fallible, PNG, System, User, data, envelope, settled, upload};
use reqwest::Method;
use serde_json::{Value, json};

fn desc(v: &Value) -> &str {
    v["desc"].as_str().unwrap_or_default()
}

fn ids(page: &Value) -> Vec<String> {
    page["dataList"].as_array().map(|l| l.iter().filter_map(|m| m["id"].as_str().map(str::to_owned)).collect()).unwrap_or_default()
}

async fn pending(s: &System, manager: &User, queue: &str) -> Fallible<u64> {
    let o = data(s.call(Method::GET, "/manage/overview", manager)).await?;
    let q = o["queues"].as_array().and_then(|l| l.iter().find(|q| q["queue"] == queue)).ok_or("queue counted")?;
    q["pending"].as_u64().ok_or_else(|| format!("a count: {o}").into())
}

async fn queue(s: &System, manager: &User, state: &str) -> Fallible<Vec<String>> {
    Ok(ids(&data(s.call(Method::POST, "/manage/review/list", manager).json(&json!({"queue": "chartlet", "state": state}))).await?))
}

async fn library(s: &System, user: &User, body: Value) -> Fallible<Vec<String>> {
    Ok(ids(&data(s.call(Method::POST, "/material/ofdefault", user).json(&body)).await?))
}

async fn managers_review_submitted_stickers(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let owner = s.user("cc", "owner", 8).await?;
    let neighbour = s.user("cc", "neighbour", 8).await?;
    let manager = s.user("cc", "manager", 3).await?;
    let stranger = s.user("qs", "stranger", 3).await?;
    // The same file twice from one user is one material: each sticker comes from its own owner.
    let author = s.user("cc", "author", 8).await?;
    let keeper = s.user("cc", "keeper", 8).await?;
    let first = upload(&s, &owner, "贴纸一.png", PNG).await?;
    let second = upload(&s, &author, "贴纸二.png", PNG).await?;
    let kept = upload(&s, &keeper, "私有.png", PNG).await?;
    assert_eq!(pending(&s, &manager, "chartlet").await?, 0);
    data(s.call(Method::POST, "/material/batchUpdateOpenState", &owner).json(&json!({"materialIds": [first], "openState": 2}))).await?;
    data(s.call(Method::POST, "/material/batchUpdateOpenState", &author).json(&json!({"materialIds": second, "openState": 2}))).await?;
    assert_eq!(pending(&s, &manager, "chartlet").await?, 2, "both submitted");
    let listed = queue(&s, &manager, "pending").await?;
    assert!(listed.contains(&first) && listed.contains(&second) && !listed.contains(&kept), "{listed:?}");
    assert!(queue(&s, &stranger, "pending").await?.is_empty(), "another tenant's manager sees none of them");
    assert_eq!(pending(&s, &stranger, "chartlet").await?, 0);

    // Users who are no template managers get 4001.
    for (method, path, body) in [
        (Method::GET, "/manage/overview", json!({})),
        (Method::POST, "/manage/review/list", json!({"queue": "chartlet"})),
        (Method::POST, "/manage/review/decide", json!({"materialIds": [first], "approve": true})),
    ] {
        let r = envelope(s.call(method, path, &neighbour).json(&body)).await?;
        assert_eq!(r["code"], 4001, "{path}: {r}");
    }

    // Bad input names the field; nothing is half-done.
    let r = envelope(s.call(Method::POST, "/manage/review/decide", &manager).json(&json!({"materialIds": [first], "approve": false, "reason": "  "}))).await?;
    assert!(r["code"] == 3000 && desc(&r).starts_with("reason"), "{r}");
    let r = envelope(s.call(Method::POST, "/manage/review/list", &manager).json(&json!({"queue": "music"}))).await?;
    assert!(r["code"] == 3000 && desc(&r).starts_with("queue"), "{r}");
    let r = envelope(s.call(Method::POST, "/manage/review/decide", &manager).json(&json!({"materialIds": [first, "nope"], "approve": true}))).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("does not exist"), "{r}");
    let r = envelope(s.call(Method::POST, "/manage/review/decide", &stranger).json(&json!({"materialIds": [first], "approve": true}))).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("does not exist"), "another tenant's: {r}");
    assert_eq!(pending(&s, &manager, "chartlet").await?, 2, "nothing decided");

    // A rejection: the owner reads the reason; nobody else sees the sticker.
    data(s.call(Method::POST, "/manage/review/decide", &manager).json(&json!({"materialIds": first, "approve": false, "reason": "边缘有白边"}))).await?;
    let m = data(s.call(Method::POST, &format!("/material/info/{first}"), &owner)).await?;
    assert_eq!((m["openState"].as_i64(), m["reasonsForFailureOfAudit"].as_str()), (Some(3), Some("边缘有白边")), "{m}");
    assert_eq!(queue(&s, &manager, "rejected").await?, vec![first.clone()]);
    let r = envelope(s.call(Method::POST, &format!("/material/info/{first}"), &neighbour)).await?;
    assert_eq!(r["code"], 3000, "a rejected sticker stays private: {r}");

    // An approval offers it to everyone of the tenant, in the editor's library.
    assert!(!library(&s, &neighbour, json!({"type": "picture"})).await?.contains(&second));
    data(s.call(Method::POST, "/manage/review/decide", &manager).json(&json!({"materialIds": [second], "approve": true}))).await?;
    let offered = library(&s, &neighbour, json!({"type": "picture"})).await?;
    assert!(offered.contains(&second) && !offered.contains(&first) && !offered.contains(&kept), "{offered:?}");
    let m = data(s.call(Method::POST, &format!("/material/info/{second}"), &neighbour)).await?;
    assert_eq!(m["openState"], 1, "{m}");
    let file = s.call(Method::GET, m["url"].as_str().ok_or("url")?.trim_start_matches("/diyvrbt"), &neighbour).send().await?;
    assert_eq!(file.bytes().await?.to_vec(), PNG, "its file is served to them");
    assert!(!library(&s, &stranger, json!({"type": "picture"})).await?.contains(&second), "not to another tenant");
    assert_eq!(queue(&s, &manager, "passed").await?, vec![second.clone()]);
    assert_eq!(pending(&s, &manager, "chartlet").await?, 0);
    // Owners still cannot approve their own.
    let r = envelope(s.call(Method::POST, "/material/batchUpdateOpenState", &keeper).json(&json!({"materialIds": kept, "openState": 1}))).await?;
    assert_ne!(r["code"], 2000, "{r}");
    Ok(())
}

async fn managers_keep_the_music_library(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let user = s.user("cc", "user", 8).await?;
    let manager = s.user("cc", "manager", 3).await?;
    let admin = s.user("cc", "admin", 0).await?;
    let stranger = s.user("qs", "stranger", 3).await?;
    let prefix = reelforge_kit::blob::system_material_prefix("cc");
    let stored = || async { s.blobs.list(&prefix).await.map(|keys| keys.len()) };
    let music = json!({"type": "audio", "categoryId": 6001});
    let before = library(&s, &user, music.clone()).await?;
    let objects = stored().await?;

    let tone = crate::materials::wav(2, 0.5);
    let (ct, body) = common::multipart(&[("uploadFile", Some("a.png"), PNG)]);
    let r = envelope(s.call(Method::POST, "/manage/music/upload", &manager).header("Content-Type", ct).body(body)).await?;
    assert_eq!(r["code"], 3000, "a picture is no track: {r}");
    let (ct, body) = common::multipart(&[("uploadFile", Some("tone.wav"), &tone)]);
    let r = envelope(s.call(Method::POST, "/manage/music/upload", &user).header("Content-Type", ct).body(body)).await?;
    assert_eq!(r["code"], 4001, "{r}");
    assert_eq!(stored().await?, objects, "nothing stored for them");

    let (ct, body) = common::multipart(&[("materialName", None, "开场曲".as_bytes()), ("uploadFile", Some("tone.wav"), &tone)]);
    let up = data(s.call(Method::POST, "/manage/music/upload", &manager).header("Content-Type", ct).body(body)).await?;
    let id = up["id"].as_str().ok_or("id")?.to_owned();
    let m = settled(&s, &manager, &id).await?;
    assert_eq!(m["state"], "ready", "{m}");
    assert!((m["duration"].as_f64().unwrap_or_default() - 2.0).abs() < 0.1, "{m}");
    assert!(!m["waveformUrl"].as_str().unwrap_or_default().is_empty(), "a waveform: {m}");
    let db = data(s.call(Method::POST, "/material/getVolumeDB", &manager).json(&json!({"materialId": id}))).await?;
    assert!(db.as_f64().is_some_and(|v| v < 0.0 && v > -30.0), "loudness {db}");
    let listed = data(s.call(Method::POST, "/manage/music/list", &manager).json(&json!({}))).await?;
    assert_eq!(listed["total"].as_u64(), Some(before.len() as u64 + 1), "{listed}");
    assert!(ids(&listed).contains(&id));
    assert!(library(&s, &user, music.clone()).await?.contains(&id), "offered in the editor's music tab");
    assert!(!ids(&data(s.call(Method::POST, "/manage/music/list", &stranger).json(&json!({}))).await?).contains(&id));

    // Rename and withdraw; the withdrawn track leaves the editor's list but stays in the manager's.
    data(s.call(Method::POST, "/manage/music/update", &manager).json(&json!({"materialIds": [id], "materialName": "开场曲 2", "openState": 0}))).await?;
    assert!(!library(&s, &user, music.clone()).await?.contains(&id));
    let listed = data(s.call(Method::POST, "/manage/music/list", &manager).json(&json!({}))).await?;
    let row = listed["dataList"].as_array().and_then(|l| l.iter().find(|m| m["id"] == id.as_str())).ok_or("still listed")?;
    assert_eq!((row["materialName"].as_str(), row["openState"].as_i64()), (Some("开场曲 2"), Some(0)), "{row}");
    data(s.call(Method::POST, "/manage/music/update", &manager).json(&json!({"materialIds": id, "openState": 1}))).await?;
    assert!(library(&s, &user, music.clone()).await?.contains(&id));

    // A manager keeps music only: a system mask, or moving a track out, is refused whole.
    let mask = common::upload_system(&s, &admin, "2003", "遮罩.png", PNG).await?;
    let r = envelope(s.call(Method::POST, "/manage/music/update", &manager).json(&json!({"materialIds": [id, mask], "openState": 0}))).await?;
    assert_eq!(r["code"], 4001, "{r}");
    assert!(library(&s, &user, music.clone()).await?.contains(&id), "nothing changed");
    for (who, body) in [(&user, json!({"materialIds": id, "openState": 0})), (&stranger, json!({"materialIds": id, "openState": 0}))] {
        let r = envelope(s.call(Method::POST, "/manage/music/update", who).json(&body)).await?;
        assert_ne!(r["code"], 2000, "{r}");
    }
    let r = envelope(s.call(Method::POST, "/manage/music/list", &user).json(&json!({}))).await?;
    assert_eq!(r["code"], 4001, "{r}");
    assert!(library(&s, &user, music).await?.contains(&id), "still offered");
    // The manager's overview counts the library.
    let o = data(s.call(Method::GET, "/manage/overview", &manager)).await?;
    assert_eq!(o["musicTracks"].as_u64(), Some(before.len() as u64 + 1), "{o}");
    Ok(())
}

common::on_both_backends!(managers_review_submitted_stickers, managers_keep_the_music_library);
