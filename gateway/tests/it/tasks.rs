//! The task and autosave calls through the gateway (CONTRACT.md "Tasks"): list filters and paging,
//! by ids, rename and full update, store, duplicate, clear, delete and batch delete with their
//! objects, an invalid save (3000 listing every problem, nothing stored), the stale-save refusal,
//! and the edit history with its 2 MB limit.

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;
use serde_json::{Value, json};

async fn save(s: &System, u: &User, body: Value) -> Fallible<i64> {
    Ok(data(s.call(Method::POST, "/videotask/save", u).json(&body)).await?.as_i64().ok_or("task id")?)
}

async fn task(s: &System, u: &User, id: i64) -> Fallible<Value> {
    data(s.call(Method::GET, &format!("/videotask/ofone/{id}"), u)).await
}

/// Whether every field `doc` has stands in `answered` as written (an opened document also carries
/// the fields the model adds).
fn written_in(doc: &Value, answered: &Value) -> bool {
    match (doc, answered) {
        (Value::Object(d), Value::Object(a)) => d.iter().all(|(k, v)| a.get(k).is_some_and(|w| written_in(v, w))),
        (Value::Array(d), Value::Array(a)) => d.len() == a.len() && d.iter().zip(a).all(|(d, a)| written_in(d, a)),
        _ => doc == answered,
    }
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array().map(|l| l.iter().filter_map(|t| t["id"].as_i64()).collect()).unwrap_or_default()
}

