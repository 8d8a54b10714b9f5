//! Pictures through the HTTP provider (docs/ai.md, "Pictures"): an OpenAI-compatible
//! `POST /images/generations` and `POST /images/variations` started here on the loopback, answering
//! PNGs it draws at the asked size as `b64_json` (or as a URL on its own host): success, the
//! variations form (model, n, size, the square PNG as `image`), a URL on the provider's host
//! fetched and one elsewhere refused, a timeout, 5xx twice then success, a bad key not retried, an
//! answer that is not a picture refused, and the catalogue's `available` from configuration.

use std::io::Cursor;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use reelforge_ai::picture::{self, ImageAsk, SIMILAR_IMAGE, SIMILAR_IMAGE_ABILITY, TEXT_TO_IMAGE, TEXT_TO_IMAGE_ABILITY};
use reelforge_ai::{AiError, Providers};
use reelforge_kit::config::{AiConfig, AiProviderConfig};

type Fallible = Result<(), Box<dyn std::error::Error>>;

/// A variations form as the server read it: its text parts, and its `image` part's size.
type SeenForm = (Vec<(String, String)>, Option<(u32, u32)>);

#[derive(Default)]
struct Server {
    calls: AtomicUsize,
    /// The last variations form's text parts, and the size of the PNG in its `image` part.
    form: Mutex<SeenForm>,
    /// Its own base URL, for answers by URL.
    base: Mutex<String>,
}

/// A PNG of `side`×`side`, a gradient keyed by `seed`.
fn png(side: u32, seed: u8) -> Vec<u8> {
    let img = image::RgbImage::from_fn(side, side, |x, y| image::Rgb([(x * 255 / side) as u8, (y * 255 / side) as u8, seed]));
    let mut out = Vec::new();
    img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png).expect("a PNG is written");
    out
}

fn side_of(size: &str) -> u32 {
    size.split('x').next().and_then(|s| s.parse().ok()).unwrap_or(0)
}

/// Answers `n` pictures for `model`: the model name chooses the behaviour.
async fn answer(server: &Server, model: &str, size: &str, n: u64, authorised: bool) -> HttpResponse {
    let call = server.calls.fetch_add(1, Ordering::SeqCst) + 1;
    if !authorised {
        return HttpResponse::Unauthorized().body(r#"{"error":{"message":"Incorrect API key provided"}}"#);
    }
    let b64 = |seed: u8| base64::engine::general_purpose::STANDARD.encode(png(side_of(size), seed));
    let base = server.base.lock().map(|b| b.clone()).unwrap_or_default();
    match model {
        "slow" => tokio::time::sleep(Duration::from_secs(3)).await,
        "flaky" if call < 3 => return HttpResponse::BadGateway().body("upstream busy"),
        "by-url" => return HttpResponse::Ok().json(serde_json::json!({"data": [{"url": format!("{base}/files/{}.png", side_of(size))}]})),
        "elsewhere" => return HttpResponse::Ok().json(serde_json::json!({"data": [{"url": "http://192.0.2.1/files/1.png"}]})),
        "html" => return HttpResponse::Ok().json(serde_json::json!({"data": [{"b64_json": base64::engine::general_purpose::STANDARD.encode("<html>no</html>")}]})),
        "none" => return HttpResponse::Ok().json(serde_json::json!({"data": []})),
        _ => {}
    }
    let data: Vec<serde_json::Value> = (0..n).map(|i| serde_json::json!({"b64_json": b64(i as u8 * 60)})).collect();
    HttpResponse::Ok().json(serde_json::json!({"created": 0, "data": data}))
}

fn authorised(req: &HttpRequest) -> bool {
    req.headers().get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer bad-key")
}

async fn generations(req: HttpRequest, body: web::Json<serde_json::Value>, server: web::Data<Arc<Server>>) -> HttpResponse {
    let (model, size) = (body["model"].as_str().unwrap_or_default(), body["size"].as_str().unwrap_or_default());
    if body["prompt"].as_str().unwrap_or_default().is_empty() || body["response_format"] != "b64_json" {
        return HttpResponse::BadRequest().body("prompt and b64_json expected");
    }
    answer(&server, model, size, body["n"].as_u64().unwrap_or(1), authorised(&req)).await
}

/// The form's text parts and its `image` part's bytes.
fn read_form(content_type: &str, body: &[u8]) -> (Vec<(String, String)>, Vec<u8>) {
    let boundary = format!("--{}", content_type.split("boundary=").nth(1).unwrap_or_default());
    let mut fields = Vec::new();
    let mut image = Vec::new();
    let mut rest = body;
    while let Some(at) = rest.windows(boundary.len()).position(|w| w == boundary.as_bytes()) {
        let part = &rest[..at];
        rest = &rest[at + boundary.len()..];
        let Some(split) = part.windows(4).position(|w| w == b"\r\n\r\n") else { continue };
        let (head, value) = (String::from_utf8_lossy(&part[..split]).into_owned(), &part[split + 4..]);
        let value = value.strip_suffix(b"\r\n").unwrap_or(value);
        let Some(name) = head.split("name=\"").nth(1).and_then(|n| n.split('"').next()) else { continue };
        if name == "image" {
            image = value.to_vec();
        } else {
            fields.push((name.to_owned(), String::from_utf8_lossy(value).into_owned()));
        }
    }
    (fields, image)
}

async fn variations(req: HttpRequest, body: web::Bytes, server: web::Data<Arc<Server>>) -> HttpResponse {
    let content_type = req.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let (fields, image) = read_form(&content_type, &body);
    let get = |k: &str| fields.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone()).unwrap_or_default();
    let (model, size, n) = (get("model"), get("size"), get("n").parse().unwrap_or(1));
    let source = image::load_from_memory_with_format(&image, image::ImageFormat::Png).ok().map(|p| (p.width(), p.height()));
    if let Ok(mut f) = server.form.lock() {
        *f = (fields, source);
    }
    answer(&server, &model, &size, n, authorised(&req)).await
}

