//! Configuration: defaults that run → `reelforge.toml` (or `--config FILE`) → `REELFORGE_*` environment
//! variables (nested keys split by `__`, e.g. `REELFORGE_DATABASE__URL`). Unknown keys in a file stop
//! start-up; unknown environment keys are warned about.

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::path::{Path, PathBuf};

use figment::Figment;
use figment::providers::{Env, Format, Serialized, Toml};
use serde::{Deserialize, Serialize};

/// Why configuration could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but is not valid TOML or has wrong value types.
    #[error("configuration file {path}: {reason}")]
    Malformed { path: String, reason: String },
    /// The file names keys that Reelforge does not know.
    #[error("configuration file {path}: unknown key `{key}`")]
    UnknownKey { path: String, key: String },
    /// A value from the environment has the wrong type.
    #[error("configuration: {0}")]
    Invalid(String),
}

/// The whole configuration of a `reelforge` process.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Directory for the embedded database, blobs and the dev mail outbox.
    pub data_dir: PathBuf,
    /// The HTTP gateway.
    pub http: HttpConfig,
    /// Health and metrics endpoint of every target (the only place metrics are served).
    pub admin: AdminConfig,
    /// Where each gRPC service listens and is reached.
    pub services: ServicesConfig,
    /// Relational database.
    pub database: DatabaseConfig,
    /// Cache for codes, edit history and rate limits.
    pub cache: CacheConfig,
    /// Job queue for renders and toolbox jobs.
    pub queue: QueueConfig,
    /// Blob storage for uploads, renders and covers.
    pub storage: StorageConfig,
    /// Logging.
    pub log: LogConfig,
    /// Sign-in.
    pub auth: AuthConfig,
    /// Outgoing mail (verification codes).
    pub mail: MailConfig,
    /// The variants (tenants) served, by key: qs, cc, migu, cu.
    pub tenants: BTreeMap<String, TenantConfig>,
    /// Render workers.
    pub worker: WorkerConfig,
    /// The render queue as the task service fills it.
    pub render: RenderConfig,
    /// Material uploads.
    pub upload: UploadConfig,
    /// How long calls out of the process may take.
    pub timeouts: TimeoutConfig,
    /// Storage quotas of materials per user and per tenant.
    pub quota: QuotaConfig,
    /// The sweep that removes material objects no material references.
    pub janitor: JanitorConfig,
    /// Video ringtones: what each variant's carrier accepts and where ring orders are delivered.
    pub ring: RingConfig,
    /// The video toolbox: each tool's input limits and the hidden types shown.
    pub tools: ToolsConfig,
    /// The AI abilities (docs/ai.md): which provider serves each, for every tenant and per tenant.
    pub ai: AiConfig,
}

/// The video toolbox (docs/toolbox.md): what each built tool takes at most, checked before it
/// starts, and which of §9's hidden types the catalogue shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolsConfig {
    /// The limit of a tool without its own.
    pub default: ToolLimitConfig,
    /// EXTRACT_AUDIO.
    pub extract_audio: ToolLimitConfig,
    /// VIDEO_TO_GIF (the GIF itself lasts at most 30 s, whatever the input).
    pub video_to_gif: ToolLimitConfig,
    /// VIDEO_COMPRESS.
    pub video_compress: ToolLimitConfig,
    /// VIDEO_SPEEDUP.
    pub video_speedup: ToolLimitConfig,
    /// QUICK_CUT_VIDEO.
    pub quick_cut_video: ToolLimitConfig,
    /// QUICK_CUT_AUDIO.
    pub quick_cut_audio: ToolLimitConfig,
    /// Hidden types (§9) the catalogue shows, by wire name (`VIDEO_CROP`).
    pub show_hidden: Vec<String>,
}

/// What one tool takes at most.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolLimitConfig {
    /// Largest input, MiB.
    pub max_input_mb: u64,
    /// Longest input, seconds.
    pub max_input_seconds: u64,
}

impl ToolLimitConfig {
    const fn of(max_input_mb: u64, max_input_seconds: u64) -> Self {
        Self { max_input_mb, max_input_seconds }
    }
}

impl Default for ToolLimitConfig {
    fn default() -> Self {
        Self::of(1024, 1800)
    }
}

impl Default for ToolsConfig {
    fn default() -> Self {
        Self {
            default: ToolLimitConfig::default(),
            extract_audio: ToolLimitConfig::of(2048, 7200),
            video_to_gif: ToolLimitConfig::of(1024, 1800),
            video_compress: ToolLimitConfig::of(2048, 3600),
            video_speedup: ToolLimitConfig::of(1024, 1800),
            quick_cut_video: ToolLimitConfig::of(2048, 3600),
            quick_cut_audio: ToolLimitConfig::of(512, 7200),
            show_hidden: Vec::new(),
        }
    }
}

/// How long outbound calls may take, in seconds: a dependency that hangs (a stalled store, a
/// service that accepts and never answers, a silent mail server) fails the call, which the caller
/// retries or reports, instead of holding a request, a job or a worker slot for ever.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct TimeoutConfig {
    /// Opening a connection to another service, the store or the mail server.
    pub connect_seconds: u64,
    /// One call to another service (a whole unary gRPC call).
    pub service_call_seconds: u64,
    /// One storage operation that moves no body (stat, delete, list a page, start a write).
    pub storage_seconds: u64,
    /// One step of a storage transfer (each chunk read or written), so a large file may take
    /// longer in all while a stalled one still fails.
    pub storage_io_seconds: u64,
    /// One mail delivery, from connecting to the server's last answer.
    pub mail_seconds: u64,
}

