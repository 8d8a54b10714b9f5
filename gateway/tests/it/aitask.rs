//! The AI smart task (docs/toolbox.md "Smart clips"): the tenant's industry categories, a smart
//! task of the caller's video queued as one INTELLIGENT_TASK run asking for clips, its job worked as
//! the farm's worker does (the real tool on a real clip), then read back in editor-core's `smartTask`
//! shape with the clips as the caller's materials; refusals naming their field with nothing queued,
//! another user's task and a run that is not a smart task refused.

use crate::common;

use std::sync::atomic::AtomicBool;

use common::{Fallible, data, envelope};
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn a_smart_task_clips_the_liveliest_scenes_into_materials() -> Fallible<()> {
    let s = common::start().await?;
    let boss = s.user("qs", "boss", 3).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let bob = s.user("qs", "bob", 8).await?;
    let food = data(s.call(Method::POST, "/category/taskvideo", &boss).json(&json!({"categoryName": "餐饮", "dimension": "industry"}))).await?["categoryId"]
        .as_i64()
        .ok_or("category id")?;
    let size = data(s.call(Method::POST, "/category/taskvideo", &boss).json(&json!({"categoryName": "竖屏", "dimension": "size"}))).await?["categoryId"]
        .as_i64()
        .ok_or("category id")?;
    let industries = data(s.call(Method::GET, "/aitask/getCategory", &ann)).await?;
    let list = industries["dataList"].as_array().ok_or("dataList")?;
    assert!(list.iter().any(|c| c["categoryId"] == food && c["dimension"] == "industry"), "{industries}");
    assert!(!list.iter().any(|c| c["categoryId"] == size), "only industries: {industries}");

    let dir = tempfile::tempdir()?;
    // Still red 0–0.8 s, moving bars 0.8–2 s, a moving ball 2–2.8 s: the bars and the ball are the liveliest.
    let scenes = [("red", 20), ("smpte horizontal-speed=4", 30), ("ball", 20)];
    let clip = std::fs::read(reelforge_tools::testing::scenes(dir.path(), "scenes.mp4", &scenes, 25)?)?;
    let material = common::upload(&s, &ann, "scenes.mp4", &clip).await?;
    common::settled(&s, &ann, &material).await?;
    let theirs = common::upload(&s, &bob, "theirs.mp4", &clip).await?;

    // Refused naming their field, nothing queued.
    let refusals = [
        (json!({"materialIds": [], "industryId": food}), "materialIds"),
        (json!({"materialIds": [material, material]}), "materialIds"),
        (json!({"materialIds": [theirs]}), "materialIds"),
        (json!({"materialIds": [material], "industryId": size}), "industryId"),
        (json!({"materialIds": [material], "targetMs": 10}), "params.targetMs"),
        (json!({"materialIds": [material], "minKeepMs": 5000, "targetMs": 8000}), "params.minKeepMs"),
    ];
    for (body, field) in refusals {
        let answer = envelope(s.call(Method::POST, "/aitask/smartClips", &ann).json(&body)).await?;
        assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{body}: {answer}");
    }
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &ann)).await?["total"], 0, "nothing was queued");

    // Form-encoded as the spec's clients send it, the ids joined by commas.
    let form = [("materialIds", material.clone()), ("industryId", food.to_string()), ("targetMs", "2000".into()), ("minKeepMs", "500".into()), ("minSceneMs", "200".into())];
    let queued = data(s.call(Method::POST, "/aitask/smartClips", &ann).form(&form)).await?;
    let (id, job_id) = (queued["id"].as_i64().ok_or("id")?, queued["jobId"].as_str().ok_or("jobId")?.to_owned());
    let waiting = data(s.call(Method::POST, "/aitask/get", &ann).json(&json!({"id": id}))).await?;
    assert_eq!((waiting["state"].as_str(), waiting["industryId"].as_i64(), waiting["aiCutedIds"].as_array().map(Vec::len)), (Some("waiting"), Some(food), Some(0)), "{waiting}");
    assert_eq!(waiting["materialIds"], json!([material]));
    // The run is a toolbox run like any other: listed in my tools as INTELLIGENT_TASK.
    let run = data(s.call(Method::GET, &format!("/toolbox/run/{id}"), &ann)).await?;
    assert_eq!((run["type"].as_str(), run["params"]["clips"].as_bool()), (Some("INTELLIGENT_TASK"), Some(true)), "{run}");

    // Worked as the farm's worker does.
    let job = reelforge_task::JobRef { tenant: ann.tenant.clone(), task_id: id, job_id, attempt: 1 };
    assert!(s.tasks.start(&job, 60_000).await?, "the job started");
    let input = dir.path().join("input.mp4");
    std::fs::write(&input, &clip)?;
    let params = reelforge_tools::Params::parse(reelforge_tools::ToolType::IntelligentTask, &run["params"])?;
    let out = dir.path().join("out");
    let outputs = tokio::task::spawn_blocking(move || reelforge_tools::run(&params, &[input], &out, &mut |_| {}, &AtomicBool::new(false))).await??;
    let prefix = reelforge_worker::tool_prefix(&ann.tenant, id, &job.job_id);
    let mut stored = Vec::new();
    for (i, o) in outputs.into_iter().enumerate() {
        let key = format!("{prefix}{i}-{}", o.name);
        s.blobs.upload_file(&key, &o.path).await?;
        let ranges = o.ranges.iter().map(|r| reelforge_task::SourceRange { start_ms: r.start_ms, end_ms: r.end_ms }).collect();
        stored.push(reelforge_task::ToolOutput { key, kind: o.kind.name().to_owned(), name: o.name, size: o.size, duration_ms: o.duration_ms, width: o.width, height: o.height, ranges });
    }
    assert!(s.tasks.finish(&job, false, reelforge_task::FinishOutcome::Tool { outputs: stored }).await?, "the job finished");

    let done = data(s.call(Method::POST, "/aitask/get", &ann).json(&json!({"id": id.to_string()}))).await?;
    assert_eq!((done["state"].as_str(), done["progress"].as_u64()), (Some("done"), Some(100)), "{done}");
    assert_eq!(done["ranges"], json!([{"startMs": 800, "endMs": 2000}, {"startMs": 2000, "endMs": 2800}]), "the liveliest scenes, each a clip: {done}");
    let cut: Vec<String> = done["aiCutedIds"].as_array().ok_or("aiCutedIds")?.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect();
    assert_eq!(cut.len(), 2, "{done}");
    for (id, name, ms) in [(&cut[0], "clip-1.mp4", 1200.0), (&cut[1], "clip-2.mp4", 800.0)] {
        let m = common::settled(&s, &ann, id).await?;
        assert_eq!((m["type"].as_str(), m["materialName"].as_str(), m["state"].as_str()), (Some("video"), Some(name), Some("ready")), "{m}");
        assert!(m["duration"].as_f64().is_some_and(|d| (d * 1000.0 - ms).abs() <= 80.0), "{m}");
    }
    assert!(done["src"].as_str().is_some_and(|u| u.contains(&format!("/material/file/{}/original", cut[0]))), "{done}");
    // Read again: the same materials (the library knows them by their content), none made twice.
    let again = data(s.call(Method::POST, "/aitask/get", &ann).json(&json!({"id": id}))).await?;
    assert_eq!(again["aiCutedIds"], done["aiCutedIds"]);

    // Another user's smart task, a run that is not one, and no id: refused.
    let foreign = envelope(s.call(Method::POST, "/aitask/get", &bob).json(&json!({"id": id}))).await?;
    assert_ne!(foreign["code"], 2000, "{foreign}");
    assert!(!foreign.to_string().contains(&cut[0]), "{foreign}");
    let speed = data(s.call(Method::POST, "/toolbox/run", &ann).json(&json!({"type": "VIDEO_SPEEDUP", "materialIds": [material], "params": {"speed": 2}}))).await?;
    let other = envelope(s.call(Method::POST, "/aitask/get", &ann).json(&json!({"id": speed["taskId"]}))).await?;
    assert_eq!((other["code"].as_i64(), other["data"]["field"].as_str()), (Some(3000), Some("id")), "{other}");
    let none = envelope(s.call(Method::POST, "/aitask/get", &ann).json(&json!({"id": "x"}))).await?;
    assert_eq!((none["code"].as_i64(), none["data"]["field"].as_str()), (Some(3000), Some("id")), "{none}");
    Ok(())
}
