//! Pictures end to end (`POST /ai/textToImage`, `POST /ai/similarImage`, docs/ai.md "Pictures"):
//! listed available from the configured provider (an OpenAI-compatible images endpoint started here
//! on the loopback, answering PNGs of the asked size as `b64_json`), the refusals naming their field
//! or reason with nothing queued, a run of each queued and worked as the worker does, its pictures
//! served, and one made a material that probes as a picture of the asked size.

use std::io::Cursor;

use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use reelforge_ai::picture::{self, ImageAsk, SIMILAR_IMAGE_ABILITY, TEXT_TO_IMAGE_ABILITY};
use reelforge_kit::config::{AiConfig, AiProviderConfig};
use reqwest::Method;

use crate::common::{self, Fallible, data, envelope};

fn png(side: u32, seed: u8) -> Vec<u8> {
    let img = image::RgbImage::from_fn(side, side, |x, y| image::Rgb([(x * 255 / side) as u8, (y * 255 / side) as u8, seed]));
    let mut out = Vec::new();
    let _ = img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png);
    out
}

/// Answers `n` PNGs of the asked size, for a JSON body (generations) or a form (variations).
async fn images(req: HttpRequest, body: web::Bytes) -> HttpResponse {
    let (size, n) = if req.path().ends_with("generations") {
        let v: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        (v["size"].as_str().unwrap_or_default().to_owned(), v["n"].as_u64().unwrap_or(1))
    } else {
        let text = String::from_utf8_lossy(&body);
        let field = |name: &str| text.split(&format!("name=\"{name}\"\r\n\r\n")).nth(1).and_then(|v| v.split("\r\n").next()).unwrap_or_default().to_owned();
        (field("size"), field("n").parse().unwrap_or(1))
    };
    let side = size.split('x').next().and_then(|s| s.parse().ok()).unwrap_or(0);
    let data: Vec<serde_json::Value> =
        (0..n).map(|i| serde_json::json!({"b64_json": base64::engine::general_purpose::STANDARD.encode(png(side, i as u8 * 70))})).collect();
    HttpResponse::Ok().json(serde_json::json!({"data": data}))
}

fn endpoint() -> Fallible<String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    let srv = actix_web::HttpServer::new(|| {
        actix_web::App::new()
            .app_data(web::PayloadConfig::new(16 << 20))
            .route("/v1/models", web::get().to(|| async { HttpResponse::Ok().json(serde_json::json!({"data": []})) }))
            .route("/v1/images/generations", web::post().to(images))
            .route("/v1/images/variations", web::post().to(images))
    })
    .workers(1)
    .listen(listener)?
    .run();
    tokio::spawn(srv);
    Ok(format!("http://127.0.0.1:{port}/v1"))
}

/// Plays the farm's worker for a picture run: starts the job, asks the provider as the worker does
/// (`source`: the similar image's material bytes), stores the pictures and finishes the run.
async fn draw_the_job(s: &common::System, user: &common::User, providers: &reelforge_ai::Providers, run: &serde_json::Value, source: Option<&[u8]>) -> Fallible<i64> {
    let task_id = run["taskId"].as_i64().ok_or("taskId")?;
    let job_id = run["jobId"].as_str().ok_or("jobId")?.to_owned();
    let queued = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), user)).await?;
    let ids: Vec<String> = queued["materialIds"].as_array().map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect()).unwrap_or_default();
    let ask = ImageAsk::parse(queued["type"].as_str().ok_or("type")?, &queued["params"], &ids)?;
    let job = reelforge_task::JobRef { tenant: user.tenant.clone(), task_id, job_id: job_id.clone(), attempt: 1 };
    if !s.tasks.start(&job, 60_000).await? {
        return Err("the picture job did not start".into());
    }
    let square = match source {
        Some(bytes) => Some(picture::square_png(bytes.to_vec(), ask.size)?),
        None => None,
    };
    let pictures = picture::generate(providers, &user.tenant, &ask, square.as_deref()).await?;
    let mut outputs = Vec::new();
    for (i, p) in pictures.into_iter().enumerate() {
        let name = format!("picture-{}.{}", i + 1, p.extension);
        let key = format!("{}{i}-{name}", reelforge_worker::tool_prefix(&user.tenant, task_id, &job_id));
        s.blobs.put(&key, p.bytes.clone()).await?;
        outputs.push(reelforge_task::ToolOutput { key, kind: "picture".into(), name, size: p.bytes.len() as u64, duration_ms: 0, width: p.width, height: p.height, ranges: Vec::new() });
    }
    if !s.tasks.finish(&job, false, reelforge_task::FinishOutcome::Tool { outputs }).await? {
        return Err("the picture job did not finish".into());
    }
    Ok(task_id)
}