impl Default for TimeoutConfig {
    fn default() -> Self {
        Self { connect_seconds: 5, service_call_seconds: 60, storage_seconds: 60, storage_io_seconds: 30, mail_seconds: 20 }
    }
}

impl TimeoutConfig {
    /// A duration of `seconds`, at least one second (0 would fail every call).
    pub fn of(seconds: u64) -> std::time::Duration {
        std::time::Duration::from_secs(seconds.max(1))
    }
}

/// The material janitor: every `interval_minutes` it removes the objects under the materials
/// prefixes that no material references and that are older than `grace_hours` (abandoned or
/// half-finished uploads); 0 minutes turns it off.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct JanitorConfig {
    /// Minutes between sweeps (the first runs one interval after start); 0 never sweeps.
    pub interval_minutes: u64,
    /// Hours an unreferenced object is left alone: an upload being recorded has no row yet.
    pub grace_hours: u64,
}

impl Default for JanitorConfig {
    fn default() -> Self {
        Self { interval_minutes: 60, grace_hours: 24 }
    }
}

/// How much users and tenants may keep in their material libraries; 0 is unlimited. Deleted
/// materials do not count, the tenant's system materials neither.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct QuotaConfig {
    /// Bytes of uploads one user may keep, in MiB.
    pub user_mb: u64,
    /// Materials one user may keep.
    pub user_materials: u64,
    /// Bytes of all the users' uploads of one tenant together, in MiB.
    pub tenant_mb: u64,
    /// Materials of all the users of one tenant together.
    pub tenant_materials: u64,
}

impl Default for QuotaConfig {
    fn default() -> Self {
        Self { user_mb: 5 * 1024, user_materials: 2000, tenant_mb: 0, tenant_materials: 0 }
    }
}

/// The largest upload of each material kind, in MiB (1 MiB = 1,048,576 bytes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct UploadConfig {
    /// Still pictures (jpg, png, bmp, webp, heic/heif, avif).
    pub picture_mb: u64,
    /// Animated GIFs.
    pub gif_mb: u64,
    /// Audio clips.
    pub audio_mb: u64,
    /// Video clips.
    pub video_mb: u64,
    /// Presentations (pptx).
    pub pptx_mb: u64,
    /// All files of one `/upload/multimaterial` request together.
    pub multi_mb: u64,
    /// The most pixels (width × height) of a video's frames: 8K UHD, 7680×4320, by default.
    pub video_max_pixels: u64,
    /// The longest video or audio upload, in seconds.
    pub media_max_seconds: u64,
    /// The most streams (video, audio, subtitles) one video or audio upload may carry.
    pub media_max_streams: u64,
    /// The longest one import of a video by address may take, seconds (its size is `video_mb`).
    pub import_seconds: u64,
}

impl Default for UploadConfig {
    fn default() -> Self {
        Self {
            picture_mb: 20,
            gif_mb: 20,
            audio_mb: 50,
            video_mb: 500,
            pptx_mb: 100,
            multi_mb: 2048,
            video_max_pixels: 7680 * 4320,
            media_max_seconds: 3 * 3600,
            media_max_streams: 8,
            import_seconds: 120,
        }
    }
}

impl UploadConfig {
    /// The limit in bytes of all files of one multi-file upload together.
    pub fn multi_bytes(&self) -> u64 {
        self.multi_mb.saturating_mul(1024 * 1024)
    }

    /// The limit in bytes for a material kind by its wire name; `None` for kinds not uploaded.
    pub fn limit_bytes(&self, kind: &str) -> Option<u64> {
        let mb = match kind {
            "picture" => self.picture_mb,
            "gif" => self.gif_mb,
            "audio" => self.audio_mb,
            "video" => self.video_mb,
            "pptx" => self.pptx_mb,
            _ => return None,
        };
        Some(mb.saturating_mul(1024 * 1024))
    }
}

/// The HTTP gateway's settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct HttpConfig {
    /// Listen address.
    pub addr: String,
    /// Directory of the built SPA served at `/`.
    pub static_dir: PathBuf,
    /// Largest JSON or form body accepted, in bytes.
    pub max_body_bytes: usize,
    /// Origins allowed by CORS (the variant front ends); empty allows any origin without credentials.
    pub cors_origins: Vec<String>,
    /// Header the trusted proxies put the browser's address in (e.g. `x-forwarded-for`): read only
    /// when the connection comes from a trusted proxy, right to left; empty uses the peer address.
    pub client_ip_header: String,
    /// Reverse proxies in front of the gateway (addresses or CIDR blocks) whose `client_ip_header`
    /// is believed; empty believes none.
    pub trusted_proxies: Vec<TrustedProxy>,
}

/// A reverse proxy's address or CIDR block (`10.0.0.0/8`, `192.0.2.7`, `fd00::/8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TrustedProxy(ipnet::IpNet);