async fn task_calls(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let u = s.user("qs", "maker", 8).await?;
    let rule = common::rule().to_string();
    let a = save(&s, &u, json!({"taskInfo": rule, "name": "春节促销", "sizeCategoryId": 41})).await?;
    let b = save(&s, &u, json!({"taskInfo": rule, "taskName": "Summer", "sizeCategoryId": 50})).await?;
    let c = save(&s, &u, json!({"taskInfo": rule, "name": "第三", "sizeCategoryId": 42})).await?;

    // The list: defaults (page 1 of 10, all states), filters, order, paging.
    let all = data(s.call(Method::GET, "/videotask/mine", &u)).await?;
    assert_eq!((all["total"].as_i64(), ids(&all["list"])), (Some(3), vec![c, b, a]), "{all}");
    assert_eq!(all["list"][0]["version"], 1);
    assert_eq!(all["list"][0]["duration"], 2.0);
    let landscape = data(s.call(Method::GET, "/videotask/mine?sizeCategoryId=41,42,51&orderType=2", &u)).await?;
    assert_eq!(ids(&landscape["list"]), vec![a, c]);
    let done = data(s.call(Method::GET, "/videotask/mine?taskState=10", &u)).await?;
    assert_eq!(done["total"], 0);
    let named = data(s.call(Method::GET, "/videotask/mine?name=summ", &u)).await?;
    assert_eq!(ids(&named["list"]), vec![b]);
    let page2 = data(s.call(Method::GET, "/videotask/mine?pageNum=2&pageSize=2", &u)).await?;
    assert_eq!((page2["total"].as_i64(), ids(&page2["list"])), (Some(3), vec![a]));
    let bad = envelope(s.call(Method::GET, "/videotask/mine?taskState=x", &u)).await?;
    assert_eq!(bad["code"], 3000, "{bad}");

    // By ids, rename, full update.
    let of = data(s.call(Method::GET, &format!("/videotask/ofids/{b},{a}"), &u)).await?;
    assert_eq!(ids(&of), vec![b, a]);
    let renamed = data(s.call(Method::POST, "/videotask/updateOneTask", &u).json(&json!({"id": a, "name": "新名字"}))).await?;
    assert_eq!((renamed["taskName"].as_str(), renamed["version"].as_i64()), (Some("新名字"), Some(1)));
    let mut longer = common::rule();
    longer["scenes"][0]["timeLength"] = json!(4);
    let updated = data(
        s.call(Method::POST, "/videotask/updateOneTask", &u)
            .json(&json!({"id": a, "videoCreateInfo": longer.to_string(), "version": 1})),
    )
    .await?;
    assert_eq!((updated["taskName"].as_str(), updated["version"].as_i64(), updated["duration"].as_f64()), (Some("新名字"), Some(2), Some(4.0)));

    // Stale save: based on version 1 while 2 is stored.
    let stale = envelope(
        s.call(Method::POST, "/videotask/save", &u).json(&json!({"taskId": a, "taskInfo": rule, "name": "旧标签页", "version": 1})),
    )
    .await?;
    assert_eq!((stale["code"].as_i64(), stale["desc"].as_str()), (Some(3000), Some("该作品已在别处修改，请刷新后再保存")), "{stale}");
    assert_eq!(stale["data"]["reason"], "stale_version", "the editor tells a conflict from other refusals by it: {stale}");
    assert_eq!(task(&s, &u, a).await?["taskName"], "新名字", "nothing stored");

    // Invalid save: every problem with its path, nothing stored.
    let mut broken = common::rule();
    broken["scenes"][0]["timeLength"] = json!(1);
    broken["scenes"][0]["bgColor"] = json!("red");
    broken["scenes"][0]["layers"] = json!([{"type": "picture", "src": "/etc/passwd", "w": 10, "h": 10}]);
    let refused = envelope(
        s.call(Method::POST, "/videotask/save", &u).json(&json!({"taskId": a, "taskInfo": broken.to_string(), "version": 2})),
    )
    .await?;
    let desc = refused["desc"].as_str().unwrap_or_default();
    assert_eq!(refused["code"], 3000, "{refused}");
    for path in ["scenes[0].timeLength", "scenes[0].bgColor", "scenes[0].layers[0].src"] {
        assert!(desc.contains(path), "{path} missing from {desc}");
    }
    assert_eq!(task(&s, &u, a).await?["version"], 2, "nothing stored");
    let fresh = envelope(s.call(Method::POST, "/videotask/save", &u).json(&json!({"taskInfo": broken.to_string()}))).await?;
    assert_eq!(fresh["code"], 3000);
    assert_eq!(data(s.call(Method::GET, "/videotask/mine", &u)).await?["total"], 3, "no row for an invalid new task");

    // Store (a task given whole), duplicate, clear.
    let stored = data(s.call(Method::POST, "/videotask/store", &u).json(&json!({"id": b, "taskName": "存", "videoCreateInfo": rule, "version": 1}))).await?;
    assert_eq!(stored.as_i64(), Some(b));
    assert_eq!(task(&s, &u, b).await?["version"], 2);
    let copy = data(s.call(Method::POST, "/videotask/duplicate", &u).json(&json!({"taskId": a}))).await?.as_i64().ok_or("copy id")?;
    let dup = task(&s, &u, copy).await?;
    assert_eq!((dup["taskName"].as_str(), dup["status"].as_i64()), (Some("新名字 副本"), Some(-1)));
    let copied: Value = serde_json::from_str(dup["videoCreateInfo"].as_str().unwrap_or_default())?;
    assert!(written_in(&longer, &copied), "the copy's document: {copied}");
    let cleared = data(s.call(Method::POST, "/videotask/clear", &u).json(&json!({"taskId": copy}))).await?;
    let blank: Value = serde_json::from_str(cleared["videoCreateInfo"].as_str().unwrap_or_default())?;
    assert_eq!((cleared["taskName"].as_str(), cleared["status"].as_i64(), blank["scenes"].as_array().map(Vec::len)), (Some("未命名"), Some(-1), Some(1)));

    // Delete with its objects; batch delete all or none.
    let render_key = format!("t/qs/tasks/{a}/renders/j1.mp4");
    let cover_key = format!("t/qs/tasks/{a}/renders/j1.jpg");
    s.blobs.put(&render_key, &b"mp4"[..]).await?;
    s.blobs.put(&cover_key, &b"jpg"[..]).await?;
    s.blobs.put(&format!("t/qs/tasks/{c}/renders/j2.mp4"), &b"mp4"[..]).await?;
    let deleted = data(s.call(Method::POST, "/videotask/delete", &u).json(&json!({"taskId": a}))).await?;
    assert_eq!(deleted, json!([a]));
    assert!(!s.blobs.exists(&render_key).await? && !s.blobs.exists(&cover_key).await?, "render and cover removed");
    let gone = envelope(s.call(Method::GET, &format!("/videotask/ofone/{a}"), &u)).await?;
    assert_eq!(gone["code"], 3000);
    let other = s.user("qs", "other", 8).await?;
    let theirs = save(&s, &other, json!({"taskInfo": rule})).await?;
    let mixed = envelope(s.call(Method::POST, "/videotask/batchDelete", &u).json(&json!({"taskIds": format!("{b},{theirs}")}))).await?;
    assert_eq!(mixed["code"], 3000, "{mixed}");
    assert_eq!(task(&s, &u, b).await?["id"], b, "all or none");
    let batch = data(s.call(Method::POST, "/videotask/batchDelete", &u).json(&json!({"taskIds": format!("{b},{c}")}))).await?;
    assert_eq!(batch, json!([b, c]));
    assert!(!s.blobs.exists(&format!("t/qs/tasks/{c}/renders/j2.mp4")).await?);
    assert_eq!(data(s.call(Method::GET, "/videotask/mine", &u)).await?["total"], 1, "only the copy is left");
    assert_eq!(task(&s, &other, theirs).await?["id"], theirs);
    Ok(())
}

