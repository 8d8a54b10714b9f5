//! Who serves each ability: the provider configured for the tenant (`[ai]`, docs/ai.md), whether it
//! answers now (a health check, cached for `health_ttl_seconds`), and the HTTP provider's calls to an
//! OpenAI-compatible endpoint with a timeout per try and retries with backoff on timeouts and 5xx.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use backon::{ExponentialBuilder, Retryable};
use reelforge_kit::config::{AiConfig, AiProviderConfig};
use serde::Deserialize;

/// The abilities with an implementation on this machine (nothing downloaded at run time).
pub const LOCAL: &[&str] =
    &["keyword-extraction", crate::domain::MUSIC_CLIMAX_CUT, crate::speech::ABILITY, "title-generation", "dialogue-summary", crate::audit::ABILITY, crate::asr::ABILITY,
      "video-highlight-extraction", "cover-generation", "audio-noise-reduction", "echo-cancellation", "gain-control"];

/// The abilities the HTTP provider serves (chat completions with the ability's prompt; speech;
/// pictures).
pub const HTTP: &[&str] = &[
    "text-generation",
    "translation",
    "rewrite",
    "title-generation",
    "dialogue-summary",
    "smart-reply",
    "keyword-generation",
    crate::speech::ABILITY,
    crate::asr::ABILITY,
    crate::picture::TEXT_TO_IMAGE_ABILITY,
    crate::picture::SIMILAR_IMAGE_ABILITY,
];

/// Why an ability is not offered, with a stable code and the words that say what would enable it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unavailable {
    /// `not-configured`, `no-local-implementation`, `no-http-implementation`, `key-missing`,
    /// `bad-config` or `unreachable`.
    pub code: &'static str,
    /// The same in words.
    pub words: String,
}

/// Why a call to an ability failed.
#[derive(Debug, thiserror::Error)]
pub enum AiError {
    /// The ability has no working provider for this tenant.
    #[error("{}: {}", .0.code, .0.words)]
    Unavailable(Unavailable),
    /// The input is refused (names the field).
    #[error("{0}")]
    BadInput(String),
    /// The endpoint did not answer within the timeout, on every try.
    #[error("the AI provider did not answer within {0} s")]
    Timeout(u64),
    /// The endpoint answered 5xx on every try, or could not be reached.
    #[error("the AI provider failed: {0}")]
    Upstream(String),
    /// The endpoint refused the call (4xx: a bad key, an unknown model…); not retried.
    #[error("the AI provider refused the call ({status}): {body}")]
    Refused {
        /// The HTTP status.
        status: u16,
        /// The start of its body.
        body: String,
    },
    /// The caller cancelled the work.
    #[error("cancelled")]
    Cancelled,
}

impl AiError {
    fn retryable(&self) -> bool {
        matches!(self, Self::Timeout(_) | Self::Upstream(_))
    }
}

/// Health checks' results by endpoint (or local program), with when each was taken.
type HealthCache = HashMap<String, (Instant, Result<(), String>)>;

/// The providers of one process: the configuration and the health checks' cache.
#[derive(Debug)]
pub struct Providers {
    config: AiConfig,
    client: reqwest::Client,
    health: Mutex<HealthCache>,
}

impl Providers {
    /// Builds them from `[ai]`.
    pub fn new(config: AiConfig) -> Self {
        Self { config, client: reqwest::Client::new(), health: Mutex::new(HashMap::new()) }
    }

    /// The provider configured for `ability` for `tenant`: the tenant's own entry, else the
    /// common one, else none.
    pub fn configured(&self, tenant: &str, ability: &str) -> AiProviderConfig {
        self.config
            .tenants
            .get(tenant)
            .and_then(|t| t.get(ability))
            .or_else(|| self.config.abilities.get(ability))
            .cloned()
            .unwrap_or_default()
    }