/// A `trusted_proxies` entry that is neither an address nor a CIDR block.
#[derive(Debug, thiserror::Error)]
#[error("trusted proxy `{0}` is neither an IP address nor a CIDR block")]
pub struct TrustedProxyError(String);

impl TrustedProxy {
    /// Parses an address (`192.0.2.7`) or a CIDR block (`10.0.0.0/8`).
    pub fn parse(text: &str) -> Result<Self, TrustedProxyError> {
        let text = text.trim();
        text.parse::<ipnet::IpNet>()
            .or_else(|_| text.parse::<IpAddr>().map(ipnet::IpNet::from))
            .map(Self)
            .map_err(|_| TrustedProxyError(text.to_owned()))
    }

    /// Whether `ip` is this proxy (an IPv4 address mapped into IPv6 counts as itself).
    pub fn contains(&self, ip: IpAddr) -> bool {
        self.0.contains(&ip.to_canonical())
    }
}

impl TryFrom<String> for TrustedProxy {
    type Error = TrustedProxyError;

    fn try_from(text: String) -> Result<Self, Self::Error> {
        Self::parse(&text)
    }
}

impl From<TrustedProxy> for String {
    fn from(proxy: TrustedProxy) -> Self {
        proxy.0.to_string()
    }
}

/// Where every target serves `/healthz`, `/readyz` and `/metrics` (the gateway's public port has no
/// `/metrics`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct AdminConfig {
    /// Listen address.
    pub addr: String,
}

/// One gRPC service's addresses.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ServiceAddr {
    /// Address the service binds when it runs as its own target.
    pub listen: String,
    /// URL other targets use to reach it.
    pub url: String,
}

impl ServiceAddr {
    fn on_port(port: u16) -> Self {
        Self { listen: format!("127.0.0.1:{port}"), url: format!("http://127.0.0.1:{port}") }
    }
}

/// Addresses of the eight services.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct ServicesConfig {
    /// Auth service.
    pub auth: ServiceAddr,
    /// Material service.
    pub material: ServiceAddr,
    /// Category service.
    pub category: ServiceAddr,
    /// Favourite service.
    pub favourite: ServiceAddr,
    /// Font service.
    pub font: ServiceAddr,
    /// Task service.
    pub task: ServiceAddr,
    /// AI service.
    pub ai: ServiceAddr,
    /// Ring service (video-ringtone orders and their delivery).
    pub ring: ServiceAddr,
}

/// Relational database settings.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct DatabaseConfig {
    /// `postgres://…` or `sqlite://…`; empty means `sqlite://<data_dir>/reelforge.db`.
    pub url: String,
}

/// Cache settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct CacheConfig {
    /// `memory://` (in-process) or `redis://host:port/db`.
    pub url: String,
}

/// Job queue settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct QueueConfig {
    /// `db://` (jobs in the database) or `amqp://user:pass@host:port/vhost`.
    pub url: String,
    /// Times a job may be given back (or its lease run out) before it goes to the dead letters;
    /// it is delivered at most this many times plus one (RabbitMQ `x-delivery-limit`).
    pub delivery_limit: u32,
    /// Seconds a database-queue job stays leased to a consumer before it is delivered again.
    pub lease_seconds: u64,
    /// Unacknowledged jobs one consumer holds at once.
    pub prefetch: u16,
}

/// Blob storage settings.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct StorageConfig {
    /// `fs:///abs/dir` or `s3://bucket?endpoint=…&region=…&access_key_id=…&secret_access_key=…`;
    /// empty means `<data_dir>/blobs`.
    pub url: String,
}

/// Logging settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LogConfig {
    /// `human` or `json`.
    pub format: String,
    /// A tracing filter, e.g. `info,reelforge=debug`.
    pub filter: String,
}

/// Sign-in settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(default)]
pub struct AuthConfig {
    /// Token signing keys: the first signs, every one verifies. Required by every target but `all`,
    /// which makes one in its data directory when none is given.
    pub keys: Vec<SigningKeyConfig>,
    /// Hours an issued token stays valid.
    pub token_hours: u64,
    /// Seconds a mailed code stays valid.
    pub code_ttl_seconds: u64,
    /// Seconds before another code may be mailed to the same address.
    pub resend_seconds: u64,
    /// Codes one address may be sent per day.
    pub codes_per_address_per_day: u32,
    /// Requests (codes and sign-in tries) one client address may make for one mail address per hour.
    pub requests_per_ip_mail_per_hour: u32,
    /// Requests one client address may make per hour before each further code needs a solved
    /// proof-of-work challenge (many users may share one address: a carrier's NAT, an office).
    pub challenge_after_per_ip_per_hour: u32,
    /// Requests one client address may make per hour, challenges solved or not: the flood guard.
    pub requests_per_ip_per_hour: u32,
    /// Leading zero bits the SHA-256 of a solved challenge must have (each bit doubles the work).
    pub challenge_bits: u32,
    /// Seconds a proof-of-work challenge may be answered in.
    pub challenge_ttl_seconds: u64,
    /// Codes the whole tenant may send per day.
    pub codes_per_tenant_per_day: u32,
    /// Seconds the auth service may answer a token check from its in-process copy of the user's
    /// enabled state and level before reading the user table again (0: read it on every check).
    pub user_check_seconds: u64,
}

