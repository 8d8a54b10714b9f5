//! The whole system in one test process: the six services behind their token verifiers on a loopback
//! gRPC port, and the gateway on a free HTTP port, over fresh backends: the embedded ones (SQLite, the
//! memory cache, the database queue, a local directory) or the distributed ones (PostgreSQL, Redis,
//! RabbitMQ, S3). [`on_both_backends!`] runs a suite on each.



use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use reelforge_gateway::{AppState, Clients};
use reelforge_kit::config::{SigningKeyConfig, TenantConfig};
use reelforge_kit::identity::OperatorLevel;
use reelforge_kit::{Config, Keyring};

pub type Fallible<T> = Result<T, Box<dyn std::error::Error>>;

/// The handoff secret configured for variant cc.
pub const CC_HANDOFF_SECRET: &str = "host-platform-secret-for-cc-0123456789";

/// A running system.
pub struct System {
    /// `http://127.0.0.1:PORT/diyvrbt`.
    pub base: String,
    /// The gRPC address of the services.
    pub grpc: SocketAddr,
    /// The signing keys.
    pub keys: Keyring,
    /// The configuration it runs with.
    pub config: Config,
    /// The URL of its database.
    pub db_url: String,
    /// The queue its render jobs go to.
    pub render_queue: String,
    /// The user table.
    pub users: reelforge_auth::UserStore,
    /// The material table.
    pub materials: reelforge_material::MaterialStore,
    /// The task tables, where a test plays the render worker's part.
    pub tasks: reelforge_task::TaskStore,
    /// The blob store the services and the gateway share (fonts, media, renders).
    pub blobs: reelforge_kit::BlobStore,
    /// The cache the services and the gateway share (namespaced to this system on Redis).
    pub cache: std::sync::Arc<dyn reelforge_kit::Cache>,
    /// The data directory (dev mail outbox).
    pub dir: tempfile::TempDir,
    http: actix_web::dev::ServerHandle,
    stop: tokio::sync::watch::Sender<bool>,
}

impl Drop for System {
    /// Stops the gateway and, on RabbitMQ, deletes the render queue (and its dead-letter queue)
    /// this system declared: they are durable, so each test would otherwise leave two behind.
    fn drop(&mut self) {
        drop(self.http.stop(false));
        self.stop.send_replace(true);
        if self.render_queue != reelforge_task::RENDER_QUEUE {
            let (url, queue) = (self.config.queue.url.clone(), self.render_queue.clone());
            // A thread of its own: the test's runtime is the one dropping this system.
            let deleted = std::thread::spawn(move || delete_queues(&url, &[queue.clone(), format!("{queue}.dead")])).join();
            if !matches!(deleted, Ok(Ok(()))) {
                eprintln!("render queue {} not deleted: {deleted:?}", self.render_queue);
            }
        }
    }
}

/// Deletes `queues` on the broker at `url` (gone already is fine), on a runtime of its own.
pub fn delete_queues(url: &str, queues: &[String]) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let conn = lapin::Connection::connect(url, lapin::ConnectionProperties::default()).await.map_err(|e| e.to_string())?;
        let channel = conn.create_channel().await.map_err(|e| e.to_string())?;
        for q in queues {
            channel.queue_delete(q.as_str().into(), lapin::options::QueueDeleteOptions::default()).await.map_err(|e| format!("{q}: {e}"))?;
        }
        conn.close(200, "done".into()).await.map_err(|e| e.to_string())
    })
}

/// Whether `queue` exists on the broker at `url` (a passive declaration).
pub async fn queue_exists(url: &str, queue: &str) -> Fallible<bool> {
    let conn = lapin::Connection::connect(url, lapin::ConnectionProperties::default()).await?;
    let channel = conn.create_channel().await?;
    let passive = lapin::options::QueueDeclareOptions { passive: true, ..Default::default() };
    let found = channel.queue_declare(queue.into(), passive, lapin::types::FieldTable::default()).await.is_ok();
    drop(conn.close(200, "done".into()).await);
    Ok(found)
}

