//! The template calls through the gateway (CONTRACT.md "Templates API contract"), on the real
//! database: the starter set and the list filters, detail and slots, filling a template into a new
//! task, submit and the manager's audit flow with its role rules (4001 for a user who is not a
//! TEMPLATE_MANAGER, 'not found' for another user's pending template), and business cards (header
//! sheets, a batch from an uploaded sheet with its per-row report, one card).

use crate::common;

use common::{Fallible, data, envelope};
use prost::Message;
use reelforge_proto::render::RenderJob;
use reelforge_task::{FinishOutcome, JobRef, TaskStore};
use reqwest::Method;
use serde_json::{Value, json};

fn ids(list: &Value) -> Vec<i64> {
    list.as_array().map(|l| l.iter().filter_map(|t| t["id"].as_i64()).collect()).unwrap_or_default()
}

fn slotted_rule() -> Value {
    let mut rule = common::rule();
    rule["scenes"][0]["layers"] = json!([{"type": "word", "id": "title", "startTime": 0, "endTime": 2, "w": 200, "h": 60,
        "canModify": 1, "content": "标题", "maxLength": 4}]);
    rule
}

async fn template_calls(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let maker = s.user("qs", "maker", 8).await?;
    let neighbour = s.user("qs", "neighbour", 8).await?;
    let boss = s.user("qs", "boss", 3).await?;

    // The starter set, seeded on the tenant's first list, with the filters.
    let all = data(s.call(Method::GET, "/template/list", &maker)).await?;
    assert_eq!(all["total"], 5, "{all}");
    let first = &all["list"][0];
    assert_eq!((first["auditState"].as_str(), first["videoUrl"].as_str()), (Some("approved"), Some("")), "{first}");
    assert!(first.get("videoCreateInfo").is_none(), "the list carries no document");
    let cards = data(s.call(Method::GET, "/template/list?kind=businessCard", &maker)).await?;
    assert_eq!(cards["total"], 2);
    let sized = data(s.call(Method::GET, "/template/list?sizeCategoryId=41,51&pageSize=2", &maker)).await?;
    assert_eq!((sized["total"].as_i64(), ids(&sized["list"]).len()), (Some(3), 2));
    let named = data(s.call(Method::GET, "/template/list?name=%E8%8A%82%E6%97%A5", &maker)).await?;
    assert_eq!(named["total"], 1, "节日: {named}");
    let festive = named["list"][0]["id"].as_i64().ok_or("id")?;
    let bad = envelope(s.call(Method::GET, "/template/list?kind=poster", &maker)).await?;
    assert_eq!(bad["code"], 3000, "{bad}");

    // Detail and slots.
    let detail = data(s.call(Method::GET, &format!("/template/{festive}"), &maker)).await?;
    assert!(detail["videoCreateInfo"].as_str().is_some_and(|d| d.contains("节日快乐")), "{detail}");
    assert_eq!(detail["ivvrInfo"], json!([]));
    assert_eq!((detail["replaceWord"].as_i64(), detail["sizeCategoryId"].as_i64()), (Some(2), Some(51)));
    let slots = data(s.call(Method::GET, &format!("/template/slots/{festive}"), &maker)).await?;
    assert_eq!(slots.as_array().map(Vec::len), Some(2), "{slots}");
    let slot = &slots[0];
    assert_eq!((slot["materialType"].as_str(), slot["maxLength"].as_i64(), slot["sceneIndex"].as_i64()), (Some("text"), Some(8), Some(0)));
    let slot_id = slot["id"].as_str().ok_or("slot id")?.to_owned();

    // Fill: a new task of the caller; a text over the slot's length is refused, naming the slot.
    let made = data(
        s.call(Method::POST, "/template/fill", &maker)
            .json(&json!({"templateId": festive, "name": "我的祝福", "replaces": [{"id": slot_id, "replaceContent": "新春快乐"}]})),
    )
    .await?;
    let task_id = made["taskId"].as_i64().ok_or("task id")?;
    let task = data(s.call(Method::GET, &format!("/videotask/ofone/{task_id}"), &maker)).await?;
    assert_eq!((task["taskName"].as_str(), task["usedFor"].as_str()), (Some("我的祝福"), Some("TASK_TEMPLATE")));
    assert!(task["videoCreateInfo"].as_str().is_some_and(|d| d.contains("新春快乐")));
    let long = envelope(
        s.call(Method::POST, "/template/fill", &maker)
            .json(&json!({"templateId": festive, "replaces": [{"id": slot_id, "replaceContent": "一二三四五六七八九"}]})),
    )
    .await?;
    assert_eq!(long["code"], 3000);
    assert!(long["desc"].as_str().is_some_and(|d| d.contains(&slot_id) && d.contains("longer")), "{long}");
    let unchanged = data(s.call(Method::GET, &format!("/template/{festive}"), &maker)).await?;
    assert_eq!(unchanged["videoCreateInfo"], detail["videoCreateInfo"], "the template never changes");

    // Submit and audit.
    let own = data(s.call(Method::POST, "/videotask/save", &maker).json(&json!({"taskInfo": slotted_rule().to_string(), "name": "我的模板"})))
        .await?
        .as_i64()
        .ok_or("task id")?;
    let offered = data(s.call(Method::POST, "/template/submit", &maker).json(&json!({"taskId": own, "kind": "classic", "categoryIds": "3,9"}))).await?;
    let id = offered["id"].as_i64().ok_or("template id")?;
    assert_eq!((offered["auditState"].as_str(), offered["categoryIds"].clone()), (Some("pending"), json!([3, 9])));
    let hidden = envelope(s.call(Method::GET, &format!("/template/{id}"), &neighbour)).await?;
    assert_eq!((hidden["code"].as_i64(), hidden["desc"].as_str()), (Some(3000), Some(format!("template {id} does not exist").as_str())));
    let mine = data(s.call(Method::GET, "/template/mine", &maker)).await?;
    assert_eq!(ids(&mine["list"]), vec![id]);
    // The task it was offered from, for its ring state on /mytemring: to its creator only.
    assert_eq!(mine["list"][0]["taskId"].as_i64(), Some(own), "{mine}");
    for (method, path, body) in [
        (Method::GET, "/template/check".to_owned(), None),
        (Method::GET, format!("/template/check/{id}"), None),
        (Method::POST, "/template/audit".to_owned(), Some(json!({"id": id, "approve": true}))),
        (Method::POST, "/template/categories".to_owned(), Some(json!({"id": id, "categoryIds": [1]}))),
        (Method::POST, "/template/setPush".to_owned(), Some(json!({"ids": [id], "push": true}))),
    ] {
        let mut call = s.call(method, &path, &maker);
        if let Some(b) = body {
            call = call.json(&b);
        }
        let refused = envelope(call).await?;
        assert_eq!(refused["code"], 4001, "{path}: {refused}");
    }
    let pending = data(s.call(Method::GET, "/template/check?state=pending", &boss)).await?;
    assert_eq!(ids(&pending["list"]), vec![id]);
    let no_reason = envelope(s.call(Method::POST, "/template/audit", &boss).json(&json!({"id": id, "approve": false}))).await?;
    assert!(no_reason["desc"].as_str().is_some_and(|d| d.starts_with("reason")), "{no_reason}");
    let rejected = data(s.call(Method::POST, "/template/audit", &boss).json(&json!({"id": id, "approve": false, "reason": "文字太少"}))).await?;
    assert_eq!((rejected["auditState"].as_str(), rejected["reason"].as_str()), (Some("rejected"), Some("文字太少")));
    data(s.call(Method::POST, "/template/audit", &boss).json(&json!({"id": id, "approve": "true"}))).await?;
    let moved = data(s.call(Method::POST, "/template/categories", &boss).json(&json!({"id": id, "categoryIds": [9], "sizeCategoryId": 50}))).await?;
    assert_eq!((moved["categoryIds"].clone(), moved["sizeCategoryId"].as_i64()), (json!([9]), Some(50)));
    assert_eq!(data(s.call(Method::POST, "/template/setPush", &boss).json(&json!({"ids": [id], "push": true}))).await?, json!([id]));
    let listed = data(s.call(Method::GET, "/template/list?categoryId=9", &neighbour)).await?;
    assert_eq!(ids(&listed["list"]), vec![id], "approved: the tenant sees it");
    assert_eq!(listed["list"][0]["push"], true);
    Ok(())
}

