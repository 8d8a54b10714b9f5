//! The distributed mode as real processes: a gateway, the six services and two workers, on
//! PostgreSQL (a fresh database), Redis, RabbitMQ (a private virtual host, so no other test's jobs
//! reach these workers) and S3 (a private root). Renders are tiny; waits poll with deadlines.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{
    Process, TestResult, canvas_rule, envelope_data, free_port, get_until, save_task, sign_in,
};
use reelforge_kit::BlobStore;
use reelforge_kit::testing::{amqp_url, fresh_postgres, redis_url, s3_url, unique};
use sea_orm::{ConnectionTrait, DatabaseConnection, Statement};

fn rabbitmqctl(args: &[&str]) -> TestResult {
    let status = Command::new("rabbitmqctl")
        .args(args)
        .stdout(std::process::Stdio::null())
        .status()?;
    if !status.success() {
        return Err(format!("rabbitmqctl {}: {status}", args.join(" ")).into());
    }
    Ok(())
}

/// A RabbitMQ virtual host of this test's own (the render queue's name is fixed), deleted on drop
/// with every queue and message in it.
struct Vhost(String);

impl Vhost {
    fn create() -> Result<Self, Box<dyn std::error::Error>> {
        let vhost = Self(unique("rf"));
        rabbitmqctl(&["add_vhost", &vhost.0])?;
        rabbitmqctl(&["set_permissions", "-p", &vhost.0, "guest", ".*", ".*", ".*"])?;
        Ok(vhost)
    }

    /// The test broker's URL with this virtual host.
    fn url(&self) -> String {
        let server = amqp_url();
        let base = server.rsplit_once('/').map_or(server.as_str(), |(b, _)| b);
        format!("{base}/{}", self.0)
    }
}

impl Drop for Vhost {
    fn drop(&mut self) {
        let _ = rabbitmqctl(&["delete_vhost", &self.0]);
    }
}