/// One token signing key.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SigningKeyConfig {
    /// The key's id, written in each token's `kid` header.
    pub id: String,
    /// The HMAC secret, at least 32 bytes.
    pub secret: String,
}

impl std::fmt::Debug for SigningKeyConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SigningKeyConfig").field("id", &self.id).finish_non_exhaustive()
    }
}

/// Outgoing mail settings.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct MailConfig {
    /// `smtp://host:port` (plain), `smtp://host:port?tls=starttls`, or `smtps://host:port`, with
    /// optional `user:password@`; empty writes codes to the log and `<data_dir>/mail-outbox.log`.
    pub smtp_url: String,
    /// The sender address.
    pub from: String,
}

/// Video-ringtone settings: the delivery profile and ring platform of each variant (keyed like
/// `tenants`), and how the outbox retries deliveries.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RingConfig {
    /// What each variant's carrier accepts, by variant key; a variant without one uses qs's.
    pub profiles: BTreeMap<String, DeliveryProfile>,
    /// Where each variant's ring orders go, by variant key; a variant without one (or with an empty
    /// `url`) uses the ring platform inside the binary.
    pub platforms: BTreeMap<String, RingPlatformConfig>,
    /// Deliveries tried per order before it is marked failed.
    pub delivery_attempts: u32,
    /// Seconds before the first retry of a failed delivery; each retry doubles it (with jitter).
    pub first_retry_seconds: u64,
    /// The longest wait between two tries, in seconds.
    pub max_retry_seconds: u64,
    /// The gateway's public address as a carrier's platform reaches it (`https://ring.example.com`):
    /// the video and cover URLs of a delivery start with it; required when a variant's platform has
    /// a `url`, unused by the platform inside the binary.
    pub public_base_url: String,
    /// Hours the signed video and cover URLs of a delivery stay valid (each try signs new ones).
    pub file_url_hours: u64,
}

impl Default for RingConfig {
    fn default() -> Self {
        Self {
            profiles: ["qs", "cc", "migu", "cu"]
                .into_iter()
                .map(|k| (k.to_owned(), DeliveryProfile::for_variant(k)))
                .collect(),
            platforms: ["qs", "cc", "migu", "cu"]
                .into_iter()
                .map(|k| (k.to_owned(), RingPlatformConfig::default()))
                .collect(),
            delivery_attempts: 8,
            first_retry_seconds: 2,
            max_retry_seconds: 300,
            public_base_url: String::new(),
            file_url_hours: 24,
        }
    }
}

/// What a carrier accepts as a video ringtone (docs/ringtone.md lists each variant's defaults).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeliveryProfile {
    /// The container, as GStreamer's discoverer names its caps family: `mp4`.
    pub container: String,
    /// The video codec: `h264`.
    pub video_codec: String,
    /// H.264 profiles accepted: `baseline`, `main`, `high`.
    pub h264_profiles: Vec<String>,
    /// The highest H.264 level accepted, e.g. `4.1`.
    pub h264_max_level: String,
    /// Frame sizes accepted, `WIDTHxHEIGHT`.
    pub sizes: Vec<String>,
    /// Orientations accepted: `portrait`, `landscape`.
    pub orientations: Vec<String>,
    /// Frame rate window, frames per second.
    pub min_fps: f64,
    /// Frame rate window, frames per second.
    pub max_fps: f64,
    /// The video stream's average bitrate cap, kbit/s.
    pub max_video_kbps: u32,
    /// Duration window, seconds.
    pub min_seconds: f64,
    /// Duration window, seconds.
    pub max_seconds: f64,
    /// The audio codec: `aac`.
    pub audio_codec: String,
    /// Integrated loudness target, LUFS (EBU R128).
    pub loudness_lufs: f64,
    /// How far from the target the integrated loudness may be, LU.
    pub loudness_tolerance_lu: f64,
    /// True-peak ceiling, dBTP.
    pub true_peak_dbtp: f64,
    /// The file's size cap, MiB.
    pub max_file_mb: u32,
    /// Cover picture formats accepted: `jpeg`, `png`.
    pub cover_formats: Vec<String>,
    /// The cover's size cap, KiB.
    pub cover_max_kb: u32,
    /// The incoming-call screen's top band (caller name and number), percent of the height.
    pub safe_top_percent: u32,
    /// The incoming-call screen's bottom band (answer and decline), percent of the height.
    pub safe_bottom_percent: u32,
}

impl Default for DeliveryProfile {
    fn default() -> Self {
        Self::for_variant("qs")
    }
}