/// A template's preview is its hidden preview task's render: once that render is done the answers
/// carry signed addresses of its cover and video, served with ranges to whoever the task service
/// answered the template to, and to no other template or tenant.
async fn a_finished_preview_is_the_templates_cover_and_video(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let viewer = s.user("qs", "viewer", 8).await?;
    let stranger = s.user("cc", "stranger", 8).await?;
    let before = data(s.call(Method::GET, "/template/list", &viewer)).await?;
    assert!(before["list"].as_array().into_iter().flatten().all(|t| t["coverUrl"] == "" && t["videoUrl"] == ""), "{before}");

    // The worker's part, played by the test: the first starter's preview is rendered.
    let conn = reelforge_kit::db::connect(&s.db_url).await?;
    let store = TaskStore::new(conn.clone());
    let queue = reelforge_kit::queue::open(&s.config.queue, &conn).await?;
    let delivery = queue.receive(&s.render_queue, std::time::Duration::from_secs(20)).await?.ok_or("a preview render is queued")?;
    let job = RenderJob::decode(delivery.body.as_slice())?;
    let run = JobRef { tenant: job.tenant.clone(), task_id: job.task_id, job_id: job.job_id.clone(), attempt: job.attempt };
    let (video_key, cover_key) = (format!("t/qs/tasks/{}/renders/{}.mp4", job.task_id, job.job_id), format!("t/qs/tasks/{}/renders/{}.jpg", job.task_id, job.job_id));
    s.blobs.put(&video_key, b"\0\0\0\x18ftypmp42 preview".to_vec()).await?;
    s.blobs.put(&cover_key, b"\xff\xd8\xff cover".to_vec()).await?;
    assert!(store.start(&run, 60_000).await?);
    assert!(store.finish(&run, false, FinishOutcome::Done { video_key, cover_key, loudness: None }).await?);

    let after = data(s.call(Method::GET, "/template/list", &viewer)).await?;
    let shown: Vec<&Value> = after["list"].as_array().into_iter().flatten().filter(|t| t["videoUrl"] != "").collect();
    assert_eq!(shown.len(), 1, "{after}");
    let (id, cover, video) = (shown[0]["id"].as_i64().ok_or("id")?, shown[0]["coverUrl"].as_str().ok_or("cover")?, shown[0]["videoUrl"].as_str().ok_or("video")?);
    assert!(cover.starts_with(&format!("/diyvrbt/template/media/{id}/cover?ticket=")), "{cover}");
    let origin = s.base.trim_end_matches("/diyvrbt");
    let get = |url: &str, tenant: &str| reqwest::Client::new().get(format!("{origin}{url}")).header("X-Variant", tenant);
    let picture = get(cover, "qs").send().await?;
    assert_eq!((picture.status().as_u16(), picture.headers()["content-type"].to_str()?), (200, "image/jpeg"));
    assert_eq!(picture.bytes().await?.as_ref(), b"\xff\xd8\xff cover");
    let part = get(video, "qs").header("Range", "bytes=4-7").send().await?;
    assert_eq!(part.status().as_u16(), 206);
    assert_eq!(part.bytes().await?.as_ref(), b"ftyp");
    // The ticket is bound to its template and tenant.
    let elsewhere = video.replacen(&format!("/media/{id}/"), &format!("/media/{}/", id + 1), 1);
    assert_eq!(envelope(get(&elsewhere, "qs")).await?["code"], 3000);
    assert_eq!(envelope(get(video, "cc")).await?["code"], 3000);
    assert_eq!(envelope(get(&format!("/diyvrbt/template/media/{id}/video"), "qs")).await?["code"], 3000, "no ticket");
    // Another tenant's list answers its own starters, none with this preview.
    let theirs = data(s.call(Method::GET, "/template/list", &stranger)).await?;
    assert!(theirs["list"].as_array().into_iter().flatten().all(|t| t["videoUrl"] == ""), "{theirs}");
    Ok(())
}

