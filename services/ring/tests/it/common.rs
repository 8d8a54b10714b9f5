//! The ring service on a loopback gRPC port over a fresh database and a blob directory, with the
//! task service played by a table of finished tasks; and a carrier's ring platform as a real HTTP
//! server (actix-web) that records every request it is sent.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use reelforge_kit::config::{RingConfig, RingPlatformConfig, SigningKeyConfig, TimeoutConfig};
use reelforge_kit::identity::OperatorLevel;
use reelforge_kit::{BlobStore, Keyring};
use reelforge_proto::ring::ring_service_client::RingServiceClient;
use reelforge_proto::ring::{self as pb};
use reelforge_ring::domain::FinishedTask;
use reelforge_ring::{Backends, RingError, Tasks};

use crate::clip;
use tonic::transport::Channel;

pub type Fallible<T> = Result<T, Box<dyn std::error::Error>>;

/// The HMAC secret of the test platform.
pub const SECRET: &str = "carrier-secret";
/// The public address deliveries' file URLs start with.
pub const PUBLIC: &str = "http://ring.test";

/// Runs each named case as a test on SQLite and one on PostgreSQL.
#[macro_export]
macro_rules! on_both {
    ($($case:ident),* $(,)?) => {$(
        mod $case {
            #[tokio::test]
            async fn on_sqlite() -> $crate::common::Fallible<()> {
                super::$case(&reelforge_kit::testing::fresh_sqlite()).await
            }
            #[tokio::test]
            async fn on_postgres() -> $crate::common::Fallible<()> {
                super::$case(&reelforge_kit::testing::fresh_postgres().await?).await
            }
        }
    )*};
}

/// The task service as the ring service reads it: finished tasks by (tenant, user, id); task 2
/// of every user is not finished.
struct FinishedTasks(BTreeMap<(String, String, i64), FinishedTask>);

#[async_trait::async_trait]
impl Tasks for FinishedTasks {
    async fn finished(&self, tenant: &str, user: &str, id: i64) -> Result<FinishedTask, RingError> {
        if id == 2 {
            return Err(RingError::TaskNotFinished(id));
        }
        self.0
            .get(&(tenant.to_owned(), user.to_owned(), id))
            .cloned()
            .ok_or(RingError::TaskNotFound(id))
    }

    // The one-click fix runs through the task service; the gateway's tests cover it.
    async fn fixed(&self, _: &str, _: &str, _: FinishedTask, fix_id: i64) -> Result<FinishedTask, RingError> {
        Err(RingError::FixNotFound(fix_id))
    }

    async fn run_fix(&self, _: &str, _: &str, id: i64, _: &reelforge_kit::config::DeliveryProfile) -> Result<(i64, String), RingError> {
        Err(RingError::TaskNotFinished(id))
    }
}

/// A running ring service.
pub struct Ring {
    pub client: RingServiceClient<Channel>,
    pub keys: Keyring,
    pub store: reelforge_ring::RingStore,
    _dir: tempfile::TempDir,
    stop: tokio::sync::watch::Sender<bool>,
}

impl Drop for Ring {
    fn drop(&mut self) {
        let _ = self.stop.send(true);
    }
}

/// A ring configuration whose qs platform is at `url` (the one inside the binary when `None`),
/// retrying after at most a second, and whose qs profile is the test clips'.
pub fn config(url: Option<&str>, attempts: u32) -> RingConfig {
    let mut c = RingConfig {
        delivery_attempts: attempts,
        first_retry_seconds: 1,
        max_retry_seconds: 1,
        public_base_url: PUBLIC.into(),
        ..RingConfig::default()
    };
    c.platforms.insert(
        "qs".into(),
        RingPlatformConfig {
            url: url.unwrap_or_default().into(),
            secret: SECRET.into(),
            not_joined: vec!["139 0000 0000".into()],
        },
    );
    c.profiles.insert("qs".into(), clip::profile());
    c
}

/// Starts the service over the database at `db_url` with `config`.
pub async fn start(db_url: &str, config: RingConfig) -> Fallible<Ring> {
    let dir = tempfile::tempdir()?;
    let keys = Keyring::new(&[SigningKeyConfig {
        id: "k1".into(),
        secret: "0123456789abcdef0123456789abcdef".into(),
    }])?;
    let db = reelforge_kit::db::connect(db_url).await?;
    reelforge_ring::migrate(&db).await?;
    let blob = BlobStore::open(&format!("fs://{}", dir.path().join("blobs").display()))?;
    let mut tasks = BTreeMap::new();
    // Task 1 of each user conforms to the test profile; task 3 of u1 of qs is too long.
    let finished = [("qs", "u1", 1, clip::conforming()?), ("qs", "u2", 1, clip::conforming()?), ("cc", "u1", 1, clip::conforming()?), ("qs", "u1", 3, clip::too_long()?)];
    for (tenant, user, id, video) in finished {
        let video_key = format!("t/{tenant}/tasks/{id}/renders/{user}.mp4");
        let cover_key = format!("t/{tenant}/tasks/{id}/renders/{user}.jpg");
        blob.put(&video_key, video.to_vec()).await?;
        blob.put(&cover_key, b"\xff\xd8\xff cover".to_vec()).await?;
        tasks.insert(
            (tenant.into(), user.into(), id),
            FinishedTask {
                id,
                name: "我的彩铃".into(),
                video_key,
                cover_key,
            },
        );
    }
    let (stop, shutdown) = tokio::sync::watch::channel(false);
    let backends = Backends {
        db: db.clone(),
        blob,
        tasks: Arc::new(FinishedTasks(tasks)),
        scratch: dir.path().join("scratch"),
    };
    let svc = reelforge_ring::grpc_service(
        backends,
        &config,
        &TimeoutConfig {
            connect_seconds: 1,
            service_call_seconds: 2,
            ..TimeoutConfig::default()
        },
        &keys,
        shutdown,
    )?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(
        tonic::transport::Server::builder()
            .add_service(svc)
            .serve_with_incoming(tokio_stream::wrappers::TcpListenerStream::new(listener)),
    );
    let channel =
        reelforge_kit::grpc::channel(&format!("http://{addr}"), &TimeoutConfig::default())?;
    Ok(Ring {
        client: RingServiceClient::new(channel),
        keys,
        store: reelforge_ring::RingStore::new(db),
        _dir: dir,
        stop,
    })
}