/// What every process of one farm shares: backends, the signing key and the services' addresses.
fn shared_env(
    db: &str,
    cache: &str,
    queue: &str,
    storage: &str,
    stale: u32,
) -> Result<Vec<(&'static str, String)>, std::io::Error> {
    let mut env = vec![
        ("REELFORGE_DATABASE__URL", db.to_owned()),
        ("REELFORGE_CACHE__URL", cache.to_owned()),
        ("REELFORGE_QUEUE__URL", queue.to_owned()),
        ("REELFORGE_STORAGE__URL", storage.to_owned()),
        (
            "REELFORGE_AUTH__KEYS",
            format!(r#"[{{id="t",secret="{}"}}]"#, unique("secret")),
        ),
        ("REELFORGE_AUTH__REQUESTS_PER_IP_PER_HOUR", "100000".into()),
        ("REELFORGE_AUTH__CHALLENGE_AFTER_PER_IP_PER_HOUR", "100000".into()),
        ("REELFORGE_WORKER__HEARTBEAT_SECONDS", "1".into()),
        ("REELFORGE_WORKER__STALE_SECONDS", stale.to_string()),
    ];
    for (listen, url) in [
        (
            "REELFORGE_SERVICES__AUTH__LISTEN",
            "REELFORGE_SERVICES__AUTH__URL",
        ),
        (
            "REELFORGE_SERVICES__MATERIAL__LISTEN",
            "REELFORGE_SERVICES__MATERIAL__URL",
        ),
        (
            "REELFORGE_SERVICES__CATEGORY__LISTEN",
            "REELFORGE_SERVICES__CATEGORY__URL",
        ),
        (
            "REELFORGE_SERVICES__FAVOURITE__LISTEN",
            "REELFORGE_SERVICES__FAVOURITE__URL",
        ),
        (
            "REELFORGE_SERVICES__TASK__LISTEN",
            "REELFORGE_SERVICES__TASK__URL",
        ),
        (
            "REELFORGE_SERVICES__AI__LISTEN",
            "REELFORGE_SERVICES__AI__URL",
        ),
        (
            "REELFORGE_SERVICES__FONT__LISTEN",
            "REELFORGE_SERVICES__FONT__URL",
        ),
    ] {
        let port = free_port()?;
        env.push((listen, format!("127.0.0.1:{port}")));
        env.push((url, format!("http://127.0.0.1:{port}")));
    }
    Ok(env)
}

/// Starts `reelforge <target>` with `env` plus its own admin address and waits for its `/readyz`.
async fn start_ready(
    target: &'static str,
    dir: &std::path::Path,
    env: &[(&'static str, String)],
) -> Result<(Process, u16), Box<dyn std::error::Error>> {
    let admin = free_port()?;
    let mut env = env.to_vec();
    env.push(("REELFORGE_ADMIN__ADDR", format!("127.0.0.1:{admin}")));
    let mut process = Process::spawn(target, dir, &env)?;
    if ready(admin).await.is_none() {
        return Err(format!("{target} did not become ready\n{}", process.stderr()).into());
    }
    Ok((process, admin))
}

/// Polls `/readyz` of the admin endpoint on `port` until it answers ready (30 s at most).
async fn ready(port: u16) -> Option<String> {
    get_until(&format!("http://127.0.0.1:{port}/readyz"), |b| {
        b.starts_with("ready")
    })
    .await
}

/// A distributed farm behind a gateway, with a signed-in user.
struct Farm {
    base: String,
    client: reqwest::Client,
    db: DatabaseConnection,
    blob: BlobStore,
    /// The workers with their admin ports; the processes die before the virtual host goes.
    workers: Vec<(Process, u16)>,
    _services: Vec<Process>,
    _vhost: Vhost,
    _dir: tempfile::TempDir,
}

impl Farm {
    /// Starts every service, two workers (stale limit `stale` s, 1 s heartbeats) and the gateway.
    async fn start(stale: u32) -> Result<Self, Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let vhost = Vhost::create()?;
        let db_url = fresh_postgres().await?;
        let storage = format!("{}&root=/{}", s3_url(), unique("dist"));
        let env = shared_env(&db_url, &redis_url(), &vhost.url(), &storage, stale)?;
        let mut services = Vec::new();
        // One at a time: each runs its migrations on the fresh database.
        for target in ["task", "auth", "material", "category", "favourite", "font", "ai"] {
            services.push(start_ready(target, dir.path(), &env).await?.0);
        }
        let mut workers = Vec::new();
        for n in 0..2 {
            let mut env = env.clone();
            env.push((
                "REELFORGE_DATA_DIR",
                dir.path().join(format!("worker{n}")).display().to_string(),
            ));
            workers.push(start_ready("worker", dir.path(), &env).await?);
        }
        let http = free_port()?;
        let mut env = env.clone();
        env.push(("REELFORGE_HTTP__ADDR", format!("127.0.0.1:{http}")));
        let mut gateway = Process::spawn("gateway", dir.path(), &env)?;
        if ready(http).await.is_none() {
            return Err(format!("the gateway did not become ready\n{}", gateway.stderr()).into());
        }
        services.push(gateway);
        let base = format!("http://127.0.0.1:{http}/diyvrbt");
        // Its own address: codes and their resend limit live in the shared Redis.
        let user = format!("{}@example.com", unique("dist"));
        let token = sign_in(&base, dir.path(), &user).await?;
        let client = reqwest::Client::builder()
            .default_headers(
                [
                    (
                        reqwest::header::HeaderName::from_static("userid"),
                        reqwest::header::HeaderValue::from_str(&user)?,
                    ),
                    (
                        reqwest::header::AUTHORIZATION,
                        reqwest::header::HeaderValue::from_str(&token)?,
                    ),
                ]
                .into_iter()
                .collect(),
            )
            .build()?;
        Ok(Self {
            base,
            client,
            db: reelforge_kit::db::connect(&db_url).await?,
            blob: BlobStore::open(&storage)?,
            workers,
            _services: services,
            _vhost: vhost,
            _dir: dir,
        })
    }

    /// Saves a 320×180 document of `seconds` and runs it; answers the task id.
    async fn save_and_run(&self, seconds: u32) -> Result<i64, Box<dyn std::error::Error>> {
        let save = self.client.post(format!("{}/videotask/save", self.base));
        let task_id = save_task(save, &canvas_rule(seconds), "dist").await?;
        let run = self
            .client
            .post(format!("{}/videotask/runtask", self.base))
            .json(&serde_json::json!({"taskId": task_id}))
            .send()
            .await?
            .text()
            .await?;
        envelope_data(&run)?;
        Ok(task_id)
    }

    async fn state(&self, task_id: i64) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
        let body = self
            .client
            .get(format!("{}/videotask/state?taskId={task_id}", self.base))
            .send()
            .await?
            .text()
            .await?;
        envelope_data(&body)
    }

    /// Polls the task's state until it ended (success or error) or `deadline` passed.
    async fn ended(
        &self,
        task_id: i64,
        deadline: Instant,
    ) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
        loop {
            let s = self.state(task_id).await?;
            if s["status"] == 10 || s["status"] == 9 {
                return Ok(s);
            }
            if Instant::now() > deadline {
                return Err(format!("task {task_id} did not end: {s}").into());
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    /// The task's render jobs as (state, attempt).
    async fn jobs(&self, task_id: i64) -> Result<Vec<(String, i64)>, Box<dyn std::error::Error>> {
        let rows = self
            .db
            .query_all_raw(Statement::from_string(
                self.db.get_database_backend(),
                format!("SELECT state, attempt FROM render_job WHERE task_id = {task_id}"),
            ))
            .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("", "state")?,
                    i64::from(r.try_get::<i32>("", "attempt")?),
                ))
            })
            .collect()
    }

    /// Asserts the task succeeded once: status 10, one job done, one MP4 (and its cover) stored.
    async fn assert_succeeded_once(
        &self,
        state: &serde_json::Value,
        task_id: i64,
    ) -> Result<Vec<(String, i64)>, Box<dyn std::error::Error>> {
        assert_eq!(state["status"], 10, "task {task_id}: {state}");
        let jobs = self.jobs(task_id).await?;
        assert!(
            jobs.len() == 1 && jobs[0].0 == "done",
            "task {task_id}: one job, done: {jobs:?}"
        );
        let objects = self
            .blob
            .list(&format!("t/qs/tasks/{task_id}/renders/"))
            .await?;
        let videos: Vec<_> = objects.iter().filter(|k| k.ends_with(".mp4")).collect();
        assert_eq!(videos.len(), 1, "task {task_id}: one video: {objects:?}");
        assert_eq!(
            objects.len(),
            2,
            "task {task_id}: a video and a cover: {objects:?}"
        );
        assert!(
            state["videoRelativePath"]
                .as_str()
                .is_some_and(|k| k.ends_with(videos[0].rsplit('/').next().unwrap_or_default())),
            "{state} {objects:?}"
        );
        let mp4 = self.blob.get(videos[0]).await?;
        assert!(
            mp4.len() > 1000 && &mp4[4..8] == b"ftyp",
            "an MP4 is stored"
        );
        Ok(jobs)
    }
}

