//! The AI abilities that run on the farm as tool runs (docs/ai.md, "Media abilities"): audio noise
//! reduction end to end through the gateway, from an uploaded noisy tone to a cleaner material.

use crate::common;
use crate::toolbox::work_the_job;

use common::{Fallible, data, envelope};
use reelforge_kit::config::AiProviderConfig;
use reelforge_tools::testing::{beeps_snr_db, mono_samples, noisy_beeps, write_wav};
use reqwest::Method;

#[tokio::test]
async fn noise_reduction_runs_on_the_farm_and_raises_the_snr() -> Fallible<()> {
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, |c| {
        c.ai.tenants.insert("cc".into(), [("audio-noise-reduction".to_owned(), AiProviderConfig::default())].into_iter().collect());
    })
    .await?;
    let ann = s.user("qs", "ann", 8).await?;
    let listed = data(s.call(Method::GET, "/ai/abilities", &ann)).await?;
    let find = |key: &str| listed.as_array().and_then(|l| l.iter().find(|a| a["key"] == key)).cloned().ok_or(format!("{key} listed"));
    for key in ["audio-noise-reduction", "echo-cancellation", "gain-control", "cover-generation", "video-highlight-extraction"] {
        let a = find(key)?;
        assert_eq!((a["available"].as_bool(), a["provider"].as_str()), (Some(true), Some("local")), "{a}");
    }
    let dir = tempfile::tempdir()?;
    let noisy = noisy_beeps(6.0, 0.3, 0.05);
    let wav = std::fs::read(write_wav(dir.path(), "noisy.wav", 48_000, &noisy)?)?;
    let material = common::upload(&s, &ann, "noisy.wav", &wav).await?;
    common::settled(&s, &ann, &material).await?;

    // Refused before anything is queued, naming the parameter: a level webrtcdsp has not, an
    // unknown key, the far end missing from an echo cancellation.
    for (kind, params, field) in [
        ("AUDIO_DENOISE", serde_json::json!({"level": "extreme"}), "params.level"),
        ("AUDIO_DENOISE", serde_json::json!({"strength": 3}), "params.strength"),
        ("AUDIO_ECHO_CANCEL", serde_json::json!({}), "materialIds"),
    ] {
        let body = serde_json::json!({"type": kind, "materialIds": [material], "params": params});
        let answer = envelope(s.call(Method::POST, "/toolbox/run", &ann).json(&body)).await?;
        assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{answer}");
    }
    // A tenant with the ability turned off is refused with its reason.
    let cc = s.user("cc", "cid", 8).await?;
    let theirs = common::upload(&s, &cc, "noisy.wav", &wav).await?;
    let body = serde_json::json!({"type": "AUDIO_DENOISE", "materialIds": [theirs], "params": {}});
    let answer = envelope(s.call(Method::POST, "/toolbox/run", &cc).json(&body)).await?;
    assert_eq!((answer["code"].as_i64(), answer["data"]["reason"].as_str()), (Some(3000), Some("not-configured")), "{answer}");
    for user in [&ann, &cc] {
        assert_eq!(data(s.call(Method::GET, "/toolbox/mine", user)).await?["total"], 0, "nothing was queued");
    }

    let params = serde_json::json!({"format": "wav"});
    let run = data(s.call(Method::POST, "/toolbox/run", &ann).json(&serde_json::json!({"type": "AUDIO_DENOISE", "materialIds": [material], "params": params}))).await?;
    let task_id = run["taskId"].as_i64().ok_or("taskId")?;
    let job_id = run["jobId"].as_str().ok_or("jobId")?.to_owned();
    work_the_job(&s, &ann, task_id, &job_id, &wav, params, reelforge_tools::ToolType::AudioDenoise).await?;
    let done = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &ann)).await?;
    assert_eq!((done["type"].as_str(), done["params"]["level"].as_str()), (Some("AUDIO_DENOISE"), Some("high")), "{done}");
    let out = &done["outputs"][0];
    assert_eq!((out["kind"].as_str(), out["name"].as_str()), (Some("audio"), Some("denoised.wav")), "{done}");
    let file = s.call(Method::GET, &format!("/toolbox/file/{task_id}/0"), &ann).send().await?.bytes().await?;
    let got = dir.path().join("got.wav");
    std::fs::write(&got, &file)?;
    let (before, after) = (beeps_snr_db(&noisy), beeps_snr_db(&mono_samples(&got)?));
    assert!(after >= before + 10.0, "SNR {before:.1} → {after:.1} dB");
    let used = data(s.call(Method::POST, "/toolbox/use", &ann).json(&serde_json::json!({"taskId": task_id, "index": 0}))).await?;
    let m = common::settled(&s, &ann, used["materialId"].as_str().ok_or("materialId")?).await?;
    assert_eq!((m["type"].as_str(), m["materialName"].as_str()), (Some("audio"), Some("denoised.wav")), "{m}");
    Ok(())
}
