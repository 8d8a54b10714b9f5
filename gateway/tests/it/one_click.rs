//! One-click filming through the gateway (docs/toolbox.md, "One-click filming"): a template of two
//! video slots approved in a category, chosen by category and length; two clips uploaded through
//! `oneClick/upload` and assembled into a new editor task of the caller whose document names the
//! clips, in slot order, with their cuts; and the refusals (another user's clip, a picture where a
//! clip goes, too many clips, an unknown template, a template without a video slot, a category
//! without a template, no length), each naming its field and leaving no task behind.

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;
use serde_json::{Value, json};

/// The template's document: a 3 s scene whose video slot shows for its first 1.5 s, and a 2.5 s
/// scene whose video slot shows throughout, both first holding the maker's own clip; and a text.
fn two_slot_rule(maker_clip: &str) -> Value {
    let src = format!("/diyvrbt/material/file/{maker_clip}/original");
    let mut rule = common::rule();
    rule["scenes"] = json!([
        {"id": 1, "type": "canvas", "timeLength": 3, "bgColor": "#1e3a8a", "layers": [
            {"type": "video", "id": "first", "canModify": 1, "videoSrc": src, "materialId": maker_clip, "startTime": 0, "endTime": 1.5,
             "x": 0, "y": 0, "w": 320, "h": 180, "volume": 50},
            {"type": "word", "id": "title", "canModify": 1, "content": "一键成片", "startTime": 0, "endTime": 3, "w": 200, "h": 60}
        ]},
        {"id": 2, "type": "canvas", "timeLength": 2.5, "bgColor": "#0f172a", "layers": [
            {"type": "video", "id": "second", "canModify": 1, "videoSrc": src, "materialId": maker_clip, "startTime": 0, "endTime": 2.5,
             "x": 0, "y": 0, "w": 320, "h": 180, "volume": 50}
        ]}
    ]);
    rule
}

/// A category of `boss`'s tenant named `name`.
async fn category(s: &System, boss: &User, name: &str) -> Fallible<i64> {
    let made = data(s.call(Method::POST, "/category/taskvideo", boss).json(&json!({"categoryName": name, "dimension": "industry"}))).await?;
    Ok(made["categoryId"].as_i64().ok_or("category id")?)
}

/// The clip's length as the library probed it, seconds.
async fn seconds(s: &System, user: &User, id: &str) -> Fallible<f64> {
    let m = common::settled(s, user, id).await?;
    assert_eq!(m["state"], "ready", "{m}");
    Ok(m["duration"].as_f64().ok_or("duration")?)
}

/// Where a clip goes: the cut a slot of `slot` seconds takes of a clip of `clip` seconds, its out
/// point on a hundredth inside the clip.
fn cut_end(clip: f64, slot: f64) -> f64 {
    (clip.min(slot) * 100.0 + 1e-6).floor() / 100.0
}