    /// Whether `ability` can be served for `tenant` now; `Ok` names the provider kind.
    pub async fn status(&self, tenant: &str, ability: &str) -> Result<&'static str, Unavailable> {
        let cfg = self.configured(tenant, ability);
        match cfg.provider.as_str() {
            "local" if ability == crate::speech::ABILITY => self.espeak_runs().await.map(|()| "local"),
            "local" if ability == crate::audit::ABILITY => self.audit_ready(&cfg).await.map(|()| "local"),
            "local" if ability == crate::asr::ABILITY => self.recogniser_runs().await.map(|()| "local"),
            "local" if crate::media::tool_of(ability).is_some() => crate::media::local_status(ability).map(|()| "local"),
            "local" if LOCAL.contains(&ability) => Ok("local"),
            "local" => Err(Unavailable {
                code: "no-local-implementation",
                words: format!("{ability} has no local implementation on this machine; configure provider = \"http\" for it"),
            }),
            "http" if !HTTP.contains(&ability) => Err(Unavailable {
                code: "no-http-implementation",
                words: format!("{ability} is not served through the HTTP provider yet"),
            }),
            "http" => {
                let http = HttpProvider::from_config(&cfg, ability)?;
                self.healthy(&http).await.map(|()| "http")
            }
            "none" | "" => Err(not_configured(ability)),
            other => Err(Unavailable {
                code: "bad-config",
                words: format!("[ai] {ability}: provider \"{other}\" is not one of local, http, none"),
            }),
        }
    }

    /// The HTTP provider of `ability` for `tenant`, when it is configured and answers.
    pub async fn http(&self, tenant: &str, ability: &str) -> Result<HttpProvider, AiError> {
        self.status(tenant, ability).await.map_err(AiError::Unavailable)?;
        HttpProvider::from_config(&self.configured(tenant, ability), ability).map_err(AiError::Unavailable)
    }

    /// The health check's result under `key`, asked again once older than the TTL.
    async fn cached(&self, key: String, check: impl Future<Output = Result<(), String>>) -> Result<(), String> {
        let ttl = Duration::from_secs(self.config.health_ttl_seconds);
        let cached = self.health.lock().ok().and_then(|h| h.get(&key).filter(|(at, _)| at.elapsed() < ttl).map(|(_, r)| r.clone()));
        if let Some(r) = cached {
            return r;
        }
        let r = check.await;
        if let Ok(mut h) = self.health.lock() {
            h.insert(key, (Instant::now(), r.clone()));
        }
        r
    }

    async fn healthy(&self, http: &HttpProvider) -> Result<(), Unavailable> {
        let key = format!("{}|{}", http.base_url, http.model);
        self.cached(key, http.health(&self.client))
            .await
            .map_err(|why| Unavailable { code: "unreachable", words: format!("the HTTP provider at {} does not answer: {why}", http.base_url) })
    }

    /// Whether the local voice runs here with both its voices: a text-to-speech configured as
    /// local on a machine without espeak-ng is not configured, saying what installs it.
    async fn espeak_runs(&self) -> Result<(), Unavailable> {
        let espeak = self.espeak();
        let check = async move { tokio::task::spawn_blocking(move || espeak.check()).await.map_err(|e| e.to_string())? };
        self.cached(format!("local|{}", self.config.espeak_program), check)
            .await
            .map_err(|words| Unavailable { code: "not-configured", words })
    }

    /// Whether video auditing can run here: the OCR program with both languages' data (a health
    /// check, cached), and a word list for the tenant.
    async fn audit_ready(&self, cfg: &AiProviderConfig) -> Result<(), Unavailable> {
        let ocr = self.tesseract();
        let check = async move { tokio::task::spawn_blocking(move || ocr.check()).await.map_err(|e| e.to_string())? };
        self.cached(format!("local|{}", self.config.tesseract_program), check)
            .await
            .map_err(|words| Unavailable { code: "not-configured", words })?;
        if crate::audit::WordList::new(&cfg.words).is_empty() {
            return Err(Unavailable {
                code: "not-configured",
                words: format!("no sensitive words are listed; set [ai.abilities.{0}] words = [...] (or [ai.tenants.<tenant>.{0}])", crate::audit::ABILITY),
            });
        }
        Ok(())
    }

    /// The OCR program of video auditing.
    pub fn tesseract(&self) -> crate::audit::Tesseract {
        crate::audit::Tesseract::new(&self.config.tesseract_program)
    }

    /// The sensitive words of `tenant` (its own video-auditing entry's, else the common one's).
    pub fn audit_words(&self, tenant: &str) -> crate::audit::WordList {
        crate::audit::WordList::new(&self.configured(tenant, crate::audit::ABILITY).words)
    }

    /// Whether the local recogniser runs here with its English model: speech recognition
    /// configured as local on a machine without them is not configured, saying what installs them.
    async fn recogniser_runs(&self) -> Result<(), Unavailable> {
        let asr = self.pocketsphinx();
        let check = async move { tokio::task::spawn_blocking(move || asr.check()).await.map_err(|e| e.to_string())? };
        self.cached(format!("local|{}|{}", self.config.asr_program, self.config.asr_model_dir), check)
            .await
            .map_err(|words| Unavailable { code: "not-configured", words })
    }

    /// The local speech recogniser.
    pub fn pocketsphinx(&self) -> crate::asr::PocketSphinx {
        crate::asr::PocketSphinx::new(&self.config.asr_program, std::path::Path::new(&self.config.asr_model_dir))
    }

    /// The local text-to-speech voice.
    pub fn espeak(&self) -> crate::speech::Espeak {
        crate::speech::Espeak::new(&self.config.espeak_program)
    }

    /// The shared HTTP client.
    pub fn client(&self) -> &reqwest::Client {
        &self.client
    }
}

