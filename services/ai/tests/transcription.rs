//! Speech recognition through the HTTP provider (docs/ai.md, "Speech recognition"): an
//! OpenAI-compatible `POST /audio/transcriptions` started here on the loopback, reading the
//! multipart form it is sent (model, language, verbose_json with word timestamps, the WAV) and
//! answering words with their times: success (Mandarin too), 5xx twice then success, a 401 not
//! retried, an answer with no word refused as no speech.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_ai::asr::{self, Language};
use reelforge_ai::{AiError, Providers};
use reelforge_kit::config::{AiConfig, AiProviderConfig};

type Fallible = Result<(), Box<dyn std::error::Error>>;

#[derive(Default)]
struct Server {
    calls: AtomicUsize,
    /// The last form's text parts and whether its file part held the WAV.
    last: Mutex<(Vec<(String, String)>, bool)>,
}

/// The form's text parts, and whether a part named `file` holds `RIFF…WAVE`.
fn read_form(content_type: &str, body: &[u8]) -> (Vec<(String, String)>, bool) {
    let boundary = content_type.split("boundary=").nth(1).unwrap_or_default();
    let text = String::from_utf8_lossy(body);
    let mut fields = Vec::new();
    let mut file = false;
    for part in text.split(&format!("--{boundary}")) {
        let Some((head, value)) = part.split_once("\r\n\r\n") else { continue };
        let Some(name) = head.split("name=\"").nth(1).and_then(|n| n.split('"').next()) else { continue };
        if name == "file" {
            file = value.starts_with("RIFF") && value.contains("WAVE");
        } else {
            fields.push((name.to_owned(), value.trim_end_matches("\r\n").to_owned()));
        }
    }
    (fields, file)
}

async fn transcriptions(req: HttpRequest, body: web::Bytes, server: web::Data<Arc<Server>>) -> HttpResponse {
    let n = server.calls.fetch_add(1, Ordering::SeqCst) + 1;
    let content_type = req.headers().get("content-type").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    let (fields, file) = read_form(&content_type, &body);
    let model = fields.iter().find(|(k, _)| k == "model").map(|(_, v)| v.clone()).unwrap_or_default();
    let language = fields.iter().find(|(k, _)| k == "language").map(|(_, v)| v.clone()).unwrap_or_default();
    if let Ok(mut last) = server.last.lock() {
        *last = (fields, file);
    }
    match model.as_str() {
        "flaky" if n < 3 => HttpResponse::ServiceUnavailable().body("busy"),
        "locked" => HttpResponse::Unauthorized().body("bad key"),
        "silent" => HttpResponse::Ok().json(serde_json::json!({"text": "", "words": []})),
        _ if language == "zh" => HttpResponse::Ok().json(serde_json::json!({"text": "你好世界", "words": [
            {"word": "你好", "start": 0.1, "end": 0.5}, {"word": "世界", "start": 0.55, "end": 1.0}]})),
        _ => HttpResponse::Ok().json(serde_json::json!({"text": "hello world", "words": [
            {"word": " hello", "start": 0.12, "end": 0.48}, {"word": "world", "start": 0.52, "end": 0.99}]})),
    }
}

fn start(server: Arc<Server>) -> Result<String, std::io::Error> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    let srv = actix_web::HttpServer::new(move || {
        actix_web::App::new()
            .app_data(web::Data::new(server.clone()))
            .route("/v1/models", web::get().to(|| async { HttpResponse::Ok().json(serde_json::json!({"data": []})) }))
            .route("/v1/audio/transcriptions", web::post().to(transcriptions))
    })
    .workers(1)
    .listen(listener)?
    .run();
    tokio::spawn(srv);
    Ok(format!("http://127.0.0.1:{port}/v1"))
}

/// A 16 kHz mono WAV header and a little silence: what the worker sends.
fn wav() -> Vec<u8> {
    let data = 3200u32;
    let mut out = Vec::new();
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    // PCM, one channel, 16 000 Hz, 32 000 bytes a second, 2-byte frames of 16 bits.
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&16_000u32.to_le_bytes());
    out.extend_from_slice(&32_000u32.to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data.to_le_bytes());
    out.resize(44 + data as usize, 0);
    out
}

#[tokio::test]
async fn recognition_through_an_openai_compatible_endpoint() -> Fallible {
    let server = Arc::new(Server::default());
    let base = start(server.clone())?;
    let providers = |model: &str| {
        let cfg = AiProviderConfig {
            provider: "http".into(),
            base_url: base.clone(),
            model: model.into(),
            timeout_seconds: 2,
            retries: 2,
            first_retry_ms: 50,
            ..AiProviderConfig::default()
        };
        let mut c = AiConfig::default();
        c.abilities.insert(asr::ABILITY.into(), cfg);
        Providers::new(c)
    };
    let p = providers("whisper-1");
    assert_eq!(p.status("qs", asr::ABILITY).await, Ok("http"));
    let t = asr::recognise_http(&p, "qs", &wav(), Language::English, 100).await?;
    assert_eq!((t.text.as_str(), t.model.as_str(), t.language.as_str()), ("hello world", "http whisper-1", "en"));
    let times: Vec<(&str, u64, u64)> = t.words.iter().map(|w| (w.word.as_str(), w.start_ms, w.end_ms)).collect();
    assert_eq!(times, [("hello", 120, 480), ("world", 520, 990)]);
    let (fields, file) = server.last.lock().map(|l| l.clone()).map_err(|e| e.to_string())?;
    let fields: Vec<(&str, &str)> = fields.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(fields, [("model", "whisper-1"), ("language", "en"), ("response_format", "verbose_json"), ("timestamp_granularities[]", "word")]);
    assert!(file, "the WAV is the form's file part");

    let zh = asr::recognise_http(&p, "qs", &wav(), Language::Mandarin, 100).await?;
    assert_eq!(zh.text, "你好世界", "Chinese words written together");

    server.calls.store(0, Ordering::SeqCst);
    asr::recognise_http(&providers("flaky"), "qs", &wav(), Language::English, 100).await?;
    assert_eq!(server.calls.load(Ordering::SeqCst), 3, "5xx twice, then the third try");

    server.calls.store(0, Ordering::SeqCst);
    let locked = asr::recognise_http(&providers("locked"), "qs", &wav(), Language::English, 100).await;
    assert!(matches!(locked, Err(AiError::Refused { status: 401, .. })), "{locked:?}");
    assert_eq!(server.calls.load(Ordering::SeqCst), 1, "a 4xx is not retried");

    let silent = asr::recognise_http(&providers("silent"), "qs", &wav(), Language::English, 100).await;
    assert!(matches!(&silent, Err(AiError::BadInput(m)) if m.contains("no speech")), "{silent:?}");
    Ok(())
}