impl DeliveryProfile {
    /// The built-in profile of a variant (qs's for one not listed).
    pub fn for_variant(variant: &str) -> Self {
        let list = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        let base = Self {
            container: "mp4".into(),
            video_codec: "h264".into(),
            h264_profiles: list(&["baseline", "main", "high"]),
            h264_max_level: "4.1".into(),
            sizes: list(&["1080x1920", "720x1280", "1920x1080", "1280x720"]),
            orientations: list(&["portrait", "landscape"]),
            min_fps: 24.0,
            max_fps: 30.0,
            max_video_kbps: 8000,
            min_seconds: 5.0,
            max_seconds: 60.0,
            audio_codec: "aac".into(),
            loudness_lufs: -16.0,
            loudness_tolerance_lu: 2.0,
            true_peak_dbtp: -1.0,
            max_file_mb: 30,
            cover_formats: list(&["jpeg", "png"]),
            cover_max_kb: 1024,
            safe_top_percent: 22,
            safe_bottom_percent: 24,
        };
        match variant {
            "cc" => Self {
                sizes: list(&["1080x1920", "720x1280"]),
                orientations: list(&["portrait"]),
                min_fps: 25.0,
                max_video_kbps: 6000,
                max_seconds: 48.0,
                max_file_mb: 20,
                h264_max_level: "4.0".into(),
                cover_max_kb: 512,
                ..base
            },
            "migu" => Self {
                sizes: list(&["1080x1920", "720x1280"]),
                orientations: list(&["portrait"]),
                min_fps: 25.0,
                true_peak_dbtp: -1.5,
                max_file_mb: 40,
                h264_max_level: "4.2".into(),
                safe_top_percent: 25,
                safe_bottom_percent: 26,
                ..base
            },
            "cu" => Self {
                sizes: list(&["720x1280"]),
                orientations: list(&["portrait"]),
                min_fps: 25.0,
                max_video_kbps: 4000,
                max_seconds: 30.0,
                max_file_mb: 15,
                h264_max_level: "3.1".into(),
                h264_profiles: list(&["baseline", "main"]),
                cover_max_kb: 512,
                safe_top_percent: 20,
                safe_bottom_percent: 22,
                ..base
            },
            _ => base,
        }
    }
}

/// A variant's ring platform: where its orders are delivered.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RingPlatformConfig {
    /// The carrier's delivery endpoint (`https://…`); empty uses the ring platform inside the binary.
    pub url: String,
    /// The HMAC-SHA256 key deliveries are signed with; required with `url`.
    pub secret: String,
    /// For the platform inside the binary: numbers it answers as having no video-ringtone service.
    pub not_joined: Vec<String>,
}

/// The AI abilities (docs/ai.md): the provider of each ability by its catalogue key
/// (`text-generation`, `keyword-extraction`…). An ability with no entry has no provider and is listed
/// as not configured. The defaults name the abilities that run on this machine with nothing downloaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AiConfig {
    /// Providers for every tenant, by ability key.
    pub abilities: BTreeMap<String, AiProviderConfig>,
    /// A tenant's own providers, by tenant then ability key; they replace `abilities`' entry for it
    /// (`provider = "none"` turns an ability off for that tenant).
    pub tenants: BTreeMap<String, BTreeMap<String, AiProviderConfig>>,
    /// Seconds a provider's health check is trusted before the catalogue asks again.
    pub health_ttl_seconds: u64,
    /// The program of the local text-to-speech voice (`espeak-ng`, looked up on the PATH).
    pub espeak_program: String,
    /// The OCR program video auditing reads frames with (`tesseract`, looked up on the PATH).
    pub tesseract_program: String,
    /// The local speech recogniser (`pocketsphinx_continuous`, looked up on the PATH).
    pub asr_program: String,
    /// The directory of its English model (acoustic model `en-us/`, dictionary, language model).
    pub asr_model_dir: String,
}

impl Default for AiConfig {
    fn default() -> Self {
        let local = AiProviderConfig { provider: "local".into(), ..AiProviderConfig::default() };
        Self {
            // Video auditing is local too, yet offered only once a word list is configured.
            abilities: ["keyword-extraction", "music-climax-cut", "text-to-speech", "title-generation", "dialogue-summary", "video-auditing", "speech-content-analysis",
                "video-highlight-extraction", "cover-generation", "audio-noise-reduction", "echo-cancellation", "gain-control"]
                .into_iter()
                .map(|k| (k.to_owned(), local.clone()))
                .collect(),
            tenants: BTreeMap::new(),
            health_ttl_seconds: 30,
            espeak_program: "espeak-ng".into(),
            tesseract_program: "tesseract".into(),
            asr_program: "pocketsphinx_continuous".into(),
            asr_model_dir: "/usr/share/pocketsphinx/model/en-us".into(),
        }
    }
}

/// One ability's provider: `local` (runs in the process), `http` (an OpenAI-compatible endpoint) or `none`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct AiProviderConfig {
    /// `local`, `http` or `none`.
    pub provider: String,
    /// For `http`: the endpoint's base URL, up to and with `/v1` (`https://llm.example.com/v1`).
    pub base_url: String,
    /// For `http`: the model name sent with each call.
    pub model: String,
    /// For `http`: the environment variable that holds the bearer key (the secret stays out of files).
    pub api_key_env: String,
    /// For `http`: seconds one try may take.
    pub timeout_seconds: u64,
    /// For `http`: tries after the first on a timeout, a refused connection or a 5xx (never on a 4xx).
    pub retries: u32,
    /// For `http`: milliseconds before the first retry; each retry doubles it (with jitter).
    pub first_retry_ms: u64,
    /// For `http` text-to-speech: the endpoint's voice for each of ours (`cmn`, `en`); a voice not
    /// named here is sent under its own name.
    pub voices: BTreeMap<String, String>,
    /// For video auditing: the sensitive words looked for (docs/ai.md); none leaves it not configured.
    pub words: Vec<String>,
}

