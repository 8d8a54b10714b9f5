//! The video toolbox through the gateway (docs/toolbox.md): the catalogue, a run whose job the
//! test works as the farm's worker does (the real tool on a real clip), its events, outputs, file
//! and "use"; bad parameters and another user's material refused naming the field, nothing queued.

use crate::common;

use std::sync::atomic::AtomicBool;

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;

/// Works the queued job of `user`'s tool run `task_id` as the worker does: starts it, runs the
/// tool on `input`, stores the outputs under the job's prefix and finishes the run with them.
pub(crate) async fn work_the_job(s: &System, user: &User, task_id: i64, job_id: &str, input: &[u8], params: serde_json::Value, tool: reelforge_tools::ToolType) -> Fallible<()> {
    let job = reelforge_task::JobRef { tenant: user.tenant.clone(), task_id, job_id: job_id.to_owned(), attempt: 1 };
    if !s.tasks.start(&job, 60_000).await? {
        return Err("the tool job did not start".into());
    }
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("input");
    std::fs::write(&path, input)?;
    let params = reelforge_tools::Params::parse(tool, &params)?;
    let out = dir.path().join("out");
    let outputs = tokio::task::spawn_blocking(move || reelforge_tools::run(&params, &[path], &out, &mut |_| {}, &AtomicBool::new(false))).await??;
    let prefix = reelforge_worker::tool_prefix(&user.tenant, task_id, job_id);
    let mut stored = Vec::new();
    for (i, o) in outputs.into_iter().enumerate() {
        let key = format!("{prefix}{i}-{}", o.name);
        s.blobs.upload_file(&key, &o.path).await?;
        stored.push(reelforge_task::ToolOutput {
            key,
            kind: o.kind.name().to_owned(),
            name: o.name,
            size: o.size,
            duration_ms: o.duration_ms,
            width: o.width,
            height: o.height,
            ranges: o.ranges.iter().map(|r| reelforge_task::SourceRange { start_ms: r.start_ms, end_ms: r.end_ms }).collect(),
        });
    }
    if !s.tasks.finish(&job, false, reelforge_task::FinishOutcome::Tool { outputs: stored }).await? {
        return Err("the tool job did not finish".into());
    }
    Ok(())
}

