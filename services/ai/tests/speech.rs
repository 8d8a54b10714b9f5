//! Text to speech for real. The local voice (espeak-ng, installed by `make deps`) on Mandarin and
//! English sentences, measured: the length grows with the text and with a slower rate, the sound
//! is well above silence, and the pitch parameter moves the measured fundamental. A text that
//! looks like options is spoken, never obeyed; a missing program makes the ability "not
//! configured". The HTTP provider's `POST /audio/speech` against an OpenAI-compatible server
//! started here: success (the voice mapped, a streamed header mended), 5xx then success, timeout,
//! a 4xx not retried, an answer that is not a WAV.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_ai::speech::{self, Espeak, Speech};
use reelforge_ai::{AiError, Providers, Wav};
use reelforge_kit::config::{AiConfig, AiProviderConfig};
use serde_json::json;

type Fallible<T = ()> = Result<T, Box<dyn std::error::Error>>;

fn say(text: &str, voice: &str, rate: f64, pitch: u32) -> Fallible<Wav> {
    let speech = Speech::parse(&json!({"text": text, "voice": voice, "rate": rate, "pitch": pitch}))?;
    Ok(Espeak::new("espeak-ng").synthesise(&speech, &AtomicBool::new(false), &mut |_| {})?)
}

/// Root mean square level of the whole clip, dB below full scale.
fn rms_dbfs(wav: &Wav) -> f64 {
    let x = wav.mono();
    let power = x.iter().map(|s| f64::from(*s) * f64::from(*s)).sum::<f64>() / x.len().max(1) as f64;
    10.0 * power.max(1e-12).log10()
}

/// The median fundamental frequency (Hz) of the voiced 40 ms frames. For each frame loud enough,
/// the normalised autocorrelation over the lags of 50–500 Hz; a frame whose strongest peak is above
/// 0.6 is voiced, and its period is the shortest lag at a local peak within 90 % of the strongest
/// (so that a period's multiples, nearly as strong, do not halve the figure).
fn median_f0(wav: &Wav) -> f64 {
    let x = wav.mono();
    let sr = wav.sample_rate() as usize;
    let frame = sr * 40 / 1000;
    let (min_lag, max_lag) = (sr / 500, sr / 50);
    let mut f0s = Vec::new();
    let mut at = 0;
    while at + frame + max_lag < x.len() {
        let w = &x[at..at + frame];
        let energy: f32 = w.iter().map(|s| s * s).sum();
        if energy / frame as f32 > 1e-4 {
            let r: Vec<f32> = (min_lag..=max_lag + 1)
                .map(|lag| {
                    let seg = &x[at + lag..at + lag + frame];
                    let num: f32 = w.iter().zip(seg).map(|(a, b)| a * b).sum();
                    let e2: f32 = seg.iter().map(|s| s * s).sum();
                    num / (energy * e2).sqrt().max(1e-9)
                })
                .collect();
            let best = r.iter().copied().fold(0.0f32, f32::max);
            let peak = (1..r.len() - 1).find(|&i| r[i] >= 0.9 * best && r[i] >= r[i - 1] && r[i] >= r[i + 1]);
            if let (true, Some(i)) = (best > 0.6, peak) {
                f0s.push(sr as f64 / (min_lag + i) as f64);
            }
        }
        at += frame / 2;
    }
    f0s.sort_by(f64::total_cmp);
    f0s.get(f0s.len() / 2).copied().unwrap_or(0.0)
}

const SENTENCES: [(&str, &str, &str); 2] = [
    ("cmn", "你好，欢迎使用。", "你好，欢迎使用视频编辑平台，今天我们一起来制作一段有配音的短视频。"),
    ("en", "Hello, welcome.", "Hello, welcome to the video editor. Today we will make a short video with a voice over."),
];

#[test]
fn the_length_grows_with_the_text_and_a_slower_rate() -> Fallible {
    for (voice, short, long) in SENTENCES {
        let (s, l) = (say(short, voice, 1.0, 50)?, say(long, voice, 1.0, 50)?);
        let slow = say(long, voice, 0.5, 50)?;
        println!("{voice}: short {} ms, long {} ms, long at half speed {} ms", s.duration_ms(), l.duration_ms(), slow.duration_ms());
        assert!(s.duration_ms() > 500, "{voice}: {} ms", s.duration_ms());
        assert!(l.duration_ms() as f64 > 2.0 * s.duration_ms() as f64, "{voice}: {} vs {} ms", l.duration_ms(), s.duration_ms());
        assert!(slow.duration_ms() as f64 > 1.5 * l.duration_ms() as f64, "{voice}: {} vs {} ms", slow.duration_ms(), l.duration_ms());
    }
    Ok(())
}