impl Default for AiProviderConfig {
    fn default() -> Self {
        Self {
            provider: "none".into(),
            base_url: String::new(),
            model: String::new(),
            api_key_env: String::new(),
            timeout_seconds: 30,
            retries: 2,
            first_retry_ms: 500,
            voices: BTreeMap::new(),
            words: Vec::new(),
        }
    }
}

/// One variant (tenant).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct TenantConfig {
    /// Host names that select this variant, and the only hosts a hand-off may return to.
    pub hosts: Vec<String>,
    /// HMAC secret the host platform signs hand-off tokens with; empty turns hand-offs off.
    pub handoff_secret: String,
    /// The only hosts videos are imported from by address (`/material/v2/batchUrlVideoAddResult`):
    /// host names or IP addresses, each optionally with `:port`; empty turns the import off. A
    /// private, loopback or link-local address is fetched only when it is listed itself.
    pub import_hosts: Vec<String>,
}

/// How the task service's relay fills the render queue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct RenderConfig {
    /// Jobs of one tenant published and not yet started at most: the rest wait in the outbox, so
    /// one tenant's batch cannot starve another tenant's render (0 is taken as 1).
    pub tenant_in_queue: u32,
}

impl Default for RenderConfig {
    fn default() -> Self {
        Self { tenant_in_queue: 4 }
    }
}

/// Render worker settings.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WorkerConfig {
    /// Jobs one worker renders at once (also its prefetch).
    pub concurrency: u16,
    /// Seconds between a rendering worker's heartbeats.
    pub heartbeat_seconds: u64,
    /// Seconds without a heartbeat after which the task service takes a job back.
    pub stale_seconds: u64,
    /// Megabytes of materials kept on the worker's disk between jobs (`<data_dir>/cache/materials`);
    /// 0 downloads every material for every job.
    pub material_cache_mb: u64,
    /// Seconds any render may take, whatever its length: the floor of its time limit.
    pub render_limit_seconds: u64,
    /// Seconds of rendering allowed per second of video, on top of the floor.
    pub render_limit_per_video_second: u64,
    /// The nice value of the render threads (x264's; drawing and decoding run 10 nicer, at most
    /// 19). Unset: 10 in `all`, where renders share the cores with the API, 0 for a worker.
    pub render_nice: Option<i32>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            data_dir: PathBuf::from("data"),
            http: HttpConfig::default(),
            admin: AdminConfig { addr: "0.0.0.0:9090".into() },
            services: ServicesConfig::default(),
            database: DatabaseConfig::default(),
            cache: CacheConfig { url: "memory://".into() },
            queue: QueueConfig::default(),
            storage: StorageConfig::default(),
            log: LogConfig { format: "human".into(), filter: "info".into() },
            auth: AuthConfig::default(),
            mail: MailConfig::default(),
            tenants: ["qs", "cc", "migu", "cu"].into_iter().map(|k| (k.to_owned(), TenantConfig::default())).collect(),
            worker: WorkerConfig {
                concurrency: 1,
                // A killed worker's render is back in the queue within 27 s (stale 20 s, then the
                // reaper's pass every stale/3): the catalogue's bound of 30 s (Q3).
                heartbeat_seconds: 5,
                stale_seconds: 20,
                material_cache_mb: 2048,
                render_limit_seconds: 300,
                render_limit_per_video_second: 10,
                render_nice: None,
            },
            upload: UploadConfig::default(),
            render: RenderConfig::default(),
            timeouts: TimeoutConfig::default(),
            quota: QuotaConfig::default(),
            janitor: JanitorConfig::default(),
            ring: RingConfig::default(),
            tools: ToolsConfig::default(),
            ai: AiConfig::default(),
        }
    }
}

impl Default for HttpConfig {
    fn default() -> Self {
        Self {
            addr: "0.0.0.0:8080".into(),
            static_dir: PathBuf::from("frontend/dist"),
            max_body_bytes: 8 * 1024 * 1024,
            cors_origins: Vec::new(),
            client_ip_header: String::new(),
            trusted_proxies: Vec::new(),
        }
    }
}

impl Default for ServicesConfig {
    fn default() -> Self {
        Self {
            auth: ServiceAddr::on_port(7101),
            material: ServiceAddr::on_port(7102),
            category: ServiceAddr::on_port(7103),
            favourite: ServiceAddr::on_port(7104),
            task: ServiceAddr::on_port(7105),
            ai: ServiceAddr::on_port(7106),
            font: ServiceAddr::on_port(7107),
            ring: ServiceAddr::on_port(7108),
        }
    }
}

impl Default for QueueConfig {
    fn default() -> Self {
        Self { url: "db://".into(), delivery_limit: 3, lease_seconds: 900, prefetch: 1 }
    }
}

impl Default for AuthConfig {
    fn default() -> Self {
        Self {
            keys: Vec::new(),
            token_hours: 24 * 7,
            code_ttl_seconds: 300,
            resend_seconds: 60,
            codes_per_address_per_day: 10,
            requests_per_ip_mail_per_hour: 10,
            challenge_after_per_ip_per_hour: 30,
            requests_per_ip_per_hour: 300,
            challenge_bits: 16,
            challenge_ttl_seconds: 120,
            codes_per_tenant_per_day: 10_000,
            user_check_seconds: 5,
        }
    }
}