#[tokio::test]
async fn the_openapi_document_lists_the_template_routes() -> Fallible<()> {
    let s = common::start().await?;
    let doc: Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    for path in [
        "/diyvrbt/template/list",
        "/diyvrbt/template/{id}",
        "/diyvrbt/template/slots/{id}",
        "/diyvrbt/template/fill",
        "/diyvrbt/template/submit",
        "/diyvrbt/template/mine",
        "/diyvrbt/template/check",
        "/diyvrbt/template/check/{id}",
        "/diyvrbt/template/audit",
        "/diyvrbt/template/categories",
        "/diyvrbt/template/setPush",
        "/diyvrbt/business/template.csv",
        "/diyvrbt/business/template.xlsx",
        "/diyvrbt/v2/business/runBusinessCardTasks",
        "/diyvrbt/v2/business/runOneBusinessCardTask",
    ] {
        assert!(doc["paths"].get(path).is_some(), "{path} is documented");
    }
    Ok(())
}

async fn business_cards(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let u = s.user("qs", "cards", 8).await?;
    let cards = data(s.call(Method::GET, "/template/list?kind=businessCard&sizeCategoryId=50", &u)).await?;
    let id = cards["list"][0]["id"].as_i64().ok_or("card template")?;

    let csv = s.call(Method::GET, &format!("/business/template.csv?templateId={id}"), &u).send().await?;
    assert!(csv.headers().get("content-type").and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/csv")));
    let text = String::from_utf8(csv.bytes().await?.to_vec())?;
    assert_eq!(text.trim_start_matches('\u{feff}').trim_end(), "姓名,职位,手机,邮箱,公司名称");
    let xlsx = s.call(Method::GET, &format!("/business/template.xlsx?templateId={id}"), &u).send().await?.bytes().await?;
    assert!(xlsx.starts_with(b"PK"), "a zip container");

    let sheet = "姓名,职位,手机,邮箱,公司名称\n张三,经理,138,z@example.com,某某公司\n,经理,139,l@example.com,某某公司\n王五,设计,137,w@example.com,某某公司\n";
    let id_text = id.to_string();
    let (ct, body) = common::multipart(&[("templateId", None, id_text.as_bytes()), ("file", Some("cards.csv"), sheet.as_bytes())]);
    let report = data(s.call(Method::POST, "/v2/business/runBusinessCardTasks", &u).header("Content-Type", ct).body(body)).await?;
    assert_eq!(report["made"].as_array().map(Vec::len), Some(2), "{report}");
    assert_eq!(report["failed"], json!([{"row": 3, "reason": "姓名: required"}]));
    let made = report["made"][0]["taskId"].as_i64().ok_or("task")?;
    let state = data(s.call(Method::GET, &format!("/videotask/state?taskId={made}"), &u)).await?;
    assert!(state["status"].as_i64().is_some_and(|st| st >= 0), "the card was run: {state}");

    let (ct, body) = common::multipart(&[("templateId", None, id_text.as_bytes()), ("file", Some("cards.xlsx"), b"not a workbook")]);
    let refused = envelope(s.call(Method::POST, "/v2/business/runBusinessCardTasks", &u).header("Content-Type", ct).body(body)).await?;
    assert_eq!((refused["code"].as_i64(), refused["desc"].as_str()), (Some(3000), Some("file: not an .xlsx spreadsheet")));

    let one = data(
        s.call(Method::POST, "/v2/business/runOneBusinessCardTask", &u)
            .json(&json!({"templateId": id, "fields": {"1": "赵六", "2": "顾问", "4": "136", "5": "x@example.com", "6": "某某公司"}})),
    )
    .await?;
    assert!(one["taskId"].as_i64().is_some());
    Ok(())
}

common::on_both_backends!(
    template_calls,
    business_cards,
    a_finished_preview_is_the_templates_cover_and_video,
);
