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