impl Config {
    /// Loads defaults, then `file` (when given, or `reelforge.toml` when present), then the environment.
    pub fn load(file: Option<&Path>) -> Result<Self, ConfigError> {
        let default_file = Path::new("reelforge.toml");
        let file = match file {
            Some(f) => Some(f.to_path_buf()),
            None if default_file.exists() => Some(default_file.to_path_buf()),
            None => None,
        };
        let mut figment = Figment::from(Serialized::defaults(Config::default()));
        if let Some(path) = &file {
            let shown = path.display().to_string();
            let text = std::fs::read_to_string(path)
                .map_err(|e| ConfigError::Malformed { path: shown.clone(), reason: e.to_string() })?;
            let value: toml::Value = toml::from_str(&text)
                .map_err(|e| ConfigError::Malformed { path: shown.clone(), reason: one_line(&e.to_string()) })?;
            if let Some(key) = unknown_keys(&value, &defaults_as_toml()?, "").into_iter().next() {
                return Err(ConfigError::UnknownKey { path: shown, key });
            }
            figment = figment.merge(Toml::string(&text));
        }
        figment = figment.merge(Env::prefixed("REELFORGE_").split("__"));
        let config: Config = figment.extract().map_err(|e| ConfigError::Invalid(one_line(&e.to_string())))?;
        Ok(config)
    }

    /// Lists `REELFORGE_*` environment variables that name no configuration key.
    pub fn unknown_env_keys() -> Vec<String> {
        let Ok(defaults) = defaults_as_toml() else { return Vec::new() };
        std::env::vars()
            .filter_map(|(k, _)| k.strip_prefix("REELFORGE_").map(str::to_owned))
            .filter(|k| {
                let path: Vec<String> = k.split("__").map(str::to_lowercase).collect();
                !has_path(&defaults, &path)
            })
            .map(|k| format!("REELFORGE_{k}"))
            .collect()
    }

    /// The database URL, defaulting to the embedded SQLite file.
    pub fn database_url(&self) -> String {
        if self.database.url.is_empty() {
            format!("sqlite://{}?mode=rwc", self.data_dir.join("reelforge.db").display())
        } else {
            self.database.url.clone()
        }
    }

    /// The storage URL, defaulting to `<data_dir>/blobs`.
    pub fn storage_url(&self) -> String {
        if self.storage.url.is_empty() {
            let dir = self.data_dir.join("blobs");
            let abs = std::path::absolute(&dir).unwrap_or(dir);
            format!("fs://{}", abs.display())
        } else {
            self.storage.url.clone()
        }
    }
}

fn defaults_as_toml() -> Result<toml::Value, ConfigError> {
    toml::Value::try_from(Config::default()).map_err(|e| ConfigError::Invalid(e.to_string()))
}

fn unknown_keys(value: &toml::Value, known: &toml::Value, prefix: &str) -> Vec<String> {
    let (Some(table), Some(known_table)) = (value.as_table(), known.as_table()) else { return Vec::new() };
    let mut out = Vec::new();
    for (k, v) in table {
        let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        // Any variant key may be configured; its fields are those of a default one. So may any AI
        // ability (a provider's fields), common or under a tenant, whose defaults list none.
        let keyed_by_variant = matches!(prefix, "tenants" | "ring.profiles" | "ring.platforms" | "ai.abilities");
        let tenant_abilities;
        let known_here = if keyed_by_variant {
            known_table.values().next()
        } else if prefix == "ai.tenants" {
            let provider = toml::Value::try_from(AiProviderConfig::default()).ok();
            tenant_abilities = v.as_table().map(|t| toml::Value::Table(t.keys().filter_map(|a| Some((a.clone(), provider.clone()?))).collect()));
            tenant_abilities.as_ref()
        } else {
            known_table.get(k)
        };
        match known_here {
            None => out.push(path),
            Some(kv) if kv.is_table() => out.extend(unknown_keys(v, kv, &path)),
            Some(_) => {}
        }
    }
    out
}