#[tokio::test]
async fn a_tool_runs_and_its_output_becomes_a_material() -> Fallible<()> {
    let s = common::start().await?;
    let ann = s.user("qs", "ann", 8).await?;
    let clip = common::ring_clip()?;
    let material = common::upload(&s, &ann, "clip.mp4", clip).await?;

    let types = data(s.call(Method::GET, "/toolbox/types", &ann)).await?;
    let list = types["dataList"].as_array().ok_or("dataList")?;
    assert_eq!(list.len(), 27, "{types}");
    let of = |t: &str| list.iter().find(|x| x["type"] == t).cloned().unwrap_or_default();
    // The AI abilities' runs (docs/ai.md) are listed, not shown: their pages are under /ai/ability.
    assert_eq!((of("AUDIO_DENOISE")["shown"].as_bool(), of("AUDIO_DENOISE")["path"].as_str()), (Some(false), Some("")), "{types}");
    assert_eq!((of("VIDEO_SPEEDUP")["available"].as_bool(), of("VIDEO_SPEEDUP")["path"].as_str()), (Some(true), Some("speed-video")));
    assert_eq!(of("EXTRACT_PORTRAIT")["available"], false);
    assert!(of("EXTRACT_PORTRAIT")["reason"].as_str().is_some_and(|r| r.contains("model")), "{types}");
    assert_eq!(of("EXTRACT_PORTRAIT")["reasonCode"].as_str(), Some("no_model"), "{types}");
    // PPT to video runs where LibreOffice and poppler are installed, and says it is not configured where not.
    assert!(matches!(of("PPT_CONVERTER")["reasonCode"].as_str(), Some("" | "not_configured")), "{types}");
    assert_eq!(of("VIDEO_SPEEDUP")["reasonCode"], "", "{types}");
    assert_eq!((of("VIDEO_CROP")["shown"].as_bool(), of("EXTRACT_AUDIO")["shown"].as_bool()), (Some(false), Some(true)));
    // The editor's reverse (`/material/v2/reverVideo`) runs, with no page of its own.
    assert_eq!((of("VIDEO_REVERSE")["shown"].as_bool(), of("VIDEO_REVERSE")["available"].as_bool(), of("VIDEO_REVERSE")["path"].as_str()), (Some(false), Some(true), Some("")));
    for hidden in ["VIDEO_REMOVE_WATERMARK", "VIDEO_REMOVE_SUBTITLE"] {
        assert_eq!((of(hidden)["shown"].as_bool(), of(hidden)["available"].as_bool()), (Some(false), Some(true)), "{types}");
    }
    assert_eq!(of("VIDEO_REMOVE_SUBTITLE")["path"], "remove-captions");
    assert!(of("VIDEO_COMPRESS")["maxInputBytes"].as_u64().is_some_and(|n| n > 0));

    // Refused before anything is queued: a bad parameter, another user's material, a type not built.
    let refusals = [
        (serde_json::json!({"type": "VIDEO_SPEEDUP", "materialIds": [material], "params": {"speed": 0}}), "params.speed"),
        (serde_json::json!({"type": "VIDEO_TO_GIF", "materialIds": [material], "params": {"startMs": 0, "endMs": 1000, "fps": 60, "width": 320}}), "params.fps"),
        (serde_json::json!({"type": "EXTRACT_PORTRAIT", "materialIds": [material], "params": {}}), "type"),
        (serde_json::json!({"type": "EXTRACT_AUDIO", "materialIds": [], "params": {"format": "mp3"}}), "materialIds"),
        (serde_json::json!({"type": "EXTRACT_AUDIO", "materialIds": [true], "params": {"format": "mp3"}}), "materialIds"),
        (serde_json::json!({"type": "VIDEO_SPLIT", "materialIds": [material], "params": {"mode": "shots"}}), "params.mode"),
        (serde_json::json!({"type": "VIDEO_SPLIT", "materialIds": [material], "params": {"mode": "scenes", "sensitivity": 0}}), "params.sensitivity"),
        (serde_json::json!({"type": "INTELLIGENT_TASK", "materialIds": [material], "params": {}}), "params.targetMs"),
        (serde_json::json!({"type": "EXTRACT_PERSON_AUDIO", "materialIds": [material], "params": {"accompaniment": 1}}), "params.accompaniment"),
        (serde_json::json!({"type": "VIDEO_REMOVE_WATERMARK", "materialIds": [material], "params": {"x": 0, "y": 0, "width": 0, "height": 8, "method": "blur"}}), "params.width"),
        (serde_json::json!({"type": "VIDEO_REMOVE_WATERMARK", "materialIds": [material], "params": {"x": 0, "y": 0, "width": 8, "height": 8, "method": "smear"}}), "params.method"),
        (serde_json::json!({"type": "VIDEO_REMOVE_SUBTITLE", "materialIds": [material], "params": {"mode": "detect", "y": 100, "method": "blur"}}), "params.y"),
        (serde_json::json!({"type": "VIDEO_REMOVE_SUBTITLE", "materialIds": [material], "params": {"mode": "band", "y": 100, "method": "blur"}}), "params.height"),
        (serde_json::json!({"type": "VIDEO_BEAUTY", "materialIds": [material], "params": {"strength": 101}}), "params.strength"),
        (serde_json::json!({"type": "INCREASE_RESOLUTION", "materialIds": [material], "params": {"target": "3x"}}), "params.target"),
    ];
    for (body, field) in refusals {
        let answer = envelope(s.call(Method::POST, "/toolbox/run", &ann).json(&body)).await?;
        assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{answer}");
        assert!(answer["desc"].as_str().is_some_and(|d| d.starts_with(field)), "{answer}");
    }
    let bob = s.user("qs", "bob", 8).await?;
    let theirs = common::upload(&s, &bob, "theirs.mp4", clip).await?;
    let answer = envelope(s.call(Method::POST, "/toolbox/run", &ann).json(&serde_json::json!({"type": "VIDEO_SPEEDUP", "materialIds": [theirs], "params": {"speed": 2}}))).await?;
    assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some("materialIds")), "{answer}");
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &ann)).await?["total"], 0, "nothing was queued");

    let params = serde_json::json!({"speed": 2});
    let run = data(s.call(Method::POST, "/toolbox/run", &ann).json(&serde_json::json!({"type": "VIDEO_SPEEDUP", "materialIds": [material], "params": params}))).await?;
    let task_id = run["taskId"].as_i64().ok_or("taskId")?;
    let job_id = run["jobId"].as_str().ok_or("jobId")?.to_owned();
    let queued = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &ann)).await?;
    assert_eq!((queued["status"].as_i64(), queued["stage"].as_str(), queued["type"].as_str()), (Some(0), Some("queued"), Some("VIDEO_SPEEDUP")), "{queued}");
    assert_eq!(queued["outputs"].as_array().map(Vec::len), Some(0));

    work_the_job(&s, &ann, task_id, &job_id, clip, params, reelforge_tools::ToolType::VideoSpeedup).await?;
    let events = s.call(Method::GET, &format!("/videotask/events?taskId={task_id}"), &ann).send().await?.text().await?;
    assert!(events.contains("event: done"), "{events}");

    let done = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &ann)).await?;
    assert_eq!((done["status"].as_i64(), done["percent"].as_u64(), done["params"]["speed"].as_f64()), (Some(10), Some(100), Some(2.0)), "{done}");
    let out = &done["outputs"][0];
    assert_eq!((out["index"].as_u64(), out["kind"].as_str(), out["width"].as_u64(), out["height"].as_u64()), (Some(0), Some("video"), Some(180), Some(320)), "{done}");
    assert!(out["durationMs"].as_u64().is_some_and(|ms| ms.abs_diff(1000) <= 80), "half the 2 s clip: {done}");
    assert!(!done.to_string().contains("renders/"), "the storage key stays server-side: {done}");
    let mine = data(s.call(Method::GET, "/toolbox/mine?type=VIDEO_SPEEDUP", &ann)).await?;
    assert_eq!((mine["total"].as_u64(), mine["dataList"][0]["id"].as_i64()), (Some(1), Some(task_id)), "{mine}");
    assert_eq!(data(s.call(Method::GET, "/videotask/mine", &ann)).await?["total"], 0, "the editor's works never list a tool run");

    let file = s.call(Method::GET, &format!("/toolbox/file/{task_id}/0?download=1"), &ann).send().await?;
    assert_eq!(file.headers().get("x-content-type-options").and_then(|v| v.to_str().ok()), Some("nosniff"));
    assert!(file.headers().get("content-disposition").and_then(|v| v.to_str().ok()).is_some_and(|d| d.starts_with("attachment")));
    let bytes = file.bytes().await?;
    assert_eq!(bytes.len() as u64, out["size"].as_u64().unwrap_or_default());
    let ticket = data(s.call(Method::POST, "/videotask/mediaTicket", &ann).json(&serde_json::json!({"taskId": task_id}))).await?["ticket"]
        .as_str()
        .ok_or("ticket")?
        .to_owned();
    let by_ticket = reqwest::Client::new()
        .get(format!("{}/toolbox/file/{task_id}/0?ticket={ticket}", s.base))
        .header("X-Variant", "qs")
        .send()
        .await?;
    assert_eq!((by_ticket.status().as_u16(), by_ticket.bytes().await?.len()), (200, bytes.len()), "the media ticket opens the file");
    let missing = envelope(s.call(Method::GET, &format!("/toolbox/file/{task_id}/1"), &ann)).await?;
    assert_eq!(missing["code"], 3000, "{missing}");

    let used = data(s.call(Method::POST, "/toolbox/use", &ann).json(&serde_json::json!({"taskId": task_id, "index": 0}))).await?;
    let id = used["materialId"].as_str().ok_or("materialId")?;
    let m = common::settled(&s, &ann, id).await?;
    assert_eq!((m["type"].as_str(), m["materialName"].as_str()), (Some("video"), Some("speed.mp4")), "{m}");
    Ok(())
}