/// Gesture recognition: the catalogue names it, but recognition needs a model (issue 28: only one
/// that ships in a package, never fetched at run time).
const GESTURE_RECOGNITION: &str = "gesture-recognition";

fn not_configured(ability: &str) -> Unavailable {
    let words = if ability == GESTURE_RECOGNITION {
        "no gesture-recognition model ships in a registry package, so this deployment has no local recogniser, and no HTTP provider call for it is built; the 24 gestures are listed, none is recognised".to_owned()
    } else if LOCAL.contains(&ability) {
        format!("no provider is configured for {ability}; set [ai.abilities.{ability}] provider = \"local\"")
    } else if HTTP.contains(&ability) {
        format!(
            "no provider is configured for {ability}; set [ai.abilities.{ability}] provider = \"http\" with base_url, model and api_key_env (an OpenAI-compatible endpoint)"
        )
    } else {
        format!("no provider is configured for {ability}, and this deployment has no implementation of it yet")
    };
    Unavailable { code: "not-configured", words }
}

/// An OpenAI-compatible endpoint as one ability uses it.
#[derive(Debug, Clone)]
pub struct HttpProvider {
    base_url: String,
    model: String,
    key: String,
    timeout: Duration,
    retries: u32,
    first_retry: Duration,
}

#[derive(Deserialize)]
struct Completion {
    choices: Vec<Choice>,
}

#[derive(Deserialize)]
struct Choice {
    message: Message,
}

#[derive(Deserialize)]
struct Message {
    content: String,
}

impl HttpProvider {
    /// The provider `cfg` describes for `ability`, without its health check.
    pub fn from_config(cfg: &AiProviderConfig, ability: &str) -> Result<Self, Unavailable> {
        if cfg.base_url.is_empty() || cfg.model.is_empty() {
            return Err(Unavailable {
                code: "not-configured",
                words: format!("[ai.abilities.{ability}] provider = \"http\" needs base_url and model"),
            });
        }
        let key = if cfg.api_key_env.is_empty() { String::new() } else { std::env::var(&cfg.api_key_env).unwrap_or_default() };
        if !cfg.api_key_env.is_empty() && key.is_empty() {
            return Err(Unavailable {
                code: "key-missing",
                words: format!("the environment variable {} that holds the key of {ability}'s provider is not set", cfg.api_key_env),
            });
        }
        Ok(Self {
            base_url: cfg.base_url.trim_end_matches('/').to_owned(),
            model: cfg.model.clone(),
            key,
            timeout: Duration::from_secs(cfg.timeout_seconds.max(1)),
            retries: cfg.retries,
            first_retry: Duration::from_millis(cfg.first_retry_ms),
        })
    }

    /// The model's name.
    pub fn model(&self) -> &str {
        &self.model
    }

    fn authed(&self, req: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
        if self.key.is_empty() { req } else { req.bearer_auth(&self.key) }
    }