/// A gauge or counter of a worker's `/metrics`.
async fn metric(admin: u16, name: &str) -> Result<f64, Box<dyn std::error::Error>> {
    let text = reqwest::get(format!("http://127.0.0.1:{admin}/metrics"))
        .await?
        .text()
        .await?;
    let value = text
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .ok_or_else(|| format!("no {name} in /metrics"))?;
    Ok(value.trim().parse()?)
}

/// Twenty tasks on two worker processes: each succeeds once, with one job row and one video, and
/// both workers rendered some (each worker's render count, from its `/metrics`).
#[tokio::test]
async fn twenty_tasks_on_two_workers_succeed_once_each() -> TestResult {
    let farm = Farm::start(90).await?;
    let mut tasks = Vec::new();
    for _ in 0..20 {
        tasks.push(farm.save_and_run(2).await?);
    }
    let deadline = Instant::now() + Duration::from_secs(400);
    for &task_id in &tasks {
        let state = farm.ended(task_id, deadline).await?;
        let jobs = farm.assert_succeeded_once(&state, task_id).await?;
        assert_eq!(
            jobs[0].1, 1,
            "task {task_id}: rendered at the first attempt"
        );
    }
    let mut counts = Vec::new();
    for (_, admin) in &farm.workers {
        counts.push(metric(*admin, "reelforge_render_seconds_count").await?);
    }
    assert_eq!(
        counts.iter().sum::<f64>(),
        20.0,
        "20 renders in all: {counts:?}"
    );
    assert!(
        counts.iter().all(|&n| n > 0.0),
        "both workers rendered: {counts:?}"
    );
    Ok(())
}

