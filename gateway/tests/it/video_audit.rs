//! Video auditing through the gateway (`POST /ai/audit`, docs/ai.md "Video auditing"): listed
//! available once a word list is configured, each refusal naming its field with nothing queued,
//! and an audit of a work queued on the farm and worked as the worker does (the job's document's
//! text layers matched by the ai crate), its report served as JSON and never made a material.

use crate::common;

use common::{Fallible, data, envelope};
use reelforge_kit::config::AiProviderConfig;
use reqwest::Method;

/// Plays the farm's worker for an audit of a work: starts the job, matches the text layers of the
/// work's `document` (the worker reads it from the job; `tests/farm.rs` runs the worker itself),
/// stores the report and finishes the run with it.
async fn audit_the_job(s: &common::System, user: &common::User, task_id: i64, job_id: &str, document: &str, words: &[String]) -> Fallible<()> {
    let job = reelforge_task::JobRef { tenant: user.tenant.clone(), task_id, job_id: job_id.to_owned(), attempt: 1 };
    if !s.tasks.start(&job, 60_000).await? {
        return Err("the audit job did not start".into());
    }
    let texts = reelforge_ai::audit::document_texts(document)?;
    let hits = reelforge_ai::audit::audit_document(&reelforge_ai::audit::WordList::new(words), &texts);
    let report = reelforge_ai::audit::Report {
        verdict: reelforge_ai::audit::Report::verdict_of(&hits).to_owned(),
        source: "work".into(),
        frames_read: 0,
        layers_read: texts.len() as u64,
        frame_width: 0,
        frame_height: 0,
        hits,
    };
    let json = serde_json::to_vec(&report)?;
    let key = format!("{}0-audit.json", reelforge_worker::tool_prefix(&user.tenant, task_id, job_id));
    s.blobs.put(&key, json.clone()).await?;
    let output = reelforge_task::ToolOutput { key, kind: "report".into(), name: "audit.json".into(), size: json.len() as u64, duration_ms: 0, width: 0, height: 0, ranges: Vec::new() };
    if !s.tasks.finish(&job, false, reelforge_task::FinishOutcome::Tool { outputs: vec![output] }).await? {
        return Err("the audit job did not finish".into());
    }
    Ok(())
}

#[tokio::test]
async fn an_audit_of_a_work_runs_on_the_farm_and_flags_its_text_layer() -> Fallible<()> {
    let words = vec!["样例词".to_owned(), "demo word".to_owned()];
    let listed = words.clone();
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, move |c| {
        let local = AiProviderConfig { provider: "local".into(), words: listed, ..AiProviderConfig::default() };
        c.ai.abilities.insert("video-auditing".into(), local);
        c.ai.tenants.insert("cc".into(), [("video-auditing".to_owned(), AiProviderConfig::default())].into_iter().collect());
    })
    .await?;
    let me = s.user("qs", "auditor", 8).await?;
    let other = s.user("qs", "neighbour", 8).await?;
    let listed = data(s.call(Method::GET, "/ai/abilities", &me)).await?;
    let entry = listed.as_array().and_then(|l| l.iter().find(|a| a["key"] == "video-auditing")).cloned().ok_or("listed")?;
    assert_eq!((entry["available"].as_bool(), entry["provider"].as_str()), (Some(true), Some("local")), "{entry}");

    let mut doc = common::rule();
    doc["scenes"][0]["layers"] = serde_json::json!([
        {"type": "word", "id": "greeting", "content": "欢迎观看", "startTime": 0, "endTime": 2},
        {"type": "word", "id": "caption-7", "content": "这是样 例，词！", "startTime": 0, "endTime": 2}
    ]);
    let saved = data(s.call(Method::POST, "/videotask/save", &me).form(&[("taskInfo", doc.to_string()), ("name", "审核".into())])).await?;
    let work = saved["taskId"].as_i64().or_else(|| saved.as_i64()).ok_or("the work's id")?;
    let picture = common::upload(&s, &me, "still.png", common::PNG).await?;

    for (body, field) in [
        (serde_json::json!({}), "materialId"),
        (serde_json::json!({"materialId": picture}), "materialId"),
        (serde_json::json!({"materialId": "no-such-material"}), "materialId"),
        (serde_json::json!({"taskId": 987_654}), "taskId"),
        (serde_json::json!({"taskId": "x"}), "taskId"),
        (serde_json::json!({"taskId": work, "materialId": picture}), "materialId"),
        (serde_json::json!({"taskId": work, "words": ["x"]}), "words"),
    ] {
        let answer = envelope(s.call(Method::POST, "/ai/audit", &me).json(&body)).await?;
        assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{body}: {answer}");
    }
    let theirs = envelope(s.call(Method::POST, "/ai/audit", &other).json(&serde_json::json!({"taskId": work}))).await?;
    assert_eq!((theirs["code"].as_i64(), theirs["data"]["field"].as_str()), (Some(3000), Some("taskId")), "another user's work: {theirs}");
    let cc = s.user("cc", "auditor", 8).await?;
    let theirs = data(s.call(Method::POST, "/videotask/save", &cc).form(&[("taskInfo", doc.to_string()), ("name", "审核".into())])).await?;
    let theirs = theirs["taskId"].as_i64().or_else(|| theirs.as_i64()).ok_or("cc's work")?;
    let off = envelope(s.call(Method::POST, "/ai/audit", &cc).json(&serde_json::json!({"taskId": theirs}))).await?;
    assert_eq!((off["code"].as_i64(), off["data"]["reason"].as_str()), (Some(3000), Some("not-configured")), "{off}");
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &me)).await?["total"], 0, "nothing was queued");

    let run = data(s.call(Method::POST, "/ai/audit", &me).json(&serde_json::json!({"taskId": work}))).await?;
    let task_id = run["taskId"].as_i64().ok_or("taskId")?;
    let job_id = run["jobId"].as_str().ok_or("jobId")?.to_owned();
    let queued = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &me)).await?;
    assert_eq!((queued["type"].as_str(), queued["params"]["sourceTaskId"].as_i64()), (Some("VIDEO_AUDIT"), Some(work)), "{queued}");
    audit_the_job(&s, &me, task_id, &job_id, &doc.to_string(), &words).await?;
    let events = s.call(Method::GET, &format!("/videotask/events?taskId={task_id}"), &me).send().await?.text().await?;
    assert!(events.contains("event: done"), "{events}");

    let file = s.call(Method::GET, &format!("/toolbox/file/{task_id}/0"), &me).send().await?;
    assert_eq!(file.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("application/json"));
    let report: serde_json::Value = file.json().await?;
    assert_eq!((report["verdict"].as_str(), report["layersRead"].as_u64()), (Some("flagged"), Some(2)), "{report}");
    let hits = report["hits"].as_array().ok_or("hits")?;
    assert_eq!(hits.len(), 1, "{report}");
    assert_eq!((hits[0]["word"].as_str(), hits[0]["source"].as_str(), hits[0]["layerId"].as_str()), (Some("样例词"), Some("text"), Some("caption-7")), "{report}");
    let used = envelope(s.call(Method::POST, "/toolbox/use", &me).json(&serde_json::json!({"taskId": task_id, "index": 0}))).await?;
    assert_eq!((used["code"].as_i64(), used["data"]["field"].as_str()), (Some(3000), Some("index")), "a report is not a material: {used}");
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &me)).await?["total"], 0, "an audit is not a toolbox run");

    let api: serde_json::Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    assert!(api["paths"]["/diyvrbt/ai/audit"]["post"].is_object(), "the call is in the API document");
    Ok(())
}