    /// `GET /models`: any 2xx is healthy.
    async fn health(&self, client: &reqwest::Client) -> Result<(), String> {
        let res = self.authed(client.get(format!("{}/models", self.base_url))).timeout(self.timeout).send().await.map_err(|e| e.to_string())?;
        if res.status().is_success() { Ok(()) } else { Err(format!("GET /models answered {}", res.status())) }
    }

    /// `POST {base_url}{path}` with a JSON body, answering the body of a 2xx: each try has the
    /// timeout; a timeout, a failed connection or a 5xx is tried again with backoff, a 4xx is not.
    async fn post(&self, client: &reqwest::Client, path: &str, body: &serde_json::Value) -> Result<Vec<u8>, AiError> {
        self.post_with(client, path, |req| req.json(body)).await
    }

    /// [`HttpProvider::post`] with the body `attach` sets on each try.
    async fn post_with(
        &self,
        client: &reqwest::Client,
        path: &str,
        attach: impl Fn(reqwest::RequestBuilder) -> reqwest::RequestBuilder,
    ) -> Result<Vec<u8>, AiError> {
        let url = format!("{}{path}", self.base_url);
        self.retried(|| attach(self.authed(client.post(url.as_str()))), ANSWER_MAX_BYTES).await
    }

    /// Sends what `request` builds, tried again as [`HttpProvider::post`] says, answering the body
    /// of a 2xx of at most `limit` bytes (a longer answer fails the call, unread).
    async fn retried(&self, request: impl Fn() -> reqwest::RequestBuilder, limit: u64) -> Result<Vec<u8>, AiError> {
        let failed = |e: reqwest::Error| if e.is_timeout() { AiError::Timeout(self.timeout.as_secs()) } else { AiError::Upstream(e.to_string()) };
        let once = || async {
            let mut res = request().timeout(self.timeout).send().await.map_err(failed)?;
            let status = res.status();
            let too_long = || AiError::Upstream(format!("the answer is longer than {limit} bytes"));
            if res.content_length().is_some_and(|n| n > limit) {
                return Err(too_long());
            }
            let mut bytes = Vec::new();
            while let Some(chunk) = res.chunk().await.map_err(failed)? {
                if (bytes.len() + chunk.len()) as u64 > limit {
                    return Err(too_long());
                }
                bytes.extend_from_slice(&chunk);
            }
            if status.is_server_error() {
                return Err(AiError::Upstream(format!("{status}: {}", head(&String::from_utf8_lossy(&bytes)))));
            }
            if !status.is_success() {
                return Err(AiError::Refused { status: status.as_u16(), body: head(&String::from_utf8_lossy(&bytes)) });
            }
            Ok(bytes)
        };
        let backoff = ExponentialBuilder::default()
            .with_min_delay(self.first_retry)
            .with_max_delay(self.first_retry * 16)
            .with_max_times(self.retries as usize)
            .with_jitter();
        once.retry(backoff).when(AiError::retryable).notify(|e, wait| tracing::warn!(error = %e, ?wait, "AI provider call retried")).await
    }

