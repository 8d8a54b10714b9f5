//! The music climax cut (`POST /ai/climax`) on a real track made by GStreamer: quiet, one loud
//! section, quiet again; and the refusals naming their field, each with its `data.reason`.

use reqwest::Method;

use crate::common::{self, Fallible, data, envelope};

/// A WAV track: `quiet_s` quiet, `loud_s` loud, `quiet_s` quiet again (a 440 Hz sine, mono 8 kHz).
fn track(dir: &std::path::Path, quiet_s: u32, loud_s: u32) -> Fallible<Vec<u8>> {
    let out = dir.join("song.wav");
    let part = |seconds: u32, volume: f64| {
        format!("audiotestsrc wave=sine freq=440 volume={volume} samplesperbuffer=800 num-buffers={} ! audio/x-raw,rate=8000,channels=1 ! c. ", seconds * 10)
    };
    let launch = format!(
        "concat name=c ! audioconvert ! wavenc ! filesink location={} {}{}{}",
        out.display(),
        part(quiet_s, 0.03),
        part(loud_s, 0.8),
        part(quiet_s, 0.03)
    );
    let st = std::process::Command::new("gst-launch-1.0").arg("-q").args(launch.split_whitespace()).status()?;
    if !st.success() {
        return Err(format!("gst-launch failed: {launch}").into());
    }
    Ok(std::fs::read(out)?)
}

#[tokio::test]
async fn the_cut_starts_inside_the_loud_section() -> Fallible<()> {
    let s = common::start().await?;
    let me = s.user("qs", "climax", 8).await?;
    let dir = tempfile::tempdir()?;
    let song = common::upload(&s, &me, "song.wav", &track(dir.path(), 10, 8)?).await?;
    let m = common::settled(&s, &me, &song).await?;
    assert_eq!((m["state"].as_str(), m["type"].as_str()), (Some("ready"), Some("audio")), "{m}");

    let cut = data(s.call(Method::POST, "/ai/climax", &me).json(&serde_json::json!({"materialId": song, "seconds": 5}))).await?;
    let (start, end) = (cut["startMs"].as_u64().ok_or("startMs")?, cut["endMs"].as_u64().ok_or("endMs")?);
    assert!((10_000..=13_000).contains(&start), "the cut starts inside the loud section (10–18 s): {cut}");
    assert_eq!(end - start, 5_000, "{cut}");

    let listed = data(s.call(Method::GET, "/ai/abilities", &me)).await?;
    let climax = listed.as_array().and_then(|l| l.iter().find(|a| a["key"] == "music-climax-cut")).ok_or("listed")?;
    assert_eq!(climax["available"], true, "{climax}");

    // Bad input names its field.
    let picture = common::upload(&s, &me, "pic.png", common::PNG).await?;
    common::settled(&s, &me, &picture).await?;
    for (body, field, reason) in [
        (serde_json::json!({"materialId": song, "seconds": 0}), "seconds", "seconds_invalid"),
        (serde_json::json!({"materialId": song, "seconds": 60}), "seconds", "seconds_too_long"),
        (serde_json::json!({"materialId": "no-such-material", "seconds": 5}), "materialId", "material_not_found"),
        (serde_json::json!({"materialId": picture, "seconds": 5}), "materialId", "not_music"),
    ] {
        let answer = envelope(s.call(Method::POST, "/ai/climax", &me).json(&body)).await?;
        let desc = answer["desc"].as_str().unwrap_or_default();
        assert!(answer["code"] == 3000 && desc.starts_with(field), "{body}: {answer}");
        assert_eq!(answer["data"]["reason"], reason, "{body}: {answer}");
    }
    Ok(())
}