async fn one_click_filming(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let boss = s.user("qs", "boss", 3).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let bob = s.user("qs", "bob", 8).await?;

    // The tool is offered, its page on the oneClick routes rather than a farm run.
    let types = data(s.call(Method::GET, "/toolbox/types", &ann)).await?;
    let one = types["dataList"].as_array().and_then(|l| l.iter().find(|t| t["type"] == "ONE_CLICK_FILMING")).cloned().unwrap_or_default();
    assert_eq!((one["available"].as_bool(), one["path"].as_str(), one["reasonCode"].as_str()), (Some(true), Some("ai-one-step-video-cut"), Some("")), "{one}");

    // A template of two video slots, approved in a category; another category stays empty.
    let travel = category(&s, &boss, "旅行").await?;
    let empty = category(&s, &boss, "空的").await?;
    let maker_clip = common::upload(&s, &boss, "maker.mp4", common::ring_clip()?).await?;
    seconds(&s, &boss, &maker_clip).await?;
    let task = data(s.call(Method::POST, "/videotask/save", &boss).form(&[("taskInfo", two_slot_rule(&maker_clip).to_string()), ("name", "旅行快剪".into())]))
        .await?
        .as_i64()
        .ok_or("task id")?;
    let template = data(s.call(Method::POST, "/template/submit", &boss).json(&json!({"taskId": task, "kind": "classic", "categoryIds": [travel]})))
        .await?["id"]
        .as_i64()
        .ok_or("template id")?;
    data(s.call(Method::POST, "/template/audit", &boss).json(&json!({"id": template, "approve": true}))).await?;

    // The choice: the category's template with its two video slots; `phoneNumber` is not read.
    let choice = json!({"categoryId": travel, "timeLength": 4, "phoneNumber": "13900000000"});
    let chosen = data(s.call(Method::POST, "/v2/videotask/oneClick/template", &ann).json(&choice)).await?;
    let first = &chosen["dataList"][0];
    assert_eq!((chosen["dataList"].as_array().map(Vec::len), first["id"].as_i64(), first["replaceVideo"].as_i64()), (Some(1), Some(template), Some(2)), "{chosen}");
    assert_eq!(first["videoSlots"], json!([{"id": "first", "sceneIndex": 0, "seconds": 1.5}, {"id": "second", "sceneIndex": 1, "seconds": 2.5}]), "{chosen}");
    assert_eq!(first["duration"].as_f64(), Some(5.5), "{first}");
    assert!(first.get("videoCreateInfo").is_none(), "no document in the choice: {first}");
    let refused = |body: Value| envelope(s.call(Method::POST, "/v2/videotask/oneClick/template", &ann).json(&body));
    let none = refused(json!({"categoryId": empty, "timeLength": 4})).await?;
    assert_eq!((none["code"].as_i64(), none["data"]["field"].as_str()), (Some(3000), Some("categoryId")), "{none}");
    for (body, field) in [(json!({"categoryId": travel}), "timeLength"), (json!({"categoryId": travel, "timeLength": 0}), "timeLength"), (json!({"timeLength": 4}), "categoryId")] {
        let r = refused(body.clone()).await?;
        assert_eq!((r["code"].as_i64(), r["data"]["field"].as_str()), (Some(3000), Some(field)), "{body}: {r}");
    }

    // The clips, uploaded through oneClick/upload (two files, one call), and a picture and bob's clip.
    let up = common::upload_to(&s, "/v2/videotask/oneClick/upload", &ann, &[("a.mp4", common::ring_clip()?), ("b.mp4", common::MP4)]).await?;
    let ids: Vec<String> = up["data"]["materialIds"].as_array().ok_or("materialIds")?.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect();
    assert_eq!((up["code"].as_i64(), ids.len()), (Some(2000), 2), "{up}");
    let (a, b) = (ids[0].clone(), ids[1].clone());
    let (a_s, b_s) = (seconds(&s, &ann, &a).await?, seconds(&s, &ann, &b).await?);
    let picture = common::upload(&s, &ann, "still.png", common::PNG).await?;
    common::settled(&s, &ann, &picture).await?;
    let bobs = common::upload(&s, &bob, "bob.mp4", common::ring_clip()?).await?;
    seconds(&s, &bob, &bobs).await?;

    // Refusals name their field and make nothing.
    let starter = data(s.call(Method::GET, "/template/list?name=%E8%8A%82%E6%97%A5", &ann)).await?["list"][0]["id"].as_i64().ok_or("a starter")?;
    let cases = [
        (json!({"templateId": template, "materialIds": [a, bobs]}), "materialIds[1]", "not one of your materials"),
        (json!({"templateId": template, "materialIds": [picture]}), "materialIds[0]", "is a picture: choose a video"),
        (json!({"templateId": template, "materialIds": [a, b, a]}), "materialIds", "3 clips, but"),
        (json!({"templateId": template, "materialIds": []}), "materialIds", "at least one clip"),
        (json!({"templateId": template, "materialIds": [a], "pictureIds": [picture]}), "pictureIds", "0 picture slots"),
        (json!({"templateId": template, "materialIds": [true]}), "materialIds", "not a list of material ids"),
        (json!({"templateId": starter, "materialIds": [a]}), "templateId", "does not have a video slot"),
    ];
    for (body, field, words) in cases {
        let r = envelope(s.call(Method::POST, "/v2/videotask/oneClick/run", &ann).json(&body)).await?;
        let said = r["desc"].as_str().unwrap_or_default();
        assert_eq!((r["code"].as_i64(), r["data"]["field"].as_str()), (Some(3000), Some(field)), "{body}: {r}");
        assert!(said.contains(words), "{body}: {said}");
    }
    let unknown = envelope(s.call(Method::POST, "/v2/videotask/oneClick/run", &ann).json(&json!({"templateId": 987_654, "materialIds": [a]}))).await?;
    assert_eq!(unknown["code"], 3000, "{unknown}");
    assert!(unknown["desc"].as_str().is_some_and(|d| d.contains("template 987654 does not exist")), "{unknown}");
    let works = data(s.call(Method::GET, "/videotask/mine", &ann)).await?;
    assert_eq!(works["total"], 0, "nothing made by a refusal: {works}");

    // The assembly: a new editor task of ann, the clips in slot order, each cut to its slot.
    let run = json!({"templateId": template, "materialIds": [a, b], "name": "我的旅行", "phoneNumber": "13900000000", "id": 1});
    let made = data(s.call(Method::POST, "/v2/videotask/oneClick/run", &ann).json(&run)).await?;
    let task_id = made["taskId"].as_i64().ok_or("task id")?;
    let (a_end, b_end) = (cut_end(a_s, 1.5), cut_end(b_s, 2.5));
    let placed: Vec<(String, String, f64, f64, f64)> = made["placed"]
        .as_array()
        .ok_or("placed")?
        .iter()
        .map(|p| (p["slotId"].as_str().unwrap_or_default().to_owned(), p["materialId"].as_str().unwrap_or_default().to_owned(), p["start"].as_f64().unwrap_or(-1.0), p["end"].as_f64().unwrap_or(-1.0), p["slot"].as_f64().unwrap_or(-1.0)))
        .collect();
    assert_eq!(placed, vec![("first".to_owned(), a.clone(), 0.0, a_end, 1.5), ("second".to_owned(), b.clone(), 0.0, b_end, 2.5)], "{made}");
    let held = made["placed"][1]["held"].as_f64().ok_or("held")?;
    assert!((held - (2.5 - b_end)).abs() < 0.011 && held > 0.0, "the 2 s clip holds its last frame in the 2.5 s slot: {made}");

    let work = data(s.call(Method::GET, &format!("/videotask/ofone/{task_id}"), &ann)).await?;
    assert_eq!((work["taskName"].as_str(), work["usedFor"].as_str()), (Some("我的旅行"), Some("TASK_TEMPLATE")), "{work}");
    let doc: Value = serde_json::from_str(work["videoCreateInfo"].as_str().ok_or("document")?)?;
    let video = |scene: usize| doc["scenes"][scene]["layers"].as_array().and_then(|l| l.iter().find(|x| x["type"] == "video")).cloned().unwrap_or_default();
    let (one, two) = (video(0), video(1));
    assert_eq!(one["videoSrc"], format!("/diyvrbt/material/file/{a}/original"), "{one}");
    assert_eq!((one["cutInfo"]["start"].as_f64(), one["cutInfo"]["end"].as_f64(), one["materialId"].as_str()), (Some(0.0), Some(a_end), Some(a.as_str())), "{one}");
    assert_eq!(two["videoSrc"], format!("/diyvrbt/material/file/{b}/original"), "{two}");
    assert_eq!((two["cutInfo"]["start"].as_f64(), two["cutInfo"]["end"].as_f64(), two["endTime"].as_f64()), (Some(0.0), Some(b_end), Some(2.5)), "{two}");
    assert!(!work["videoCreateInfo"].as_str().unwrap_or_default().contains(&maker_clip), "no slot kept the maker's clip");

    // It is ann's editor work like any other: it renders, and bob cannot open it.
    let queued = envelope(s.call(Method::POST, "/videotask/runtask", &ann).json(&json!({"taskId": task_id}))).await?;
    assert_eq!(queued["code"], 2000, "{queued}");
    let theirs = envelope(s.call(Method::GET, &format!("/videotask/ofone/{task_id}"), &bob)).await?;
    assert_eq!(theirs["code"], 3000, "{theirs}");
    Ok(())
}

#[tokio::test]
async fn the_openapi_document_lists_the_one_click_routes() -> Fallible<()> {
    let s = common::start().await?;
    let doc: Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    for path in ["/diyvrbt/v2/videotask/oneClick/template", "/diyvrbt/v2/videotask/oneClick/upload", "/diyvrbt/v2/videotask/oneClick/run"] {
        assert!(doc["paths"][path]["post"].is_object(), "{path} is documented");
    }
    Ok(())
}

common::on_both_backends!(one_click_filming);
