//! The providers for real: the HTTP provider against an OpenAI-compatible server started here on the
//! loopback (success, timeout, 5xx then success, a bad key refused without retry, a server that is
//! down), the catalogue's `available` computed from the configuration and the health check, and the
//! local keyword extraction, title and summary on a known Chinese paragraph.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_ai::provider::HttpProvider;
use reelforge_ai::{AiError, Providers, abilities};
use reelforge_kit::config::{AiConfig, AiProviderConfig};

type Fallible<T = ()> = Result<T, Box<dyn std::error::Error>>;

/// The test server: its behaviour is chosen by the model name; counts the completions asked.
#[derive(Default)]
struct Server {
    calls: AtomicUsize,
}

async fn models(req: HttpRequest) -> HttpResponse {
    if req.headers().get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer good-key") {
        return HttpResponse::Unauthorized().body(r#"{"error":{"message":"bad key"}}"#);
    }
    HttpResponse::Ok().json(serde_json::json!({"data": [{"id": "fixed"}]}))
}

async fn completions(req: HttpRequest, body: web::Json<serde_json::Value>, s: web::Data<Server>) -> HttpResponse {
    let n = s.calls.fetch_add(1, Ordering::SeqCst);
    if req.headers().get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer good-key") {
        return HttpResponse::Unauthorized().body(r#"{"error":{"message":"bad key"}}"#);
    }
    let model = body["model"].as_str().unwrap_or_default().to_owned();
    let system = body["messages"][0]["content"].as_str().unwrap_or_default().to_owned();
    let user = body["messages"][1]["content"].as_str().unwrap_or_default().to_owned();
    match model.as_str() {
        "slow" => tokio::time::sleep(Duration::from_secs(3)).await,
        "flaky" if n % 3 != 2 => return HttpResponse::ServiceUnavailable().body("overloaded"),
        _ => {}
    }
    let answer = format!("[{model}] {} <- {user}", if system.contains("Translate") { "translated" } else { "written" });
    HttpResponse::Ok().json(serde_json::json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": answer}}]}))
}

fn start(server: Arc<Server>) -> Fallible<(String, actix_web::dev::ServerHandle)> {
    let data = web::Data::from(server);
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    let srv = actix_web::HttpServer::new(move || {
        actix_web::App::new()
            .app_data(data.clone())
            .route("/v1/models", web::get().to(models))
            .route("/v1/chat/completions", web::post().to(completions))
    })
    .workers(1)
    .listen(listener)?
    .run();
    let handle = srv.handle();
    tokio::spawn(srv);
    Ok((format!("http://127.0.0.1:{port}/v1"), handle))
}

fn http(base_url: &str, model: &str, key_env: &str) -> AiProviderConfig {
    AiProviderConfig {
        provider: "http".into(),
        base_url: base_url.into(),
        model: model.into(),
        api_key_env: key_env.into(),
        timeout_seconds: 1,
        retries: 2,
        first_retry_ms: 50,
        ..AiProviderConfig::default()
    }
}

fn config(entries: &[(&str, AiProviderConfig)]) -> AiConfig {
    let mut c = AiConfig::default();
    for (k, p) in entries {
        c.abilities.insert((*k).into(), p.clone());
    }
    c
}

#[tokio::test]
async fn http_provider_success_timeout_retry_and_bad_key() -> Fallible {
    // SAFETY: the test binary sets these once here, before any thread reads them.
    unsafe {
        std::env::set_var("AI_TEST_GOOD_KEY", "good-key");
        std::env::set_var("AI_TEST_BAD_KEY", "wrong");
    }
    let server = Arc::new(Server::default());
    let (base, handle) = start(server.clone())?;

    // Success: the completion comes back, with the translation prompt for translation.
    let p = Providers::new(config(&[("text-generation", http(&base, "fixed", "AI_TEST_GOOD_KEY")), ("translation", http(&base, "fixed", "AI_TEST_GOOD_KEY"))]));
    let (text, model) = abilities::generate_text(&p, "qs", "text-generation", "写一句口号", "").await?;
    assert_eq!((text.as_str(), model.as_str()), ("[fixed] written <- 写一句口号", "fixed"));
    let (text, _) = abilities::generate_text(&p, "qs", "translation", "你好", "en-US").await?;
    assert_eq!(text, "[fixed] translated <- 你好");
    // A title configured on the HTTP provider is written by it, not extracted.
    let p = Providers::new(config(&[("title-generation", http(&base, "fixed", "AI_TEST_GOOD_KEY"))]));
    let (text, model) = abilities::generate_text(&p, "qs", "title-generation", "一段话。", "").await?;
    assert_eq!((text.as_str(), model.as_str()), ("[fixed] written <- 一段话。", "fixed"));
    let p = Providers::new(config(&[("text-generation", http(&base, "fixed", "AI_TEST_GOOD_KEY")), ("translation", http(&base, "fixed", "AI_TEST_GOOD_KEY"))]));
    let bad_language = abilities::generate_text(&p, "qs", "translation", "你好", "xx").await;
    assert!(matches!(&bad_language, Err(AiError::BadInput(m)) if m.contains("xx")), "{bad_language:?}");
    let empty = abilities::generate_text(&p, "qs", "text-generation", "  ", "").await;
    assert!(matches!(&empty, Err(AiError::BadInput(m)) if m.contains("empty")), "{empty:?}");
    let long = abilities::generate_text(&p, "qs", "text-generation", &"字".repeat(8001), "").await;
    assert!(matches!(&long, Err(AiError::BadInput(m)) if m.contains("8001")), "{long:?}");

    // Timeout: every try (1 + 2 retries) times out after 1 s, and the error says so.
    let p = Providers::new(config(&[("text-generation", http(&base, "slow", "AI_TEST_GOOD_KEY"))]));
    let before = server.calls.load(Ordering::SeqCst);
    let t0 = Instant::now();
    let timed_out = abilities::generate_text(&p, "qs", "text-generation", "hi", "").await;
    assert!(matches!(timed_out, Err(AiError::Timeout(1))), "{timed_out:?}");
    assert_eq!(server.calls.load(Ordering::SeqCst) - before, 3, "the first try and two retries");
    assert!(t0.elapsed() >= Duration::from_secs(3), "{:?}", t0.elapsed());

    // 5xx twice, then the third try succeeds.
    server.calls.store(0, Ordering::SeqCst);
    let p = Providers::new(config(&[("rewrite", http(&base, "flaky", "AI_TEST_GOOD_KEY"))]));
    let (text, _) = abilities::generate_text(&p, "qs", "rewrite", "原文", "").await?;
    assert_eq!(text, "[flaky] written <- 原文");
    assert_eq!(server.calls.load(Ordering::SeqCst), 3);

    // A bad key: the health check fails, so the ability is unavailable; the call itself, made
    // directly, is refused with 401 once, never retried.
    let cfg = http(&base, "fixed", "AI_TEST_BAD_KEY");
    let p = Providers::new(config(&[("text-generation", cfg.clone())]));
    let state = p.status("qs", "text-generation").await;
    assert!(matches!(&state, Err(u) if u.code == "unreachable" && u.words.contains("401")), "{state:?}");
    let refused = abilities::generate_text(&p, "qs", "text-generation", "hi", "").await;
    assert!(matches!(&refused, Err(AiError::Unavailable(u)) if u.code == "unreachable"), "{refused:?}");
    let provider = HttpProvider::from_config(&cfg, "text-generation").map_err(|u| u.words)?;
    server.calls.store(0, Ordering::SeqCst);
    let direct = provider.chat(p.client(), "s", "u").await;
    assert!(matches!(&direct, Err(AiError::Refused { status: 401, .. })), "{direct:?}");
    assert_eq!(server.calls.load(Ordering::SeqCst), 1, "a 4xx is not retried");

    // A key variable that is not set, and a server that is down.
    let p = Providers::new(config(&[("text-generation", http(&base, "fixed", "AI_TEST_UNSET_KEY"))]));
    assert_eq!(p.status("qs", "text-generation").await.map_err(|u| u.code), Err("key-missing"));
    handle.stop(true).await;
    let p = Providers::new(config(&[("text-generation", http(&base, "fixed", ""))]));
    assert_eq!(p.status("qs", "text-generation").await.map_err(|u| u.code), Err("unreachable"));
    Ok(())
}

#[tokio::test]
async fn availability_is_computed_per_tenant() -> Fallible {
    let mut c = AiConfig::default();
    c.tenants.insert("migu".into(), [("keyword-extraction".to_owned(), AiProviderConfig::default())].into_iter().collect());
    c.abilities.insert("text-to-image".into(), AiProviderConfig { provider: "local".into(), ..AiProviderConfig::default() });
    c.abilities.insert("cutting".into(), AiProviderConfig { provider: "magic".into(), ..AiProviderConfig::default() });
    // Video auditing: the common list, a tenant's own (empty: not configured for it).
    let words = vec!["样例词".to_owned()];
    c.abilities.insert("video-auditing".into(), AiProviderConfig { provider: "local".into(), words, ..AiProviderConfig::default() });
    c.tenants.entry("migu".into()).or_default().insert("video-auditing".into(), AiProviderConfig { provider: "local".into(), ..AiProviderConfig::default() });
    let missing = AiConfig { tesseract_program: "/nonexistent/tesseract".into(), ..c.clone() };
    let p = Providers::new(c);
    assert_eq!(p.status("qs", "keyword-extraction").await, Ok("local"));
    assert_eq!(p.status("migu", "keyword-extraction").await.map_err(|u| u.code), Err("not-configured"), "turned off for migu");
    assert_eq!(p.status("qs", "text-to-image").await.map_err(|u| u.code), Err("no-local-implementation"));
    assert_eq!(p.status("qs", "video-auditing").await, Ok("local"), "tesseract with chi_sim and eng, as `make deps` installs");
    let no_words = p.status("migu", "video-auditing").await;
    assert!(matches!(&no_words, Err(u) if u.code == "not-configured" && u.words.contains("words")), "{no_words:?}");
    assert!(p.audit_words("migu").is_empty() && !p.audit_words("qs").is_empty());
    let no_ocr = Providers::new(missing).status("qs", "video-auditing").await;
    assert!(matches!(&no_ocr, Err(u) if u.code == "not-configured" && u.words.contains("tesseract-ocr-chi-sim")), "{no_ocr:?}");
    assert_eq!(p.status("qs", "cutting").await.map_err(|u| u.code), Err("bad-config"));
    let none = p.status("qs", "text-generation").await;
    assert!(matches!(&none, Err(u) if u.code == "not-configured" && u.words.contains("base_url")), "{none:?}");
    Ok(())
}

#[tokio::test]
async fn keywords_of_a_known_paragraph_name_its_topic() -> Fallible {
    let text = "人工智能技术正在改变视频制作行业。借助人工智能，视频剪辑、字幕生成和配音都可以自动完成。\
                越来越多的视频创作者使用人工智能工具来提高视频制作的效率，短视频平台也在推广智能剪辑功能。";
    let words: Vec<String> = abilities::extract_keywords(text, 5).await?.into_iter().map(|(w, _)| w).collect();
    assert_eq!(words.len(), 5);
    for topic in ["人工智能", "视频"] {
        assert!(words.iter().any(|w| w == topic), "{topic} not in {words:?}");
    }
    let weights: Vec<f64> = abilities::extract_keywords(text, 5).await?.into_iter().map(|(_, w)| w).collect();
    assert!(weights.windows(2).all(|w| w[0] >= w[1]), "heaviest first: {weights:?}");
    assert!(matches!(abilities::extract_keywords("", 5).await, Err(AiError::BadInput(_))));
    assert!(matches!(abilities::extract_keywords("视频", 51).await, Err(AiError::BadInput(m)) if m.contains("51")));
    Ok(())
}

#[tokio::test]
async fn the_local_title_and_summary_are_the_texts_own_central_sentences() -> Fallible {
    let text = "视频彩铃让来电变成一段短视频。今天天气晴朗。用户可以在编辑器里制作视频彩铃，设置给自己的手机号码。\
        运营商审核视频彩铃后，来电时对方就能看到这段视频彩铃。午饭吃了面条。";
    let mut c = AiConfig::default();
    c.tenants.insert("migu".into(), [("dialogue-summary".to_owned(), AiProviderConfig::default())].into_iter().collect());
    let p = Providers::new(c);
    let (title, model) = abilities::generate_text(&p, "qs", "title-generation", text, "").await?;
    assert_eq!(model, reelforge_ai::extract::METHOD);
    assert!(title.contains("视频彩铃") && text.contains(title.as_str()), "{title}");
    let (summary, _) = abilities::generate_text(&p, "qs", "dialogue-summary", text, "").await?;
    assert!(summary.contains("视频彩铃") && !summary.contains("天气") && !summary.contains("面条"), "{summary}");
    let off = abilities::generate_text(&p, "migu", "dialogue-summary", text, "").await;
    assert!(matches!(&off, Err(AiError::Unavailable(u)) if u.code == "not-configured"), "{off:?}");
    let empty = abilities::generate_text(&p, "qs", "title-generation", " ", "").await;
    assert!(matches!(&empty, Err(AiError::BadInput(m)) if m.contains("empty")), "{empty:?}");
    Ok(())
}

#[tokio::test]
async fn gesture_recognition_says_why_it_is_not_offered() {
    // No model ships in a package: not configured, saying so, whatever the defaults hold.
    let p = Providers::new(AiConfig::default());
    let gap = p.status("qs", "gesture-recognition").await.err();
    assert!(gap.as_ref().is_some_and(|u| u.code == "not-configured" && u.words.contains("no gesture-recognition model ships in a registry package")), "{gap:?}");
}