#[tokio::test]
async fn the_openapi_document_lists_the_toolbox_routes() -> Fallible<()> {
    let s = common::start().await?;
    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    for (path, method) in [
        ("/diyvrbt/toolbox/types", "get"),
        ("/diyvrbt/toolbox/run", "post"),
        ("/diyvrbt/toolbox/mine", "get"),
        ("/diyvrbt/toolbox/run/{id}", "get"),
        ("/diyvrbt/toolbox/file/{id}/{index}", "get"),
        ("/diyvrbt/toolbox/use", "post"),
    ] {
        assert!(doc["paths"][path][method].is_object(), "{method} {path} is in the document");
    }
    let params = doc["paths"]["/diyvrbt/toolbox/mine"]["get"]["parameters"].as_array().cloned().unwrap_or_default();
    assert!(params.iter().any(|p| p["name"] == "type"), "the type filter is named as the contract names it: {params:?}");
    Ok(())
}

#[tokio::test]
async fn what_the_librarys_probe_knows_of_the_input_is_refused_before_anything_is_queued() -> Fallible<()> {
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| c.tools.video_speedup.max_input_seconds = 1).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let clip = common::upload(&s, &ann, "clip.mp4", common::MP4).await?;
    let dir = tempfile::tempdir()?;
    let silent = reelforge_tools::testing::Clip { seconds: 1.0, sound: false, ..Default::default() }.make(dir.path(), "silent.mp4")?;
    let silent = common::upload(&s, &ann, "silent.mp4", &std::fs::read(silent)?).await?;
    for id in [&clip, &silent] {
        let m = common::settled(&s, &ann, id).await?;
        assert_eq!(m["state"], "ready", "{m}");
    }

    // The fixture lasts 2 s and is 320×240 with sound, a few tens of kB.
    let refusals = [
        (serde_json::json!({"type": "QUICK_CUT_VIDEO", "materialIds": [clip], "params": {"mode": "keep", "ranges": [{"startMs": 2500, "endMs": 3000}]}}), "params.ranges[0].startMs", "past the end"),
        (serde_json::json!({"type": "VIDEO_TO_GIF", "materialIds": [clip], "params": {"startMs": 5000, "endMs": 6000, "fps": 10, "width": 160}}), "params.startMs", "past the end"),
        (serde_json::json!({"type": "VIDEO_COMPRESS", "materialIds": [clip], "params": {"targetBytes": 50_000_000}}), "params.targetBytes", "smaller than the video"),
        (serde_json::json!({"type": "EXTRACT_AUDIO", "materialIds": [silent], "params": {"format": "mp3"}}), "materialIds", "no sound"),
        (serde_json::json!({"type": "VIDEO_SPEEDUP", "materialIds": [clip], "params": {"speed": 2}}), "materialIds", "at most 1 s"),
        (serde_json::json!({"type": "VIDEO_CROP", "materialIds": [clip], "params": {"x": 200, "y": 0, "width": 160, "height": 100}}), "params.width", "past the picture's width (320)"),
        (serde_json::json!({"type": "VIDEO_SPLIT", "materialIds": [clip], "params": {"mode": "scenes", "minSceneMs": 1500}}), "params.minSceneMs", "too short for two scenes"),
        (serde_json::json!({"type": "INTELLIGENT_TASK", "materialIds": [clip], "params": {"minKeepMs": 3000, "targetMs": 5000}}), "params.minKeepMs", "longer than the clip"),
        (serde_json::json!({"type": "EXTRACT_PERSON_AUDIO", "materialIds": [silent], "params": {}}), "materialIds", "no sound"),
        (serde_json::json!({"type": "VIDEO_REMOVE_WATERMARK", "materialIds": [clip], "params": {"x": 300, "y": 0, "width": 40, "height": 20, "method": "blur"}}), "params.width", "past the picture's width (320)"),
        (serde_json::json!({"type": "VIDEO_REMOVE_WATERMARK", "materialIds": [clip], "params": {"x": 0, "y": 240, "width": 40, "height": 20, "method": "blur"}}), "params.y", "past the picture's height (240)"),
        (serde_json::json!({"type": "VIDEO_REMOVE_WATERMARK", "materialIds": [clip], "params": {"x": 0, "y": 0, "width": 320, "height": 240, "method": "inpaint"}}), "params.width", "covers the whole picture"),
        (serde_json::json!({"type": "VIDEO_REMOVE_SUBTITLE", "materialIds": [clip], "params": {"mode": "band", "y": 230, "height": 20, "method": "inpaint"}}), "params.height", "past the picture's height (240)"),
        // Two inputs: each refusal names the input by its place.
        (serde_json::json!({"type": "VIDEO_REPLACE_AUDIO", "materialIds": [clip, silent], "params": {"mode": "replace"}}), "materialIds[1]", "no sound"),
        (serde_json::json!({"type": "VIDEO_REPLACE_AUDIO", "materialIds": [silent, clip], "params": {"mode": "mix"}}), "materialIds[0]", "no sound to mix"),
        (serde_json::json!({"type": "PRE_PICTURE_VIDEO", "materialIds": [clip, clip], "params": {"visual": "picture"}}), "materialIds[1]", "choose a picture"),
        (serde_json::json!({"type": "VIDEO_REPLACE_AUDIO", "materialIds": [clip], "params": {"mode": "replace"}}), "materialIds", "the video, then the sound"),
    ];
    for (body, field, words) in refusals {
        let answer = envelope(s.call(Method::POST, "/toolbox/run", &ann).json(&body)).await?;
        assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{body}: {answer}");
        let desc = answer["desc"].as_str().unwrap_or_default();
        assert!(desc.starts_with(field) && desc.contains(words), "{body}: {answer}");
    }
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &ann)).await?["total"], 0, "nothing was queued or stored");

    // The same input within its bounds is queued.
    let ok = serde_json::json!({"type": "QUICK_CUT_VIDEO", "materialIds": [clip], "params": {"mode": "keep", "ranges": [{"startMs": 500, "endMs": 1500}]}});
    let run = data(s.call(Method::POST, "/toolbox/run", &ann).json(&ok)).await?;
    assert!(run["taskId"].as_i64().is_some(), "{run}");
    let audio = data(s.call(Method::POST, "/toolbox/run", &ann).json(&serde_json::json!({"type": "EXTRACT_AUDIO", "materialIds": [clip], "params": {"format": "wav"}}))).await?;
    assert!(audio["taskId"].as_i64().is_some(), "{audio}");
    let replace = serde_json::json!({"type": "VIDEO_REPLACE_AUDIO", "materialIds": [clip, clip], "params": {"mode": "replace"}});
    let replaced = data(s.call(Method::POST, "/toolbox/run", &ann).json(&replace)).await?;
    let run = data(s.call(Method::GET, &format!("/toolbox/run/{}", replaced["taskId"]), &ann)).await?;
    assert_eq!(run["materialIds"], serde_json::json!([clip, clip]), "the inputs keep their order: {run}");
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &ann)).await?["total"], 3);
    Ok(())
}

