//! Speech recognition end to end (`POST /ASR/voiceToText`, docs/ai.md "Speech recognition"): the
//! ability listed available from what is installed, the refusals naming their field or reason, a
//! run queued on the farm and worked as the worker does (the material's sound made 16 kHz mono by
//! GStreamer, recognised by the local PocketSphinx), its events, its transcript read back as a file.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use reelforge_kit::config::AiProviderConfig;
use reqwest::Method;

use crate::common::{self, Fallible, data, envelope};

/// Plays the farm's worker for a recognition: starts the job, decodes and recognises the sound
/// the material holds (`bytes`), stores the transcript under the job's prefix and finishes the run.
async fn recognise_the_job(s: &common::System, user: &common::User, task_id: i64, job_id: &str, bytes: Vec<u8>) -> Fallible<()> {
    let job = reelforge_task::JobRef { tenant: user.tenant.clone(), task_id, job_id: job_id.to_owned(), attempt: 1 };
    if !s.tasks.start(&job, 60_000).await? {
        return Err("the recognition job did not start".into());
    }
    let dir = tempfile::tempdir()?;
    let (source, speech) = (dir.path().join("speech.wav"), dir.path().join("speech-16k.wav"));
    std::fs::write(&source, bytes)?;
    let transcript = tokio::task::spawn_blocking(move || -> Result<reelforge_ai::asr::Transcript, String> {
        let no = AtomicBool::new(false);
        reelforge_tools::speech_sound::speech_wav(&source, &speech, reelforge_ai::asr::SAMPLE_RATE, &no, &mut |_| {}).map_err(|e| e.to_string())?;
        let ms = std::fs::metadata(&speech).map_err(|e| e.to_string())?.len().saturating_sub(44) * 1000 / 32_000;
        let asr = reelforge_ai::asr::PocketSphinx::new("pocketsphinx_continuous", std::path::Path::new("/usr/share/pocketsphinx/model/en-us"));
        asr.recognise(&speech, ms, Duration::from_secs(60), &no).map_err(|e| e.to_string())
    })
    .await??;
    let json = serde_json::to_vec(&transcript)?;
    let key = format!("{}0-transcript.json", reelforge_worker::tool_prefix(&user.tenant, task_id, job_id));
    s.blobs.put(&key, json.clone()).await?;
    let output = reelforge_task::ToolOutput {
        key,
        kind: "report".into(),
        name: "transcript.json".into(),
        size: json.len() as u64,
        duration_ms: transcript.duration_ms,
        width: 0,
        height: 0,
        ranges: Vec::new(),
    };
    if !s.tasks.finish(&job, false, reelforge_task::FinishOutcome::Tool { outputs: vec![output] }).await? {
        return Err("the recognition job did not finish".into());
    }
    Ok(())
}