/// A signed-in user as the browser holds them.
#[derive(Clone, Debug)]
pub struct User {
    pub tenant: String,
    pub user_id: String,
    pub token: String,
}

fn free_port() -> Fallible<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Sends the services' warnings and errors to the test's captured output, so a failing test shows
/// the cause behind an "internal error" answer (`RUST_LOG` widens it).
fn log_to_the_test() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "warn".into());
        drop(tracing_subscriber::fmt().with_env_filter(filter).with_test_writer().try_init());
    });
}

/// The backends a system runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backends {
    /// SQLite, the memory cache, the database queue and a local directory: `reelforge all`'s defaults.
    Embedded,
    /// PostgreSQL, Redis, RabbitMQ and S3 (SeaweedFS), as the distributed targets run.
    Distributed,
}

/// Runs each named suite, an `async fn(Backends) -> Fallible<()>` of the calling module, as two
/// tests: `embedded::<suite>` and `distributed::<suite>`.
macro_rules! on_both_backends {
    ($($suite:ident),+ $(,)?) => {
        mod embedded {
            $(
                #[tokio::test]
                async fn $suite() -> $crate::common::Fallible<()> {
                    super::$suite($crate::common::Backends::Embedded).await
                }
            )+
        }
        mod distributed {
            $(
                #[tokio::test]
                async fn $suite() -> $crate::common::Fallible<()> {
                    super::$suite($crate::common::Backends::Distributed).await
                }
            )+
        }
    };
}
pub(crate) use on_both_backends;

/// Starts everything over a fresh SQLite database and a local blob directory.
pub async fn start() -> Fallible<System> {
    start_on(&reelforge_kit::testing::fresh_sqlite(), None, |_| {}).await
}

/// Starts everything over fresh `backends`: for the distributed ones a fresh PostgreSQL database,
/// Redis (this system's keys under a prefix of its own), RabbitMQ (a render queue of its own) and a
/// fresh root in the S3 bucket.
pub async fn start_in(backends: Backends) -> Fallible<System> {
    match backends {
        Backends::Embedded => start().await,
        Backends::Distributed => {
            use reelforge_kit::testing::{amqp_url, fresh_postgres, redis_url, s3_url, unique};
            let storage = format!("{}&root=/{}", s3_url(), unique("gateway"));
            start_on(&fresh_postgres().await?, Some(storage), |c| {
                c.cache.url = redis_url();
                c.queue.url = amqp_url();
            })
            .await
        }
    }
}

/// Starts everything over a fresh PostgreSQL database.
pub async fn start_postgres() -> Fallible<System> {
    start_on(&reelforge_kit::testing::fresh_postgres().await?, None, |_| {}).await
}