#[tokio::test]
async fn an_ai_video_cut_lists_the_scenes_it_kept() -> Fallible<()> {
    let s = common::start().await?;
    let ann = s.user("qs", "ann", 8).await?;
    let dir = tempfile::tempdir()?;
    // Still red 0–0.8 s, moving bars 0.8–2 s, a moving ball 2–2.8 s: the bars and the ball are the liveliest.
    let scenes = [("red", 20), ("smpte horizontal-speed=4", 30), ("ball", 20)];
    let clip = std::fs::read(reelforge_tools::testing::scenes(dir.path(), "scenes.mp4", &scenes, 25)?)?;
    let material = common::upload(&s, &ann, "scenes.mp4", &clip).await?;
    common::settled(&s, &ann, &material).await?;
    let params = serde_json::json!({"minSceneMs": 200, "minKeepMs": 500, "targetMs": 2000});
    let run = data(s.call(Method::POST, "/toolbox/run", &ann).json(&serde_json::json!({"type": "INTELLIGENT_TASK", "materialIds": [material], "params": params}))).await?;
    let task_id = run["taskId"].as_i64().ok_or("taskId")?;
    let job_id = run["jobId"].as_str().ok_or("jobId")?.to_owned();
    work_the_job(&s, &ann, task_id, &job_id, &clip, params, reelforge_tools::ToolType::IntelligentTask).await?;
    let done = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &ann)).await?;
    let out = &done["outputs"][0];
    assert_eq!((out["name"].as_str(), done["params"]["sensitivity"].as_u64()), (Some("highlights.mp4"), Some(60)), "{done}");
    assert_eq!(out["ranges"], serde_json::json!([{"startMs": 800, "endMs": 2000}, {"startMs": 2000, "endMs": 2800}]), "{done}");
    Ok(())
}