#[tokio::test]
async fn a_recognition_runs_on_the_farm_and_answers_words_with_their_times() -> Fallible<()> {
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        let off = AiProviderConfig::default();
        c.ai.tenants.insert("cc".into(), [(reelforge_ai::asr::ABILITY.to_owned(), off)].into_iter().collect());
    })
    .await?;
    let me = s.user("qs", "listener", 8).await?;
    let listed = data(s.call(Method::GET, "/ai/abilities", &me)).await?;
    let asr = listed.as_array().and_then(|l| l.iter().find(|a| a["key"] == reelforge_ai::asr::ABILITY)).cloned().ok_or("listed")?;
    assert_eq!((asr["available"].as_bool(), asr["provider"].as_str()), (Some(true), Some("local")), "{asr}");

    let speech = reelforge_ai::Speech { text: "We will meet at the station tomorrow morning.".into(), voice: reelforge_ai::Voice::English, rate: 1.0, pitch: 50 };
    let wav = reelforge_ai::speech::Espeak::new("espeak-ng").synthesise(&speech, &AtomicBool::new(false), &mut |_| {})?;
    let sound = common::upload(&s, &me, "speech.wav", wav.bytes()).await?;
    let picture = common::upload(&s, &me, "pic.png", common::PNG).await?;
    for (body, field) in [
        (serde_json::json!({}), "materialId"),
        (serde_json::json!({"materialId": sound, "language": "fr"}), "language"),
        (serde_json::json!({"materialId": sound, "speed": 2}), "speed"),
        (serde_json::json!({"materialId": picture}), "materialId"),
        (serde_json::json!({"materialId": "999999"}), "materialId"),
    ] {
        let answer = envelope(s.call(Method::POST, "/ASR/voiceToText", &me).json(&body)).await?;
        assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{answer}");
    }
    let mandarin = envelope(s.call(Method::POST, "/ASR/voiceToText", &me).json(&serde_json::json!({"materialId": sound, "language": "cmn"}))).await?;
    assert_eq!((mandarin["code"].as_i64(), mandarin["data"]["reason"].as_str(), mandarin["data"]["field"].as_str()), (Some(3000), Some("not-configured"), Some("language")), "{mandarin}");
    assert!(mandarin["desc"].as_str().is_some_and(|d| d.contains("Mandarin")), "{mandarin}");
    let toolbox = envelope(s.call(Method::POST, "/toolbox/run", &me).json(&serde_json::json!({"type": "VOICE_TO_TEXT", "materialIds": [sound]}))).await?;
    assert_eq!((toolbox["code"].as_i64(), toolbox["data"]["field"].as_str()), (Some(3000), Some("type")), "{toolbox}");
    let deaf = s.user("cc", "deaf", 8).await?;
    let theirs = common::upload(&s, &deaf, "speech.wav", wav.bytes()).await?;
    let answer = envelope(s.call(Method::POST, "/ASR/voiceToText", &deaf).json(&serde_json::json!({"materialId": theirs}))).await?;
    assert_eq!((answer["code"].as_i64(), answer["data"]["reason"].as_str()), (Some(3000), Some("not-configured")), "{answer}");

    // Form-encoded, as the spec's client may send it.
    let run = data(s.call(Method::POST, "/ASR/voiceToText", &me).form(&[("materialId", sound.as_str()), ("language", "en")])).await?;
    let task_id = run["taskId"].as_i64().ok_or("taskId")?;
    let job_id = run["jobId"].as_str().ok_or("jobId")?.to_owned();
    let queued = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &me)).await?;
    assert_eq!((queued["status"].as_i64(), queued["type"].as_str(), queued["params"]["language"].as_str()), (Some(0), Some("VOICE_TO_TEXT"), Some("en")), "{queued}");

    recognise_the_job(&s, &me, task_id, &job_id, wav.bytes().to_vec()).await?;
    let events = s.call(Method::GET, &format!("/videotask/events?taskId={task_id}"), &me).send().await?.text().await?;
    assert!(events.contains("event: done"), "{events}");
    let file = s.call(Method::GET, &format!("/toolbox/file/{task_id}/0"), &me).send().await?;
    assert!(file.headers().get("content-type").and_then(|v| v.to_str().ok()).is_some_and(|t| t.starts_with("application/json")), "{file:?}");
    let transcript: serde_json::Value = file.json().await?;
    let words = transcript["words"].as_array().ok_or("words")?;
    assert!(!words.is_empty(), "{transcript}");
    let joined: Vec<&str> = words.iter().filter_map(|w| w["word"].as_str()).collect();
    assert_eq!(transcript["text"].as_str(), Some(joined.join(" ").as_str()), "{transcript}");
    assert!(words.iter().all(|w| w["startMs"].as_u64() < w["endMs"].as_u64() && w["endMs"].as_u64() <= Some(wav.duration_ms() + 50)), "{transcript}");
    let used = envelope(s.call(Method::POST, "/toolbox/use", &me).json(&serde_json::json!({"taskId": task_id, "index": 0}))).await?;
    assert_eq!((used["code"].as_i64(), used["data"]["field"].as_str()), (Some(3000), Some("index")), "a transcript is read, not a material: {used}");
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &me)).await?["total"], 0, "a recognition is not a toolbox run");

    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    assert!(doc["paths"]["/diyvrbt/ASR/voiceToText"]["post"].is_object(), "the call is in the API document");
    Ok(())
}