async fn file(path: web::Path<u32>) -> HttpResponse {
    HttpResponse::Ok().content_type("image/png").body(png(path.into_inner(), 7))
}

fn start(server: Arc<Server>) -> Result<String, std::io::Error> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let base = format!("http://127.0.0.1:{}/v1", listener.local_addr()?.port());
    if let Ok(mut b) = server.base.lock() {
        *b = base.clone();
    }
    let srv = actix_web::HttpServer::new(move || {
        actix_web::App::new()
            .app_data(web::Data::new(server.clone()))
            .app_data(web::PayloadConfig::new(16 << 20))
            .route("/v1/models", web::get().to(|| async { HttpResponse::Ok().json(serde_json::json!({"data": []})) }))
            .route("/v1/images/generations", web::post().to(generations))
            .route("/v1/images/variations", web::post().to(variations))
            .route("/v1/files/{side}.png", web::get().to(file))
    })
    .workers(1)
    .listen(listener)?
    .run();
    tokio::spawn(srv);
    Ok(base)
}

fn providers(base: &str, model: &str, key_env: &str) -> Providers {
    let cfg = AiProviderConfig {
        provider: "http".into(),
        base_url: base.into(),
        model: model.into(),
        api_key_env: key_env.into(),
        timeout_seconds: 1,
        retries: 2,
        first_retry_ms: 50,
        ..AiProviderConfig::default()
    };
    let mut c = AiConfig::default();
    c.abilities.insert(TEXT_TO_IMAGE_ABILITY.into(), cfg.clone());
    c.abilities.insert(SIMILAR_IMAGE_ABILITY.into(), cfg);
    Providers::new(c)
}

fn ask(tool: &str, params: serde_json::Value, ids: &[&str]) -> Result<ImageAsk, Box<dyn std::error::Error>> {
    let ids: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
    Ok(ImageAsk::parse(tool, &params, &ids)?)
}