impl Ring {
    /// A request carrying `msg` as `user` of `tenant` (an operation user unless `level` says).
    pub fn as_user<T>(
        &self,
        tenant: &str,
        user: &str,
        level: OperatorLevel,
        msg: T,
    ) -> Fallible<tonic::Request<T>> {
        let (token, _) = self.keys.issue_user(tenant, user, level, 600)?;
        Ok(reelforge_kit::identity::request(msg, &token)?)
    }

    /// `msg` as user `u1` of qs.
    pub fn u1<T>(&self, msg: T) -> Fallible<tonic::Request<T>> {
        self.as_user("qs", "u1", OperatorLevel::Operation, msg)
    }

    /// Saves an order of task 1 for `phone` as u1 of qs.
    pub async fn save(&self, phone: &str) -> Fallible<pb::Order> {
        let req = pb::SaveRingRequest {
            task_id: 1,
            phone: phone.into(),
            copyright_agreed: true,
            copyright_id: String::new(),
            fix_id: 0,
        };
        Ok(self
            .client
            .clone()
            .save_ring(self.u1(req)?)
            .await?
            .into_inner())
    }

    /// Uploads u1's order `id`.
    pub async fn upload(&self, id: i64) -> Result<pb::Order, tonic::Status> {
        let req = self
            .u1(pb::OrderRequest { order_id: id })
            .map_err(|e| tonic::Status::internal(e.to_string()))?;
        Ok(self.client.clone().ring_upload(req).await?.into_inner())
    }

    /// u1's order `id` as their list shows it.
    pub async fn order(&self, id: i64) -> Fallible<pb::Order> {
        let page = self
            .client
            .clone()
            .list_orders(self.u1(pb::ListOrdersRequest {
                page: 1,
                size: 100,
                state: None,
            })?)
            .await?
            .into_inner();
        Ok(page
            .list
            .into_iter()
            .find(|o| o.id == id)
            .ok_or("the order is listed")?)
    }

    /// Waits (up to 15 s) until u1's order `id` is in `state`.
    pub async fn settled(&self, id: i64, state: i32) -> Fallible<pb::Order> {
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let o = self.order(id).await?;
            if o.state == state {
                return Ok(o);
            }
            if Instant::now() > deadline {
                return Err(format!("order {id} stayed {o:?}, not state {state}").into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

/// The stable reason a refusal carries.
pub fn reason(s: &tonic::Status) -> &str {
    s.metadata()
        .get(reelforge_kit::status::REASON_METADATA)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// One request the platform was sent.
#[derive(Debug, Clone)]
pub struct Received {
    pub signature: String,
    pub idempotency_key: String,
    pub body: Vec<u8>,
}

/// What the platform received and what it answers next (then 200 `{ref}`).
#[derive(Default)]
pub struct Recorder {
    pub received: Mutex<Vec<Received>>,
    pub answers: Mutex<VecDeque<(u16, String)>>,
}

impl Recorder {
    /// The requests received so far.
    pub fn received(&self) -> Vec<Received> {
        self.received.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

async fn answer(
    req: actix_web::HttpRequest,
    body: actix_web::web::Bytes,
    rec: actix_web::web::Data<Recorder>,
) -> actix_web::HttpResponse {
    let header = |name: &str| {
        req.headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let n = {
        let Ok(mut received) = rec.received.lock() else {
            return actix_web::HttpResponse::InternalServerError().finish();
        };
        received.push(Received {
            signature: header("x-ring-signature"),
            idempotency_key: header("idempotency-key"),
            body: body.to_vec(),
        });
        received.len()
    };
    let next = rec.answers.lock().ok().and_then(|mut a| a.pop_front());
    let (status, body) = next.unwrap_or_else(|| (200, format!(r#"{{"ref":"carrier-{n}"}}"#)));
    let status =
        actix_web::http::StatusCode::from_u16(status).unwrap_or(actix_web::http::StatusCode::OK);
    actix_web::HttpResponse::build(status)
        .content_type("application/json")
        .body(body)
}

/// A carrier platform listening on `port` of the loopback, recording into `rec`.
pub struct Platform {
    handle: actix_web::dev::ServerHandle,
}

impl Platform {
    /// Starts it; the port is listening when this returns.
    pub fn start(port: u16, rec: Arc<Recorder>) -> Fallible<Self> {
        let data = actix_web::web::Data::from(rec);
        let server = actix_web::HttpServer::new(move || {
            actix_web::App::new()
                .app_data(data.clone())
                .default_service(actix_web::web::to(answer))
        })
        .workers(1)
        .bind(("127.0.0.1", port))?
        .run();
        let handle = server.handle();
        tokio::spawn(server);
        Ok(Self { handle })
    }

    /// Stops it and closes the port.
    pub async fn stop(self) {
        self.handle.stop(true).await;
    }
}

/// A loopback port nothing listens on now.
pub fn closed_port() -> Fallible<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}
