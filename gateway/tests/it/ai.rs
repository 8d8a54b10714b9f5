//! The AI routes end to end: the catalogue's `available` and reasons computed from `[ai]`, text
//! generation through an OpenAI-compatible server started here on the loopback, keywords run
//! locally, and the refusals naming their cause.

use std::time::Duration;

use actix_web::{HttpResponse, web};
use reelforge_kit::config::AiProviderConfig;
use reqwest::Method;

use crate::common::{self, Fallible, data, envelope};

async fn completions(body: web::Json<serde_json::Value>) -> HttpResponse {
    let user = body["messages"][1]["content"].as_str().unwrap_or_default().to_owned();
    if user == "slow" {
        tokio::time::sleep(Duration::from_secs(3)).await;
    }
    HttpResponse::Ok().json(serde_json::json!({"choices": [{"message": {"role": "assistant", "content": format!("echo: {user}")}}]}))
}

/// An OpenAI-compatible endpoint on the loopback; answers its base URL.
fn endpoint() -> Fallible<String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    let srv = actix_web::HttpServer::new(|| {
        actix_web::App::new()
            .route("/v1/models", web::get().to(|| async { HttpResponse::Ok().json(serde_json::json!({"data": []})) }))
            .route("/v1/chat/completions", web::post().to(completions))
    })
    .workers(1)
    .listen(listener)?
    .run();
    tokio::spawn(srv);
    Ok(format!("http://127.0.0.1:{port}/v1"))
}

#[tokio::test]
async fn text_through_the_configured_provider_and_keywords_locally() -> Fallible<()> {
    let base = endpoint()?;
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        let http = AiProviderConfig { provider: "http".into(), base_url: base, model: "echo-1".into(), timeout_seconds: 1, retries: 0, ..AiProviderConfig::default() };
        c.ai.abilities.insert("text-generation".into(), http);
    })
    .await?;
    let me = s.user("qs", "writer", 8).await?;

    let listed = data(s.call(Method::GET, "/ai/abilities", &me)).await?;
    let find = |key: &str| listed.as_array().and_then(|l| l.iter().find(|a| a["key"] == key)).cloned().ok_or(format!("{key} listed"));
    let tg = find("text-generation")?;
    assert_eq!((tg["available"].as_bool(), tg["provider"].as_str(), tg["reasonCode"].as_str()), (Some(true), Some("http"), Some("")), "{tg}");
    let tr = find("translation")?;
    assert_eq!((tr["available"].as_bool(), tr["reasonCode"].as_str()), (Some(false), Some("not-configured")), "{tr}");
    assert!(tr["reason"].as_str().unwrap_or_default().contains("base_url"), "{tr}");
    assert_eq!(find("keyword-extraction")?["available"], true);

    let out = data(s.call(Method::POST, "/ai/text", &me).json(&serde_json::json!({"ability": "text-generation", "text": "写一句口号"}))).await?;
    assert_eq!((out["text"].as_str(), out["model"].as_str()), (Some("echo: 写一句口号"), Some("echo-1")), "{out}");

    for (body, cause) in [
        (serde_json::json!({"ability": "text-generation", "text": ""}), "text is empty"),
        (serde_json::json!({"ability": "translation", "text": "你好", "language": "en-US"}), "not-configured"),
        (serde_json::json!({"ability": "translation", "text": "你好", "language": "xx"}), "language \"xx\""),
        (serde_json::json!({"ability": "text-generation", "text": "slow"}), "did not answer within 1 s"),
    ] {
        let answer = envelope(s.call(Method::POST, "/ai/text", &me).json(&body)).await?;
        assert!(answer["code"] == 3000 && answer["desc"].as_str().unwrap_or_default().contains(cause), "{body}: {answer}");
        // An ability with no provider says so in `data.reason` too, for clients to word it.
        let reason = answer["data"]["reason"].as_str();
        assert_eq!(reason, (cause == "not-configured").then_some("not-configured"), "{body}: {answer}");
    }

    let text = "人工智能技术正在改变视频制作行业。借助人工智能，视频剪辑、字幕生成和配音都可以自动完成。";
    let kws = data(s.call(Method::POST, "/ai/keywords", &me).json(&serde_json::json!({"text": text, "topN": 3}))).await?;
    let words: Vec<&str> = kws.as_array().ok_or("a list")?.iter().filter_map(|k| k["word"].as_str()).collect();
    assert_eq!(words.len(), 3, "{kws}");
    assert!(words.contains(&"人工智能"), "{kws}");
    let answer = envelope(s.call(Method::POST, "/ai/keywords", &me).json(&serde_json::json!({"text": "  "}))).await?;
    assert!(answer["code"] == 3000 && answer["desc"].as_str().unwrap_or_default().contains("empty"), "{answer}");
    Ok(())
}