fn has_path(value: &toml::Value, path: &[String]) -> bool {
    match path.split_first() {
        None => true,
        Some((head, rest)) => value.as_table().and_then(|t| t.get(head)).is_some_and(|v| has_path(v, rest)),
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_run_without_a_file() -> Result<(), ConfigError> {
        let c = Config::load(None)?;
        assert_eq!(c.http.addr, "0.0.0.0:8080");
        assert!(c.auth.keys.is_empty(), "no built-in signing key");
        assert_eq!(c.auth.code_ttl_seconds, 300);
        assert!(c.services.task.listen.starts_with("127.0.0.1:"), "services listen on loopback");
        assert_eq!(c.tenants.keys().map(String::as_str).collect::<Vec<_>>(), ["cc", "cu", "migu", "qs"]);
        assert!(c.database_url().starts_with("sqlite://"));
        assert_eq!(c.render.tenant_in_queue, 4, "fairness is on with no settings");
        assert_eq!(c.ring.profiles["cu"].sizes, ["720x1280"], "each variant has its carrier's profile");
        assert!(c.ring.platforms.values().all(|p| p.url.is_empty()), "deliveries stay inside the binary by default");
        Ok(())
    }

    #[test]
    fn a_file_overrides_defaults_and_unknown_keys_are_refused() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let good = dir.path().join("good.toml");
        std::fs::write(&good, "[http]\naddr = \"127.0.0.1:9999\"\n[queue]\ndelivery_limit = 5\n[render]\ntenant_in_queue = 2\n")?;
        let c = Config::load(Some(&good))?;
        assert_eq!(c.http.addr, "127.0.0.1:9999");
        assert_eq!(c.queue.delivery_limit, 5);
        assert_eq!(c.render.tenant_in_queue, 2);

        let keys = dir.path().join("keys.toml");
        std::fs::write(&keys, "[[auth.keys]]\nid = \"k2\"\nsecret = \"s2\"\n[[auth.keys]]\nid = \"k1\"\nsecret = \"s1\"\n[tenants.qs]\nhosts = [\"a.example\"]\n[tenants.zz]\nhosts = []\n")?;
        let c = Config::load(Some(&keys))?;
        assert_eq!(c.auth.keys.iter().map(|k| k.id.as_str()).collect::<Vec<_>>(), ["k2", "k1"]);
        assert_eq!(c.tenants["qs"].hosts, ["a.example"]);
        assert!(c.tenants.contains_key("zz") && c.tenants.contains_key("cc"));
        let ring = dir.path().join("ring.toml");
        std::fs::write(&ring, "[ring.profiles.cu]\nmax_seconds = 20.0\n[ring.platforms.migu]\nurl = \"https://ring.example\"\nsecret = \"s\"\n")?;
        let c = Config::load(Some(&ring))?;
        assert_eq!(c.ring.profiles["cu"].max_seconds, 20.0);
        assert_eq!(c.ring.profiles["cu"].sizes, ["720x1280"], "the rest of a variant's profile stays");
        assert_eq!(c.ring.platforms["migu"].url, "https://ring.example");
        let bad_ring = dir.path().join("bad-ring.toml");
        std::fs::write(&bad_ring, "[ring.profiles.qs]\nmax_second = 20.0\n")?;
        let err = Config::load(Some(&bad_ring)).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("unknown key `ring.profiles.qs.max_second`"), "{err}");
        let bad_tenant = dir.path().join("bad-tenant.toml");
        std::fs::write(&bad_tenant, "[tenants.qs]\nhost = []\n")?;
        let err = Config::load(Some(&bad_tenant)).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("unknown key `tenants.qs.host`"), "{err}");

        // AI providers by ability, common and per tenant: any ability key, a provider's fields.
        let ai = dir.path().join("ai.toml");
        std::fs::write(&ai, "[ai.abilities.video-auditing]\nprovider = \"local\"\nwords = [\"样例词\"]\n[ai.abilities.text-generation]\nprovider = \"http\"\nbase_url = \"https://llm.example/v1\"\n[ai.tenants.cc.video-auditing]\nprovider = \"local\"\nwords = [\"其他\", \"demo word\"]\n")?;
        let c = Config::load(Some(&ai))?;
        assert_eq!(c.ai.abilities["video-auditing"].words, ["样例词"]);
        assert_eq!(c.ai.abilities["text-generation"].base_url, "https://llm.example/v1");
        assert_eq!(c.ai.tenants["cc"]["video-auditing"].words, ["其他", "demo word"]);
        let bad_ai = dir.path().join("bad-ai.toml");
        std::fs::write(&bad_ai, "[ai.tenants.cc.video-auditing]\nword = [\"x\"]\n")?;
        let err = Config::load(Some(&bad_ai)).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("unknown key `ai.tenants.cc.video-auditing.word`"), "{err}");

        let unknown = dir.path().join("unknown.toml");
        std::fs::write(&unknown, "[http]\nadress = \"x\"\n")?;
        let err = Config::load(Some(&unknown)).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("unknown key `http.adress`"), "{err}");

        let proxies = dir.path().join("proxies.toml");
        std::fs::write(&proxies, "[http]\ntrusted_proxies = [\"10.0.0.0/8\", \"192.0.2.7\", \"fd00::/8\"]\n")?;
        let c = Config::load(Some(&proxies))?;
        let ip = |s: &str| s.parse::<IpAddr>();
        assert!(c.http.trusted_proxies[0].contains(ip("10.20.30.40")?));
        assert!(c.http.trusted_proxies[0].contains(ip("::ffff:10.0.0.1")?), "a mapped IPv4 peer");
        assert!(c.http.trusted_proxies[1].contains(ip("192.0.2.7")?) && !c.http.trusted_proxies[1].contains(ip("192.0.2.8")?));
        assert!(c.http.trusted_proxies[2].contains(ip("fd00::1")?));
        let bad_proxy = dir.path().join("bad-proxy.toml");
        std::fs::write(&bad_proxy, "[http]\ntrusted_proxies = [\"10.0.0.0/33\"]\n")?;
        let err = Config::load(Some(&bad_proxy)).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.contains("`10.0.0.0/33` is neither an IP address nor a CIDR block"), "{err}");

        let broken = dir.path().join("broken.toml");
        std::fs::write(&broken, "[http\naddr=")?;
        let err = Config::load(Some(&broken)).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(err.starts_with(&format!("configuration file {}", broken.display())), "{err}");
        assert!(!err.contains('\n'));
        Ok(())
    }
}