    /// `POST {base_url}{path}` with a multipart form of `fields` and one file part (`file`: its
    /// field name, file name, content type and bytes). The form is written here: the workspace's
    /// reqwest has no multipart feature, and the calls' forms are small and fixed.
    async fn post_form(&self, client: &reqwest::Client, path: &str, fields: &[(&str, &str)], file: (&str, &str, &str, &[u8])) -> Result<Vec<u8>, AiError> {
        let (field, file_name, file_type, bytes) = file;
        // The boundary must not occur in the file.
        let mut boundary = format!("reelforge-{:x}", std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos());
        while bytes.windows(boundary.len()).any(|w| w == boundary.as_bytes()) {
            boundary.push('x');
        }
        let mut form = Vec::with_capacity(bytes.len() + 1024);
        for (name, value) in fields {
            form.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n").as_bytes());
        }
        form.extend_from_slice(format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{file_name}\"\r\nContent-Type: {file_type}\r\n\r\n").as_bytes());
        form.extend_from_slice(bytes);
        form.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let content_type = format!("multipart/form-data; boundary={boundary}");
        self.post_with(client, path, |req| req.header(reqwest::header::CONTENT_TYPE, content_type.as_str()).body(form.clone())).await
    }

    /// One chat completion (`POST /chat/completions`) with a system and a user message.
    pub async fn chat(&self, client: &reqwest::Client, system: &str, user: &str) -> Result<String, AiError> {
        let body = serde_json::json!({
            "model": self.model,
            "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}],
        });
        let text = self.post(client, "/chat/completions", &body).await?;
        let c: Completion = serde_json::from_slice(&text).map_err(|e| AiError::Upstream(format!("not a chat completion: {e}")))?;
        c.choices.into_iter().next().map(|c| c.message.content).ok_or_else(|| AiError::Upstream("a completion with no choice".into()))
    }

    /// Speech (`POST /audio/speech`, OpenAI's call): `input` in the endpoint's `voice` at `speed`,
    /// asked as a WAV. The call has no pitch.
    pub async fn speech(&self, client: &reqwest::Client, input: &str, voice: &str, speed: f64) -> Result<Vec<u8>, AiError> {
        let body = serde_json::json!({"model": self.model, "input": input, "voice": voice, "speed": speed, "response_format": "wav"});
        self.post(client, "/audio/speech", &body).await
    }

    /// Transcription (`POST /audio/transcriptions`, OpenAI's call): the WAV as a multipart upload
    /// in `language` (ISO 639-1), asked as `verbose_json` with word timestamps; answers the body.
    pub async fn transcription(&self, client: &reqwest::Client, wav: &[u8], language: &str) -> Result<Vec<u8>, AiError> {
        let fields = [("model", self.model.as_str()), ("language", language), ("response_format", "verbose_json"), ("timestamp_granularities[]", "word")];
        self.post_form(client, "/audio/transcriptions", &fields, ("file", "speech.wav", "audio/wav", wav)).await
    }

    /// Text to image (`POST /images/generations`, OpenAI's call): `n` pictures of `size`
    /// (`WxH`) for `prompt`, asked as `b64_json`; answers the body.
    pub async fn image_generations(&self, client: &reqwest::Client, prompt: &str, size: &str, n: u32) -> Result<Vec<u8>, AiError> {
        let body = serde_json::json!({"model": self.model, "prompt": prompt, "n": n, "size": size, "response_format": "b64_json"});
        self.post(client, "/images/generations", &body).await
    }

    /// Similar images (`POST /images/variations`, OpenAI's call): `n` variations of `size` of the
    /// square PNG `png`, uploaded as the form's `image`, asked as `b64_json`; answers the body.
    pub async fn image_variations(&self, client: &reqwest::Client, png: &[u8], size: &str, n: u32) -> Result<Vec<u8>, AiError> {
        let n = n.to_string();
        let fields = [("model", self.model.as_str()), ("n", n.as_str()), ("size", size), ("response_format", "b64_json")];
        self.post_form(client, "/images/variations", &fields, ("image", "source.png", "image/png", png)).await
    }

    /// A picture the provider answered as a URL: fetched only from the provider's own scheme, host
    /// and port (a URL elsewhere is refused unasked: the answer does not choose where this server
    /// connects), without the key, at most `limit` bytes, with the provider's timeout and retries.
    pub async fn fetch_answered(&self, client: &reqwest::Client, url: &str, limit: u64) -> Result<Vec<u8>, AiError> {
        let ours = reqwest::Url::parse(&self.base_url).map_err(|e| AiError::Upstream(format!("base_url: {e}")))?;
        let theirs = reqwest::Url::parse(url).map_err(|e| AiError::Upstream(format!("the answered picture's URL: {e}")))?;
        let origin = |u: &reqwest::Url| (u.scheme().to_owned(), u.host_str().map(str::to_ascii_lowercase), u.port_or_known_default());
        if origin(&ours) != origin(&theirs) {
            return Err(AiError::Upstream(format!("the answered picture is at {}, not on the provider's host {}", theirs.host_str().unwrap_or("?"), ours.host_str().unwrap_or("?"))));
        }
        self.retried(|| client.get(theirs.clone()), limit).await
    }

}

/// The longest answer read from an endpoint (a few minutes of WAV, four large pictures in base64).
const ANSWER_MAX_BYTES: u64 = 128 * 1024 * 1024;

fn head(s: &str) -> String {
    s.chars().take(200).collect()
}