/// Plays the farm's worker for a dubbing: starts the job, speaks its parameters with the local voice
/// (as the worker does), stores the WAV under the job's prefix and finishes the run with it.
async fn speak_the_job(s: &common::System, user: &common::User, task_id: i64, job_id: &str, params: &serde_json::Value) -> Fallible<()> {
    let job = reelforge_task::JobRef { tenant: user.tenant.clone(), task_id, job_id: job_id.to_owned(), attempt: 1 };
    if !s.tasks.start(&job, 60_000).await? {
        return Err("the dubbing job did not start".into());
    }
    let speech = reelforge_ai::Speech::parse(params)?;
    let wav = tokio::task::spawn_blocking(move || {
        reelforge_ai::speech::Espeak::new("espeak-ng").synthesise(&speech, &std::sync::atomic::AtomicBool::new(false), &mut |_| {})
    })
    .await??;
    let key = format!("{}0-dubbing-cmn.wav", reelforge_worker::tool_prefix(&user.tenant, task_id, job_id));
    s.blobs.put(&key, wav.bytes().to_vec()).await?;
    let output = reelforge_task::ToolOutput {
        key,
        kind: "audio".into(),
        name: "dubbing-cmn.wav".into(),
        size: wav.bytes().len() as u64,
        duration_ms: wav.duration_ms(),
        width: 0,
        height: 0,
        ranges: Vec::new(),
    };
    if !s.tasks.finish(&job, false, reelforge_task::FinishOutcome::Tool { outputs: vec![output] }).await? {
        return Err("the dubbing job did not finish".into());
    }
    Ok(())
}

#[tokio::test]
async fn a_dubbing_runs_on_the_farm_and_becomes_an_audio_material() -> Fallible<()> {
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        let off = AiProviderConfig::default();
        c.ai.tenants.insert("cc".into(), [("text-to-speech".to_owned(), off)].into_iter().collect());
    })
    .await?;
    let me = s.user("qs", "dubber", 8).await?;
    let listed = data(s.call(Method::GET, "/ai/abilities", &me)).await?;
    let tts = listed.as_array().and_then(|l| l.iter().find(|a| a["key"] == "text-to-speech")).cloned().ok_or("listed")?;
    assert_eq!((tts["available"].as_bool(), tts["provider"].as_str()), (Some(true), Some("local")), "{tts}");

    for (body, field) in [
        (serde_json::json!({"text": "  ", "voice": "cmn"}), "text"),
        (serde_json::json!({"text": "字".repeat(1001), "voice": "cmn"}), "text"),
        (serde_json::json!({"text": "你好", "voice": "fr"}), "voice"),
        (serde_json::json!({"text": "你好", "voice": "cmn", "rate": 3}), "rate"),
        (serde_json::json!({"text": "你好", "voice": "cmn", "pitch": 120}), "pitch"),
        (serde_json::json!({"text": "你好", "voice": "cmn", "speaker": "x"}), "speaker"),
    ] {
        let answer = envelope(s.call(Method::POST, "/tts/textToVoice", &me).json(&body)).await?;
        assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{answer}");
    }
    let toolbox = envelope(s.call(Method::POST, "/toolbox/run", &me).json(&serde_json::json!({"type": "TEXT_TO_VOICE", "params": {"text": "你好", "voice": "cmn"}}))).await?;
    assert_eq!((toolbox["code"].as_i64(), toolbox["data"]["field"].as_str()), (Some(3000), Some("type")), "{toolbox}");
    let mute = s.user("cc", "mute", 8).await?;
    let answer = envelope(s.call(Method::POST, "/tts/textToVoice", &mute).json(&serde_json::json!({"text": "hello", "voice": "en"}))).await?;
    assert_eq!((answer["code"].as_i64(), answer["data"]["reason"].as_str()), (Some(3000), Some("not-configured")), "{answer}");

    let body = serde_json::json!({"text": "欢迎使用视频编辑平台。", "voice": "cmn", "rate": 1.2, "pitch": 60});
    let run = data(s.call(Method::POST, "/tts/textToVoice", &me).json(&body)).await?;
    let task_id = run["taskId"].as_i64().ok_or("taskId")?;
    let job_id = run["jobId"].as_str().ok_or("jobId")?.to_owned();
    let queued = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &me)).await?;
    assert_eq!((queued["status"].as_i64(), queued["type"].as_str(), queued["params"]["voice"].as_str()), (Some(0), Some("TEXT_TO_VOICE"), Some("cmn")), "{queued}");

    speak_the_job(&s, &me, task_id, &job_id, &queued["params"]).await?;
    let events = s.call(Method::GET, &format!("/videotask/events?taskId={task_id}"), &me).send().await?.text().await?;
    assert!(events.contains("event: done"), "{events}");
    let done = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &me)).await?;
    let out = &done["outputs"][0];
    assert_eq!((done["status"].as_i64(), out["kind"].as_str()), (Some(10), Some("audio")), "{done}");
    let ms = out["durationMs"].as_u64().unwrap_or_default();
    assert!(ms > 1000, "{done}");
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &me)).await?["total"], 0, "a dubbing is not a toolbox run");

    let used = data(s.call(Method::POST, "/toolbox/use", &me).json(&serde_json::json!({"taskId": task_id, "index": 0}))).await?;
    let m = common::settled(&s, &me, used["materialId"].as_str().ok_or("materialId")?).await?;
    assert_eq!((m["type"].as_str(), m["state"].as_str()), (Some("audio"), Some("ready")), "{m}");
    let probed_ms = (m["duration"].as_f64().unwrap_or_default() * 1000.0).round() as u64;
    assert!(probed_ms.abs_diff(ms) <= 50, "the probe measures the output's length: {probed_ms} vs {ms} ms");
    assert!(m["waveformUrl"].as_str().is_some_and(|u| !u.is_empty()), "probed as an upload is: {m}");

    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    assert!(doc["paths"]["/diyvrbt/tts/textToVoice"]["post"].is_object(), "the call is in the API document");
    Ok(())
}