/// A worker process killed with SIGKILL while it draws: its job is reaped (3 s stale limit) and
/// the other worker renders it; the task succeeds once, one job, one video.
#[tokio::test]
async fn a_render_survives_sigkill_of_its_worker() -> TestResult {
    let mut farm = Farm::start(3).await?;
    let task_id = farm.save_and_run(40).await?;
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let s = farm.state(task_id).await?;
        if s["stage"] == "rendering" && s["framesDone"].as_u64().unwrap_or(0) > 0 {
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("never seen rendering: {s}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut busy = None;
    for (i, (_, admin)) in farm.workers.iter().enumerate() {
        if metric(*admin, "reelforge_render_jobs_in_flight").await? > 0.0 {
            busy = Some(i);
        }
    }
    let busy = busy.ok_or("no worker has the job in flight")?;
    let (mut killed, _) = farm.workers.remove(busy);
    killed.0.kill()?;
    killed.0.wait()?;

    let state = farm
        .ended(task_id, Instant::now() + Duration::from_secs(300))
        .await?;
    let jobs = farm.assert_succeeded_once(&state, task_id).await?;
    assert!(jobs[0].1 >= 2, "rendered again after the reaper: {jobs:?}");
    let (_, survivor) = &farm.workers[0];
    assert_eq!(
        metric(*survivor, "reelforge_render_seconds_count").await?,
        1.0,
        "the other worker rendered it once"
    );
    Ok(())
}

/// Starts a private `redis-server` on `port`.
fn redis_on(port: u16) -> Result<Process, std::io::Error> {
    Process::start(Command::new("redis-server").args([
        "--port",
        &port.to_string(),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
    ]))
}

/// The task service's `/readyz` turns red while its cache is gone and green when it is back.
#[tokio::test]
async fn readyz_follows_the_cache() -> TestResult {
    let dir = tempfile::tempdir()?;
    let vhost = Vhost::create()?;
    let port = free_port()?;
    let mut redis = redis_on(port)?;
    let cache = format!("redis://127.0.0.1:{port}/0");
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        if Instant::now() > deadline {
            return Err(format!("redis did not start\n{}", redis.stderr()).into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let env = shared_env(
        &fresh_postgres().await?,
        &cache,
        &vhost.url(),
        &s3_url(),
        90,
    )?;
    let (mut task, admin) = start_ready("task", dir.path(), &env).await?;

    redis.0.kill()?;
    redis.0.wait()?;
    let url = format!("http://127.0.0.1:{admin}/readyz");
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let r = client.get(&url).send().await?;
        let code = r.status().as_u16();
        let body = r.text().await?;
        if code == 503 {
            assert!(body.starts_with("not ready: task: cache"), "{body}");
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("still ready without its cache: {code} {body}").into());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }

    let _redis = redis_on(port)?;
    if ready(admin).await.is_none() {
        return Err(format!(
            "not ready again after the cache came back\n{}",
            task.stderr()
        )
        .into());
    }
    Ok(())
}