#[test]
fn the_sound_is_well_above_silence() -> Fallible {
    for (voice, _, long) in SENTENCES {
        let w = say(long, voice, 1.0, 50)?;
        let level = rms_dbfs(&w);
        let peak = w.mono().iter().fold(0.0f32, |m, s| m.max(s.abs()));
        println!("{voice}: {level:.1} dBFS RMS, peak {peak:.2}");
        assert!(level > -30.0, "{voice}: {level:.1} dBFS");
        assert!(peak > 0.2, "{voice}: peak {peak}");
    }
    Ok(())
}

#[test]
fn the_pitch_parameter_moves_the_fundamental() -> Fallible {
    for (voice, _, long) in SENTENCES {
        let (low, mid, high) = (median_f0(&say(long, voice, 1.0, 0)?), median_f0(&say(long, voice, 1.0, 50)?), median_f0(&say(long, voice, 1.0, 99)?));
        println!("{voice}: median f0 {low:.0} Hz at pitch 0, {mid:.0} Hz at 50, {high:.0} Hz at 99");
        // Measured 2026-11-27: cmn 61 / 77 / 146 Hz, en 73 / 103 / 171 Hz.
        assert!(low > 50.0 && mid > low * 1.15 && high > mid * 1.4, "{voice}: {low:.0} / {mid:.0} / {high:.0} Hz");
    }
    Ok(())
}

#[test]
fn a_text_that_looks_like_options_is_spoken_not_obeyed() -> Fallible {
    let dir = tempfile::tempdir()?;
    let target = dir.path().join("pwned.wav");
    let text = format!("-w {} --version\n-v fr", target.display());
    let w = say(&text, "en", 1.0, 50)?;
    assert!(w.duration_ms() > 1000, "the words were spoken: {} ms", w.duration_ms());
    assert!(!target.exists(), "no file was written where the text said");
    Ok(())
}

#[test]
fn a_cancelled_synthesis_stops() -> Fallible {
    let speech = Speech::parse(&json!({"text": "字".repeat(speech::MAX_CHARS), "voice": "cmn"}))?;
    let said = Espeak::new("espeak-ng").synthesise(&speech, &AtomicBool::new(true), &mut |_| {});
    assert!(matches!(said, Err(AiError::Cancelled)), "{said:?}");
    Ok(())
}

#[tokio::test]
async fn without_espeak_ng_the_local_voice_is_not_configured() -> Fallible {
    let c = AiConfig { espeak_program: "/nonexistent/espeak-ng".into(), ..AiConfig::default() };
    let p = Providers::new(c);
    let state = p.status("qs", speech::ABILITY).await;
    assert!(matches!(&state, Err(u) if u.code == "not-configured" && u.words.contains("espeak-ng-data")), "{state:?}");
    let speech = Speech::parse(&json!({"text": "你好", "voice": "cmn"}))?;
    let said = speech::synthesise(&p, "qs", speech, Arc::new(AtomicBool::new(false)), |_| {}).await;
    assert!(matches!(&said, Err(AiError::Unavailable(u)) if u.code == "not-configured"), "{said:?}");
    assert_eq!(Providers::new(AiConfig::default()).status("qs", speech::ABILITY).await, Ok("local"));
    Ok(())
}

/// The speech server: behaviour chosen by the model; counts the calls, keeps the last body.
#[derive(Default)]
struct Server {
    calls: AtomicUsize,
    last: Mutex<serde_json::Value>,
}

/// A 16 kHz mono WAV of `ms` milliseconds of a 220 Hz tone, its header declaring an unknown length
/// as a streamed answer does.
fn tone(ms: u32) -> Vec<u8> {
    let n = 16 * ms;
    let mut b = b"RIFF\xff\xff\xff\xffWAVEfmt ".to_vec();
    for v in [16u32.to_le_bytes().as_slice(), &1u16.to_le_bytes(), &1u16.to_le_bytes(), &16_000u32.to_le_bytes(), &32_000u32.to_le_bytes(), &2u16.to_le_bytes(), &16u16.to_le_bytes()] {
        b.extend_from_slice(v);
    }
    b.extend_from_slice(b"data\xff\xff\xff\xff");
    for i in 0..n {
        let s = (f64::from(i) * 220.0 * std::f64::consts::TAU / 16_000.0).sin() * 8000.0;
        b.extend_from_slice(&(s as i16).to_le_bytes());
    }
    b
}