#[tokio::test]
async fn pictures_through_an_openai_compatible_endpoint() -> Fallible {
    let server = Arc::new(Server::default());
    let base = start(server.clone())?;

    // Not configured: the words say what would enable it; nothing is faked.
    let off = Providers::new(AiConfig::default());
    let gap = off.status("qs", TEXT_TO_IMAGE_ABILITY).await.err().ok_or("not configured")?;
    assert_eq!(gap.code, "not-configured");
    assert!(gap.words.contains("provider = \"http\" with base_url"), "{}", gap.words);
    let none = picture::generate(&off, "qs", &ask(TEXT_TO_IMAGE, serde_json::json!({"prompt": "a kite"}), &[])?, None).await;
    assert!(matches!(&none, Err(AiError::Unavailable(u)) if u.code == "not-configured"), "{none:?}");

    let p = providers(&base, "dall-e-2", "");
    assert_eq!(p.status("qs", TEXT_TO_IMAGE_ABILITY).await, Ok("http"));
    assert_eq!(p.status("qs", SIMILAR_IMAGE_ABILITY).await, Ok("http"));

    // Text to image: two pictures of the asked size.
    let two = picture::generate(&p, "qs", &ask(TEXT_TO_IMAGE, serde_json::json!({"prompt": "红色的风筝", "size": "256x256", "count": 2}), &[])?, None).await?;
    let got: Vec<(&str, u32, u32)> = two.iter().map(|p| (p.extension, p.width, p.height)).collect();
    assert_eq!(got, [("png", 256, 256), ("png", 256, 256)]);
    assert_ne!(two[0].bytes, two[1].bytes, "two different pictures");

    // Similar image: the source squared and sent as the form's PNG.
    let source = picture::square_png(png(300, 1), 512).map_err(|e| e.to_string())?;
    let similar = picture::generate(&p, "qs", &ask(SIMILAR_IMAGE, serde_json::json!({"count": 1}), &["7"])?, Some(&source)).await?;
    assert_eq!((similar.len(), similar[0].width), (1, 512));
    let (fields, sent) = server.form.lock().map(|f| f.clone()).map_err(|e| e.to_string())?;
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(fields, [("model", "dall-e-2"), ("n", "1"), ("size", "512x512"), ("response_format", "b64_json")]);
    assert_eq!(sent, Some((512, 512)), "the source went as a square PNG of the asked size");

    // An answer by URL is fetched from the provider's own host only.
    let by_url = picture::generate(&providers(&base, "by-url", ""), "qs", &ask(TEXT_TO_IMAGE, serde_json::json!({"prompt": "a"}), &[])?, None).await?;
    assert_eq!((by_url[0].width, by_url[0].height), (512, 512));
    let elsewhere = picture::generate(&providers(&base, "elsewhere", ""), "qs", &ask(TEXT_TO_IMAGE, serde_json::json!({"prompt": "a"}), &[])?, None).await;
    assert!(matches!(&elsewhere, Err(AiError::Upstream(m)) if m.contains("not on the provider's host")), "{elsewhere:?}");

    // Not a picture, or no picture: the call fails, nothing is kept.
    let html = picture::generate(&providers(&base, "html", ""), "qs", &ask(TEXT_TO_IMAGE, serde_json::json!({"prompt": "a"}), &[])?, None).await;
    assert!(matches!(&html, Err(AiError::Upstream(m)) if m.contains("not a picture")), "{html:?}");
    let none = picture::generate(&providers(&base, "none", ""), "qs", &ask(TEXT_TO_IMAGE, serde_json::json!({"prompt": "a"}), &[])?, None).await;
    assert!(matches!(&none, Err(AiError::Upstream(m)) if m.contains("no picture")), "{none:?}");

    // 5xx twice, then the third try answers.
    server.calls.store(0, Ordering::SeqCst);
    let flaky = picture::generate(&providers(&base, "flaky", ""), "qs", &ask(TEXT_TO_IMAGE, serde_json::json!({"prompt": "a"}), &[])?, None).await?;
    assert_eq!((flaky.len(), server.calls.load(Ordering::SeqCst)), (1, 3));

    // A timeout on every try (1 s each, three tries).
    server.calls.store(0, Ordering::SeqCst);
    let slow = picture::generate(&providers(&base, "slow", ""), "qs", &ask(TEXT_TO_IMAGE, serde_json::json!({"prompt": "a"}), &[])?, None).await;
    assert!(matches!(slow, Err(AiError::Timeout(1))), "{slow:?}");
    assert_eq!(server.calls.load(Ordering::SeqCst), 3, "a timeout is tried again");

    // A bad key: refused with the provider's words, not retried. (The health check's GET /models
    // takes any key here, so the call itself meets the refusal.)
    // SAFETY: set once, before any thread of this test reads it; the name is this test's own.
    unsafe { std::env::set_var("REELFORGE_TEST_IMAGE_KEY", "bad-key") };
    server.calls.store(0, Ordering::SeqCst);
    let locked = picture::generate(&providers(&base, "dall-e-2", "REELFORGE_TEST_IMAGE_KEY"), "qs", &ask(TEXT_TO_IMAGE, serde_json::json!({"prompt": "a"}), &[])?, None).await;
    assert!(matches!(&locked, Err(AiError::Refused { status: 401, body }) if body.contains("Incorrect API key")), "{locked:?}");
    assert_eq!(server.calls.load(Ordering::SeqCst), 1, "a 4xx is not retried");
    let words = locked.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(words.starts_with("the AI provider refused the call (401)"), "{words}");
    Ok(())
}