/// Starts everything over the database at `db_url` and the blob store at `storage_url` (a
/// directory of the test when `None`), after `tune` adjusted the configuration.
pub async fn start_on(db_url: &str, storage_url: Option<String>, tune: impl FnOnce(&mut Config)) -> Fallible<System> {
    log_to_the_test();
    let dir = tempfile::tempdir()?;
    let mut config = Config { data_dir: dir.path().to_path_buf(), ..Config::default() };
    config.auth.keys = vec![SigningKeyConfig { id: "k1".into(), secret: "0123456789abcdef0123456789abcdef".into() }];
    config.http.addr = format!("127.0.0.1:{}", free_port()?);
    if let Some(cc) = config.tenants.get_mut("cc") {
        *cc = TenantConfig { hosts: vec!["cc.example.net".into()], handoff_secret: CC_HANDOFF_SECRET.into(), ..TenantConfig::default() };
    }
    // The tests reach the gateway by its loopback address: once a variant names hosts, only named
    // hosts are served.
    if let Some(qs) = config.tenants.get_mut("qs") {
        qs.hosts = vec!["127.0.0.1".into()];
    }
    // Every variant's ringtones are checked against the small profile the test clips meet.
    for profile in config.ring.profiles.values_mut() {
        *profile = ring_profile();
    }
    tune(&mut config);
    let keys = Keyring::new(&config.auth.keys)?;
    let db = reelforge_kit::db::connect(db_url).await?;
    let cache = reelforge_kit::cache::open(&config.cache.url).await?;
    let distributed = !config.queue.url.starts_with("db:");
    // Systems of parallel tests and earlier runs share one Redis and one RabbitMQ.
    let (cache, render_queue) = if distributed {
        let unique = reelforge_kit::testing::unique("it");
        (reelforge_kit::testing::namespaced(cache, &unique), format!("renders_{unique}"))
    } else {
        (cache, reelforge_task::RENDER_QUEUE.to_owned())
    };
    let queue = reelforge_kit::queue::open(&config.queue, &db).await?;
    reelforge_auth::migrate(&db).await?;
    reelforge_category::migrate(&db).await?;
    reelforge_favourite::migrate(&db).await?;
    reelforge_task::migrate(&db).await?;
    reelforge_material::migrate(&db).await?;
    reelforge_font::migrate(&db).await?;
    reelforge_ring::migrate(&db).await?;
    let blobs = reelforge_kit::BlobStore::open(&storage_url.unwrap_or_else(|| format!("fs://{}", dir.path().join("blobs").display())))?;
    let system_fonts = std::sync::Arc::new(reelforge_font::SystemFonts::load(&[reelforge_font::system::DEBIAN_FONT_DIR.into()]));
    // Bound first: the task service asks the material library on the same port.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let grpc = listener.local_addr()?;
    // Every service refuses a revoked user's token, as `reelforge`'s wiring puts them.
    let revocations = reelforge_kit::revocation::Revocations::new(cache.clone());
    // The task service's relay and the ring service's loops run until the system is dropped.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let guard = &revocations;
    let router = tonic::transport::Server::builder()
        .add_service(guard.guard(&keys, reelforge_auth::grpc_service(db.clone(), cache.clone(), &config, keys.clone())?))
        .add_service(guard.guard(
            &keys,
            reelforge_category::grpc_service(db.clone(), reelforge_kit::grpc::channel(&format!("http://{grpc}"), &Default::default())?, &keys),
        ))
        .add_service(guard.guard(&keys, reelforge_favourite::grpc_service(db.clone(), &keys)))
        .add_service(guard.guard(
            &keys,
            reelforge_task::grpc_service(
                reelforge_task::Backends {
                    db: db.clone(),
                    queue,
                    bus: reelforge_kit::bus::open(&config.queue.url).await?,
                    cache: cache.clone(),
                    blob: blobs.clone(),
                    materials: reelforge_kit::grpc::channel(&format!("http://{grpc}"), &Default::default())?,
                    auth: reelforge_kit::grpc::channel(&format!("http://{grpc}"), &Default::default())?,
                    // As `reelforge`'s wiring lists them; the system migrated them all above.
                    migrations: vec![
                        reelforge_auth::migration_book(),
                        reelforge_material::migration_book(),
                        reelforge_category::migration_book(),
                        reelforge_favourite::migration_book(),
                        reelforge_font::migration_book(),
                        reelforge_task::migration_book(),
                        reelforge_ring::migration_book(),
                    ],
                },
                reelforge_task::FarmSettings {
                    queue: render_queue.clone(),
                    stale: Duration::from_secs(90),
                    max_attempts: 3,
                    tenant_in_queue: 4,
                },
                &keys,
                stopped.clone(),
            )
            .await?,
        ))
        .add_service(guard.guard(&keys, reelforge_material::grpc_service_with_storage(
            db.clone(),
            blobs.clone(),
            reelforge_material::Quota::from_config(&config.quota),
            reelforge_material::MediaLimits::from_config(&config.upload),
            &keys,
        )))
        .add_service(guard.guard(&keys, reelforge_ai::grpc_service(&config.ai, &keys)))
        .add_service(guard.guard(
            &keys,
            reelforge_ring::grpc_service(
                reelforge_ring::Backends {
                    db: db.clone(),
                    blob: blobs.clone(),
                    tasks: Arc::new(reelforge_ring::TaskService::new(
                        reelforge_kit::grpc::channel(&format!("http://{grpc}"), &Default::default())?,
                        keys.clone(),
                    )),
                    scratch: dir.path().join("scratch"),
                },
                &config.ring,
                &config.timeouts,
                &keys,
                stopped,
            )?,
        ))
        .add_service(guard.guard(&keys, reelforge_font::grpc_service(db.clone(), blobs.clone(), system_fonts, &keys)));
    tokio::spawn(router.serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)));
    let channel = reelforge_kit::grpc::channel(&format!("http://{grpc}"), &Default::default())?;
    let state = AppState {
        clients: Clients::shared(channel),
        mode: "test".into(),
        ready: Arc::new(|| Box::pin(async { Ok(()) })),
        keys: keys.clone(),
        media: Some(reelforge_gateway::media::Media::new(
            blobs.clone(),
            &reelforge_gateway::media_ticket_secret(&keys)?,
            revocations.clone(),
            cache.clone(),
        )),
        frames: Some(reelforge_gateway::frame::Frames::new(
            reelforge_worker::Clients::connect(&format!("http://{grpc}"), &format!("http://{grpc}"), keys.clone(), &Default::default())?,
            blobs.clone(),
            reelforge_worker::MaterialCache::new(dir.path().join("cache"), 64 << 20),
            &dir.path().join("scratch"),
        )),
    };
    let server = reelforge_gateway::serve(&config, state)?;
    let http = server.handle();
    tokio::spawn(server);
    let base = format!("http://{}/diyvrbt", config.http.addr);
    let deadline = Instant::now() + Duration::from_secs(20);
    while reqwest::get(format!("{base}/system/info")).await.is_err() {
        if Instant::now() > deadline {
            return Err("the gateway did not start".into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    Ok(System {
        base,
        grpc,
        keys,
        config,
        db_url: db_url.to_owned(),
        render_queue,
        users: reelforge_auth::UserStore::new(db.clone()),
        materials: reelforge_material::MaterialStore::new(db.clone()),
        tasks: reelforge_task::TaskStore::new(db),
        blobs,
        cache,
        dir,
        http,
        stop,
    })
}

impl System {
    /// A user of `tenant` with operator `level`, created in the user table, holding a fresh token.
    pub async fn user(&self, tenant: &str, name: &str, level: i32) -> Fallible<User> {
        let mail = format!("{name}-{}@example.cn", uuid::Uuid::new_v4().simple());
        let u = reelforge_auth::grant(&self.users, &self.config.tenants, tenant, &mail, level).await?;
        let level = OperatorLevel::from_number(level).ok_or("level")?;
        let (token, _) = self.keys.issue_user(tenant, &u.user_id, level, 3600)?;
        Ok(User { tenant: tenant.into(), user_id: u.user_id, token })
    }

    /// A request from `user`'s browser: the variant and the auth headers of its variant.
    pub fn call(&self, method: reqwest::Method, path: &str, user: &User) -> reqwest::RequestBuilder {
        let r = reqwest::Client::new().request(method, format!("{}{path}", self.base)).header("X-Variant", &user.tenant);
        if user.tenant == "cc" {
            r.header("Authorization", format!("Bearer {}", user.token)).header("mobile", "13800000000")
        } else {
            r.header("Authorization", &user.token).header("userId", &user.user_id).header("mobile", "")
        }
    }
}

/// A rule the task service accepts.
pub fn rule() -> serde_json::Value {
    serde_json::json!({
        "version": 1, "renderVersion": 2, "ruleType": "VIDEO_EDIT", "videoQuality": 30, "frameRate": 80,
        "resolutionRatio": {"name": "16:9", "width": 640, "height": 360, "ratio": "16:9", "sizeId": 41, "targetWidth": 1280},
        "scenes": [{"id": 1, "type": "canvas", "timeLength": 2, "bgColor": "#1e3a8a", "effectTime": 1, "layers": []}],
        "audio": []
    })
}

/// The delivery profile the test clips meet: cc's rules with a 180×320 portrait size and a 1–3 s
/// window (small clips encode in a fraction of a second).
pub fn ring_profile() -> reelforge_kit::config::DeliveryProfile {
    reelforge_kit::config::DeliveryProfile {
        sizes: vec!["180x320".to_owned()],
        orientations: vec!["portrait".to_owned()],
        min_seconds: 1.0,
        max_seconds: 3.0,
        ..reelforge_kit::config::DeliveryProfile::for_variant("cc")
    }
}

/// A real MP4 meeting [`ring_profile`]: two seconds of 180×320 H.264 at 25 fps and a −16 LUFS AAC
/// sine (a 997 Hz sine in both channels reads 20·log10(A) LUFS), encoded once per test run.
pub fn ring_clip() -> Fallible<&'static [u8]> {
    static CLIP: std::sync::OnceLock<Result<Vec<u8>, String>> = std::sync::OnceLock::new();
    Ok(CLIP.get_or_init(|| encode_clip().map_err(|e| format!("making the test clip: {e}"))).as_deref().map_err(|e| e.clone())?)
}

fn encode_clip() -> Fallible<Vec<u8>> {
    use gstreamer as gst;
    use gstreamer::prelude::*;
    gst::init()?;
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("clip.mp4");
    let aac = if gst::ElementFactory::find("voaacenc").is_some() { "voaacenc" } else { "avenc_aac" };
    let amplitude = 10f64.powf(-16.0 / 20.0);
    let launch = format!(
        "videotestsrc num-buffers=50 pattern=smpte ! video/x-raw,format=I420,width=180,height=320,framerate=25/1 \
         ! x264enc speed-preset=ultrafast ! video/x-h264 ! queue ! mp4mux name=mux faststart=true ! filesink location={} \
         audiotestsrc num-buffers=200 samplesperbuffer=480 wave=sine freq=997 volume={amplitude} \
         ! audio/x-raw,rate=48000,channels=2 ! audioconvert ! {aac} ! queue ! mux.",
        path.display()
    );
    let pipeline = gst::parse::launch(&launch)?;
    pipeline.set_state(gst::State::Playing)?;
    let bus = pipeline.bus().ok_or("no bus")?;
    let msg = bus
        .timed_pop_filtered(gst::ClockTime::from_seconds(60), &[gst::MessageType::Eos, gst::MessageType::Error])
        .ok_or("encode timed out")?;
    pipeline.set_state(gst::State::Null)?;
    if let gst::MessageView::Error(e) = msg.view() {
        return Err(format!("encode failed: {}", e.error()).into());
    }
    Ok(std::fs::read(&path)?)
}

/// Plays the render worker for `user`'s task `id`: runs it and finishes the run with a stored MP4
/// ([`ring_clip`], a real one: ring orders measure it) and cover. Answers the video's key.
pub async fn finish_task(s: &System, user: &User, id: i64) -> Fallible<String> {
    let owner = reelforge_task::Owner { tenant: user.tenant.clone(), user_id: user.user_id.clone() };
    let run = s.tasks.run(&owner, id).await?;
    let job = reelforge_task::JobRef { tenant: user.tenant.clone(), task_id: id, job_id: run.job_id.clone(), attempt: 1 };
    let (video_key, cover_key) = reelforge_task::render_keys(&user.tenant, id, &run.job_id);
    s.blobs.put(&video_key, ring_clip()?.to_vec()).await?;
    s.blobs.put(&cover_key, b"\xff\xd8\xff cover".to_vec()).await?;
    if !s.tasks.start(&job, 60_000).await? {
        return Err("the run did not start".into());
    }
    let done = reelforge_task::FinishOutcome::Done { video_key: video_key.clone(), cover_key, loudness: None };
    if !s.tasks.finish(&job, false, done).await? {
        return Err("the run did not finish".into());
    }
    Ok(video_key)
}

/// The envelope of an answer.
pub async fn envelope(r: reqwest::RequestBuilder) -> Fallible<serde_json::Value> {
    Ok(r.send().await?.json().await?)
}

/// The data of a success envelope, or an error showing the envelope.
pub async fn data(r: reqwest::RequestBuilder) -> Fallible<serde_json::Value> {
    let v = envelope(r).await?;
    if v["code"] != 2000 {
        return Err(format!("not a success: {v}").into());
    }
    Ok(v["data"].clone())
}

/// A multipart body of `(name, file name, bytes)` fields: its content type and bytes.
pub fn multipart(fields: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    let boundary = format!("reelforge-{}", uuid::Uuid::new_v4().simple());
    let mut body = Vec::new();
    for (name, file_name, data) in fields {
        body.extend_from_slice(format!("--{boundary}\r\n").as_bytes());
        match file_name {
            Some(f) => body.extend_from_slice(
                format!("Content-Disposition: form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream\r\n\r\n").as_bytes(),
            ),
            None => body.extend_from_slice(format!("Content-Disposition: form-data; name=\"{name}\"\r\n\r\n").as_bytes()),
        }
        body.extend_from_slice(data);
        body.extend_from_slice(b"\r\n");
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

/// A Latin-only font file of the machine (it has no CJK glyphs), for font tests.
pub fn latin_font() -> Fallible<Vec<u8>> {
    const CANDIDATES: &[&str] = &[
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/opentype/urw-base35/NimbusSans-Regular.otf",
    ];
    CANDIDATES
        .iter()
        .find_map(|p| std::fs::read(p).ok())
        .ok_or_else(|| format!("no Latin-only font on this machine (looked for {CANDIDATES:?}; install fonts-dejavu-core)").into())
}

/// The upload form's fields as the editor sends them, before the file.
pub const FORM: &[(&str, &str)] = &[("type", "picture"), ("expireDay", "1000"), ("categoryId", "-1"), ("styleId", "-1"), ("materialState", "0")];

/// Uploads `files` to `route` as `user`'s editor does; answers the envelope.
pub async fn upload_to(s: &System, route: &str, user: &User, files: &[(&str, &[u8])]) -> Fallible<serde_json::Value> {
    let mut parts: Vec<(&str, Option<&str>, &[u8])> = vec![("userId", None, user.user_id.as_bytes())];
    parts.extend(FORM.iter().map(|(k, v)| (*k, None, v.as_bytes())));
    parts.extend(files.iter().map(|(name, bytes)| ("uploadFile", Some(*name), *bytes)));
    let (content_type, body) = multipart(&parts);
    envelope(s.call(reqwest::Method::POST, route, user).header("Content-Type", content_type).body(body)).await
}

/// Uploads one file; answers the material id.
pub async fn upload(s: &System, user: &User, name: &str, bytes: &[u8]) -> Fallible<String> {
    let v = upload_to(s, "/upload/material", user, &[(name, bytes)]).await?;
    let text = v["data"].as_str().ok_or_else(|| format!("not an upload answer: {v}"))?;
    assert_eq!(v["desc"], "素材添加成功", "{v}");
    Ok(text.strip_prefix("UPLOADED - ").ok_or_else(|| format!("not an upload answer: {v}"))?.to_owned())
}

/// Uploads one system material as the administrator `admin` into system category `category`;
/// answers its id.
pub async fn upload_system(s: &System, admin: &User, category: &str, name: &str, bytes: &[u8]) -> Fallible<String> {
    let (content_type, body) = multipart(&[("categoryId", None, category.as_bytes()), ("uploadFile", Some(name), bytes)]);
    let v = data(s.call(reqwest::Method::POST, "/maintain/material/upload", admin).header("Content-Type", content_type).body(body)).await?;
    Ok(v["id"].as_str().ok_or_else(|| format!("not a system upload answer: {v}"))?.to_owned())
}

/// A tiny PNG.
pub const PNG: &[u8] = include_bytes!("../../fixtures/pic.png");
/// A short H.264 clip.
pub const MP4: &[u8] = include_bytes!("../../fixtures/clip.mp4");

/// Waits until probing has decided (at most 90 s); answers the material.
pub async fn settled(s: &System, user: &User, id: &str) -> Fallible<serde_json::Value> {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let m = data(s.call(reqwest::Method::POST, &format!("/material/info/{id}"), user)).await?;
        if m["state"] != "processing" {
            return Ok(m);
        }
        if Instant::now() > deadline {
            return Err(format!("material {id} still processing: {m}").into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