async fn edit_history(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let u = s.user("qs", "editor", 8).await?;
    let id = save(&s, &u, json!({"taskInfo": common::rule().to_string()})).await?;
    let none = data(s.call(Method::GET, &format!("/redis/history/getStoreTime?taskId={id}"), &u)).await?;
    assert_eq!(none, 0);
    assert_eq!(data(s.call(Method::GET, &format!("/redis/history/getOne?taskId={id}"), &u)).await?, "");

    let state = json!({"scenes": [{"timeLength": 3}], "name": "草稿"}).to_string();
    let at = data(s.call(Method::POST, "/redis/history/store", &u).form(&[("taskId", id.to_string()), ("history", state.clone())])).await?;
    assert!(at.as_i64().is_some_and(|ms| ms > 0), "{at}");
    assert_eq!(data(s.call(Method::GET, &format!("/redis/history/getStoreTime?taskId={id}"), &u)).await?, at);
    assert_eq!(data(s.call(Method::GET, &format!("/redis/history/getOne?taskId={id}"), &u)).await?, json!(state));

    // An unsaved new task keeps one state too.
    data(s.call(Method::POST, "/redis/history/store", &u).json(&json!({"taskId": -1, "history": "[]"}))).await?;
    assert_eq!(data(s.call(Method::GET, "/redis/history/getOne?taskId=-1", &u)).await?, "[]");

    // Over 2 MB: refused, the last state kept.
    let big = format!("\"{}\"", "x".repeat(2 * 1024 * 1024));
    let refused = envelope(s.call(Method::POST, "/redis/history/store", &u).json(&json!({"taskId": id, "history": big}))).await?;
    assert_eq!(refused["code"], 3000, "{refused}");
    assert!(refused["desc"].as_str().is_some_and(|d| d.contains("2 MB")), "{refused}");
    assert_eq!(data(s.call(Method::GET, &format!("/redis/history/getOne?taskId={id}"), &u)).await?, json!(state));

    // Deleting the task forgets its state.
    data(s.call(Method::POST, "/videotask/delete", &u).json(&json!({"taskId": id}))).await?;
    let after = envelope(s.call(Method::GET, &format!("/redis/history/getOne?taskId={id}"), &u)).await?;
    assert_eq!(after["code"], 3000, "the task is gone: {after}");
    Ok(())
}

/// A task opened by id answers its document with every field the model knows written out (the
/// editor reads the generated types; a document saved through the API may leave fields out), and
/// keeps fields the model does not know.
async fn an_opened_document_is_complete(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let u = s.user("qs", "maker", 8).await?;
    let mut rule = common::rule();
    rule["scenes"][0]["layers"] = json!([{"type": "shape", "id": "s1", "shape": "rect", "x": 0, "y": 0, "w": 40, "h": 40,
        "startTime": 0, "endTime": 2, "fill": "#ff0000", "clientNote": "kept"}]);
    let id = save(&s, &u, json!({"taskInfo": rule.to_string(), "name": "少字段", "sizeCategoryId": 41})).await?;
    let doc: Value = serde_json::from_str(task(&s, &u, id).await?["videoCreateInfo"].as_str().ok_or("videoCreateInfo")?)?;
    let shape = &doc["scenes"][0]["layers"][0];
    assert_eq!((shape["gradientColors"].clone(), shape["fillType"].is_string(), shape["motionIn"].is_string()), (json!([]), true, true), "{shape}");
    assert_eq!((shape["fill"].as_str(), shape["clientNote"].as_str()), (Some("#ff0000"), Some("kept")));
    assert!(written_in(&rule, &doc), "what the document has is answered as written: {doc}");
    assert_eq!(doc["resolutionRatio"]["ratio"], "16:9");
    Ok(())
}

common::on_both_backends!(
    task_calls,
    edit_history,
    an_opened_document_is_complete,
);

/// A distributed test system leaves nothing on RabbitMQ: its render queue and dead-letter queue,
/// durable and named for it, go when it ends. The system lives and ends as in a `#[tokio::test]`:
/// dropped at the end of the test's future, then its runtime.
#[test]
fn a_distributed_system_deletes_its_render_queues_when_it_ends() -> Fallible<()> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    let (url, queue) = runtime.block_on(async {
        let s = common::start_in(common::Backends::Distributed).await?;
        let (url, queue) = (s.config.queue.url.clone(), s.render_queue.clone());
        // Publishing declares both, as the task service does for its first render.
        let conn = reelforge_kit::db::connect(&s.db_url).await?;
        reelforge_kit::queue::open(&s.config.queue, &conn).await?.publish(&queue, "job-1", b"x").await?;
        let dead = format!("{queue}.dead");
        assert!(common::queue_exists(&url, &queue).await? && common::queue_exists(&url, &dead).await?, "{queue} declared");
        Ok::<_, Box<dyn std::error::Error>>((url, queue))
    })?;
    drop(runtime);
    let check = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    check.block_on(async {
        for q in [queue.clone(), format!("{queue}.dead")] {
            assert!(!common::queue_exists(&url, &q).await?, "{q} is left behind");
        }
        Ok(())
    })
}