#[tokio::test]
async fn pictures_run_on_the_farm_and_become_materials() -> Fallible<()> {
    let base = endpoint()?;
    let http = AiProviderConfig { provider: "http".into(), base_url: base, model: "dall-e-2".into(), timeout_seconds: 5, retries: 1, first_retry_ms: 50, ..AiProviderConfig::default() };
    let mut ai = AiConfig::default();
    for key in [TEXT_TO_IMAGE_ABILITY, SIMILAR_IMAGE_ABILITY] {
        ai.abilities.insert(key.into(), http.clone());
    }
    ai.tenants.insert("cc".into(), [TEXT_TO_IMAGE_ABILITY, SIMILAR_IMAGE_ABILITY].into_iter().map(|k| (k.to_owned(), AiProviderConfig::default())).collect());
    let providers = reelforge_ai::Providers::new(ai.clone());
    let s = common::start_on(&reelforge_kit::testing::fresh_sqlite(), None, move |c| c.ai = ai).await?;
    let me = s.user("qs", "painter", 8).await?;
    let listed = data(s.call(Method::GET, "/ai/abilities", &me)).await?;
    for key in [TEXT_TO_IMAGE_ABILITY, SIMILAR_IMAGE_ABILITY] {
        let a = listed.as_array().and_then(|l| l.iter().find(|a| a["key"] == key)).cloned().ok_or("listed")?;
        assert_eq!((a["available"].as_bool(), a["provider"].as_str()), (Some(true), Some("http")), "{a}");
    }

    let mine = common::upload(&s, &me, "source.png", &png(300, 20)).await?;
    let dir = tempfile::tempdir()?;
    let tone: Vec<f32> = (0..16_000).map(|i| (i as f32 * 0.1).sin() * 0.3).collect();
    let wav = std::fs::read(reelforge_tools::testing::write_wav(dir.path(), "tone.wav", 16_000, &tone)?)?;
    let sound = common::upload(&s, &me, "tone.wav", &wav).await?;
    let other = s.user("qs", "neighbour", 8).await?;
    let theirs = common::upload(&s, &other, "theirs.png", common::PNG).await?;
    let long = "画".repeat(1001);
    for (route, body, field) in [
        ("/ai/textToImage", serde_json::json!({}), "prompt"),
        ("/ai/textToImage", serde_json::json!({"prompt": "  "}), "prompt"),
        ("/ai/textToImage", serde_json::json!({"prompt": long}), "prompt"),
        ("/ai/textToImage", serde_json::json!({"prompt": "a kite", "size": "300x300"}), "size"),
        ("/ai/textToImage", serde_json::json!({"prompt": "a kite", "count": 9}), "count"),
        ("/ai/textToImage", serde_json::json!({"prompt": "a kite", "quality": "hd"}), "quality"),
        ("/ai/similarImage", serde_json::json!({}), "materialId"),
        ("/ai/similarImage", serde_json::json!({"materialId": sound}), "materialId"),
        ("/ai/similarImage", serde_json::json!({"materialId": theirs}), "materialId"),
        ("/ai/similarImage", serde_json::json!({"materialId": "999999"}), "materialId"),
        ("/ai/similarImage", serde_json::json!({"materialId": mine, "prompt": "x"}), "prompt"),
    ] {
        let answer = envelope(s.call(Method::POST, route, &me).json(&body)).await?;
        assert_eq!((answer["code"].as_i64(), answer["data"]["field"].as_str()), (Some(3000), Some(field)), "{route} {body}: {answer}");
    }
    for kind in ["TEXT_TO_IMAGE", "SIMILAR_IMAGE"] {
        let toolbox = envelope(s.call(Method::POST, "/toolbox/run", &me).json(&serde_json::json!({"type": kind, "materialIds": [mine]}))).await?;
        assert_eq!((toolbox["code"].as_i64(), toolbox["data"]["field"].as_str()), (Some(3000), Some("type")), "{toolbox}");
    }
    let cc = s.user("cc", "plain", 8).await?;
    let answer = envelope(s.call(Method::POST, "/ai/textToImage", &cc).json(&serde_json::json!({"prompt": "a kite"}))).await?;
    assert_eq!((answer["code"].as_i64(), answer["data"]["reason"].as_str()), (Some(3000), Some("not-configured")), "{answer}");

    // Text to image: two pictures of 256×256; one made a material.
    let run = data(s.call(Method::POST, "/ai/textToImage", &me).json(&serde_json::json!({"prompt": "红色的风筝", "size": "256x256", "count": 2}))).await?;
    let task_id = draw_the_job(&s, &me, &providers, &run, None).await?;
    let events = s.call(Method::GET, &format!("/videotask/events?taskId={task_id}"), &me).send().await?.text().await?;
    assert!(events.contains("event: done"), "{events}");
    let done = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &me)).await?;
    assert_eq!((done["type"].as_str(), done["params"]["prompt"].as_str(), done["outputs"].as_array().map(Vec::len)), (Some("TEXT_TO_IMAGE"), Some("红色的风筝"), Some(2)), "{done}");
    let file = s.call(Method::GET, &format!("/toolbox/file/{task_id}/1"), &me).send().await?;
    assert_eq!(file.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("image/png"));
    let served = image::load_from_memory(&file.bytes().await?)?;
    assert_eq!((served.width(), served.height()), (256, 256));
    let used = data(s.call(Method::POST, "/toolbox/use", &me).json(&serde_json::json!({"taskId": task_id, "index": 0}))).await?;
    let m = common::settled(&s, &me, used["materialId"].as_str().ok_or("materialId")?).await?;
    assert_eq!((m["type"].as_str(), m["state"].as_str(), m["size"].as_str()), (Some("picture"), Some("ready"), Some("256x256")), "{m}");
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &me)).await?["total"], 0, "a picture run is not a toolbox run");

    // Similar image of the caller's picture, 512×512.
    let run = data(s.call(Method::POST, "/ai/similarImage", &me).json(&serde_json::json!({"materialId": mine}))).await?;
    let task_id = draw_the_job(&s, &me, &providers, &run, Some(&png(300, 20))).await?;
    let done = data(s.call(Method::GET, &format!("/toolbox/run/{task_id}"), &me)).await?;
    assert_eq!((done["type"].as_str(), done["outputs"][0]["width"].as_u64(), done["outputs"][0]["height"].as_u64()), (Some("SIMILAR_IMAGE"), Some(512), Some(512)), "{done}");
    let used = data(s.call(Method::POST, "/toolbox/use", &me).json(&serde_json::json!({"taskId": task_id, "index": 0}))).await?;
    let m = common::settled(&s, &me, used["materialId"].as_str().ok_or("materialId")?).await?;
    assert_eq!((m["type"].as_str(), m["size"].as_str()), (Some("picture"), Some("512x512")), "{m}");

    let doc: serde_json::Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    for path in ["/diyvrbt/ai/textToImage", "/diyvrbt/ai/similarImage"] {
        assert!(doc["paths"][path]["post"].is_object(), "{path} is in the API document");
    }
    Ok(())
}