#[tokio::test]
async fn a_frame_cut_makes_one_picture_per_scene_each_usable_as_a_material() -> Fallible<()> {
    let s = common::start().await?;
    let ann = s.user("qs", "ann", 8).await?;
    let types = data(s.call(Method::GET, "/toolbox/types", &ann)).await?;
    let frames = types["dataList"].as_array().and_then(|l| l.iter().find(|x| x["type"] == "VIDEO_KEY_FRAMES").cloned()).ok_or("VIDEO_KEY_FRAMES")?;
    assert_eq!((frames["path"].as_str(), frames["available"].as_bool(), frames["shown"].as_bool()), (Some("ai-frame-cut"), Some(true), Some(true)), "{frames}");
    let dir = tempfile::tempdir()?;
    // Still red 0–1 s, moving bars 1–2 s, still blue 2–3 s.
    let scenes = [("red", 25), ("smpte horizontal-speed=4", 25), ("blue", 25)];
    let clip = std::fs::read(reelforge_tools::testing::scenes(dir.path(), "scenes.mp4", &scenes, 25)?)?;
    let material = common::upload(&s, &ann, "scenes.mp4", &clip).await?;
    common::settled(&s, &ann, &material).await?;
    // Refused before anything is queued: an interval making more than 100 pictures of the clip, a bad mode.
    for (params, field) in [(serde_json::json!({"mode": "interval", "everyMs": 100}), "params.everyMs"), (serde_json::json!({"mode": "shots"}), "params.mode")] {
        let body = serde_json::json!({"type": "VIDEO_KEY_FRAMES", "materialIds": [material], "params": params});
        let answer = envelope(s.call(Method::POST, "/toolbox/run", &ann).json(&body)).await?;
        assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{answer}");
    }
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &ann)).await?["total"], 0, "nothing was queued");
    let params = serde_json::json!({"mode": "scenes", "minSceneMs": 300});
    let run = data(s.call(Method::POST, "/toolbox/run", &ann).json(&serde_json::json!({"type": "VIDEO_KEY_FRAMES", "materialIds": [material], "params": params}))).await?;
    let task_id = run["taskId"].as_i64().ok_or("taskId")?;
    let job_id = run["jobId"].as_str().ok_or("jobId")?.to_owned();
    work_the_job(&s, &ann, task_id, &job_id, &clip, params, reelforge_tools::ToolType::VideoKeyFrames).await?;
    let done = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &ann)).await?;
    let outputs = done["outputs"].as_array().ok_or("outputs")?;
    assert_eq!(outputs.len(), 3, "{done}");
    for (i, o) in outputs.iter().enumerate() {
        let start = i as u64 * 1000;
        assert_eq!((o["kind"].as_str(), o["width"].as_u64(), o["ranges"][0]["startMs"].as_u64().map(|ms| ms.abs_diff(start) <= 40)), (Some("picture"), Some(320), Some(true)), "{o}");
        let file = s.call(Method::GET, &format!("/toolbox/file/{task_id}/{i}"), &ann).send().await?;
        assert_eq!(file.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("image/jpeg"));
        let (_, _, rgb) = reelforge_tools::testing::picture_rgb(&file.bytes().await?)?;
        let [red, _, blue] = reelforge_tools::testing::mean_rgb(&rgb);
        match i {
            0 => assert!(red > 200.0 && blue < 40.0, "the red scene's picture: {red:.0} {blue:.0}"),
            2 => assert!(blue > 200.0 && red < 40.0, "the blue scene's picture: {red:.0} {blue:.0}"),
            _ => {}
        }
    }
    let used = data(s.call(Method::POST, "/toolbox/use", &ann).json(&serde_json::json!({"taskId": task_id, "index": 2}))).await?;
    let m = common::settled(&s, &ann, used["materialId"].as_str().ok_or("materialId")?).await?;
    assert_eq!((m["type"].as_str(), m["materialName"].as_str()), (Some("picture"), Some("frame-3.jpg")), "{m}");
    Ok(())
}