async fn audio_speech(req: HttpRequest, body: web::Json<serde_json::Value>, s: web::Data<Server>) -> HttpResponse {
    let n = s.calls.fetch_add(1, Ordering::SeqCst);
    if let Ok(mut last) = s.last.lock() {
        *last = body.0.clone();
    }
    if req.headers().get("authorization").and_then(|v| v.to_str().ok()) != Some("Bearer good-key") || body["model"] == "locked" {
        return HttpResponse::Unauthorized().body(r#"{"error":{"message":"bad key"}}"#);
    }
    match body["model"].as_str().unwrap_or_default() {
        "slow" => tokio::time::sleep(Duration::from_secs(3)).await,
        "flaky" if n % 3 != 2 => return HttpResponse::ServiceUnavailable().body("overloaded"),
        "mp3" => return HttpResponse::Ok().content_type("audio/mpeg").body(b"ID3\x04\x00 not a wav".to_vec()),
        _ => {}
    }
    let chars = body["input"].as_str().unwrap_or_default().chars().count() as u32;
    HttpResponse::Ok().content_type("audio/wav").body(tone(chars * 100))
}

fn start(server: Arc<Server>) -> Fallible<String> {
    let data = web::Data::from(server);
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    let srv = actix_web::HttpServer::new(move || {
        actix_web::App::new()
            .app_data(data.clone())
            .route("/v1/models", web::get().to(|| async { HttpResponse::Ok().json(json!({"data": []})) }))
            .route("/v1/audio/speech", web::post().to(audio_speech))
    })
    .workers(1)
    .listen(listener)?
    .run();
    tokio::spawn(srv);
    Ok(format!("http://127.0.0.1:{port}/v1"))
}

#[tokio::test]
async fn speech_through_the_http_provider() -> Fallible {
    // SAFETY: the only variable this test binary sets, set here before any thread reads it.
    unsafe { std::env::set_var("AI_SPEECH_TEST_KEY", "good-key") };
    let server = Arc::new(Server::default());
    let base = start(server.clone())?;
    let provider = |model: &str| {
        let mut voices = std::collections::BTreeMap::new();
        voices.insert("cmn".to_owned(), "zh-female-1".to_owned());
        let cfg = AiProviderConfig {
            provider: "http".into(),
            base_url: base.clone(),
            model: model.into(),
            api_key_env: "AI_SPEECH_TEST_KEY".into(),
            timeout_seconds: 1,
            retries: 2,
            first_retry_ms: 50,
            voices,
            ..AiProviderConfig::default()
        };
        let mut c = AiConfig::default();
        c.abilities.insert(speech::ABILITY.into(), cfg);
        Providers::new(c)
    };
    let speak = |p: Providers, text: &str, voice: &str| {
        let speech = Speech::parse(&json!({"text": text, "voice": voice, "rate": 1.5}));
        async move { speech::synthesise(&p, "qs", speech.map_err(|e| AiError::BadInput(e.to_string()))?, Arc::new(AtomicBool::new(false)), |_| {}).await }
    };

    let wav = speak(provider("tts-1"), "你好世界", "cmn").await?;
    assert_eq!((wav.duration_ms(), wav.sample_rate()), (400, 16_000), "the streamed header mended to the bytes");
    let last = server.last.lock().map(|l| l.clone()).unwrap_or_default();
    assert_eq!(last, json!({"model": "tts-1", "input": "你好世界", "voice": "zh-female-1", "speed": 1.5, "response_format": "wav"}));
    speak(provider("tts-1"), "hello", "en").await?;
    assert_eq!(server.last.lock().map(|l| l["voice"].clone()).unwrap_or_default(), "en", "a voice not mapped goes under its own name");

    server.calls.store(0, Ordering::SeqCst);
    assert_eq!(speak(provider("flaky"), "你好", "cmn").await?.duration_ms(), 200);
    assert_eq!(server.calls.load(Ordering::SeqCst), 3, "5xx twice, then the third try");

    server.calls.store(0, Ordering::SeqCst);
    let slow = speak(provider("slow"), "你好", "cmn").await;
    assert!(matches!(slow, Err(AiError::Timeout(1))), "{slow:?}");
    assert_eq!(server.calls.load(Ordering::SeqCst), 3, "the first try and two retries");

    server.calls.store(0, Ordering::SeqCst);
    let locked = speak(provider("locked"), "你好", "cmn").await;
    assert!(matches!(locked, Err(AiError::Refused { status: 401, .. })), "{locked:?}");
    assert_eq!(server.calls.load(Ordering::SeqCst), 1, "a 4xx is not retried");

    let mp3 = speak(provider("mp3"), "你好", "cmn").await;
    assert!(matches!(&mp3, Err(AiError::Upstream(m)) if m.contains("not a WAV")), "{mp3:?}");
    Ok(())
}
