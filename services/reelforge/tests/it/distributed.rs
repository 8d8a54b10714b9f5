//! The distributed mode as real processes: a gateway, the six services and two workers, on
//! PostgreSQL (a fresh database), Redis, RabbitMQ (a private virtual host, so no other test's jobs
//! reach these workers) and S3 (a private root). Renders are tiny; waits poll with deadlines.

// Process::spawn is not used here: a farm's processes keep their log (see Member::launch).
#[allow(dead_code)]
use crate::common;

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
        (
            "REELFORGE_AUTH__CHALLENGE_AFTER_PER_IP_PER_HOUR",
            "100000".into(),
        ),
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
        (
            "REELFORGE_SERVICES__RING__LISTEN",
            "REELFORGE_SERVICES__RING__URL",
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
    let mut member = Member::spawn(target, dir, env.to_vec(), None)?;
    member.ready().await?;
    Ok((member.process, member.admin))
}

/// One process of a farm: its target, what it was started with, and where it answers.
struct Member {
    target: &'static str,
    dir: std::path::PathBuf,
    env: Vec<(&'static str, String)>,
    process: Process,
    /// What its earlier processes (before restarts) wrote.
    past: String,
    /// Its admin address (`/metrics`, `/readyz`).
    admin: u16,
    /// The gateway's public port: its `/readyz` also asks every service.
    http: Option<u16>,
}

impl Member {
    /// Starts `reelforge <target>` in `dir` with `env`, its own admin port and, for the gateway,
    /// the public port `http`; does not wait.
    fn spawn(
        target: &'static str,
        dir: &std::path::Path,
        mut env: Vec<(&'static str, String)>,
        http: Option<u16>,
    ) -> Result<Self, Box<dyn std::error::Error>> {
        let admin = free_port()?;
        env.push(("REELFORGE_ADMIN__ADDR", format!("127.0.0.1:{admin}")));
        if let Some(http) = http {
            env.push(("REELFORGE_HTTP__ADDR", format!("127.0.0.1:{http}")));
        }
        let process = Self::launch(target, dir, &env)?;
        Ok(Self {
            target,
            dir: dir.to_owned(),
            env,
            process,
            past: String::new(),
            admin,
            http,
        })
    }

    /// Starts `reelforge <target>` with its log (stdout) kept with its stderr, for
    /// [`Farm::warnings`]; `exec` keeps the process id the binary's, so signals reach it.
    fn launch(
        target: &'static str,
        dir: &std::path::Path,
        env: &[(&'static str, String)],
    ) -> Result<Process, std::io::Error> {
        Process::start(
            Command::new("sh")
                .args(["-c", "exec \"$0\" \"$@\" 1>&2", common::BIN, target])
                .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
                .current_dir(dir),
        )
    }

    /// Waits until it answers ready (the gateway: its public `/readyz`, every service included).
    async fn ready(&mut self) -> TestResult {
        let port = self.http.unwrap_or(self.admin);
        if ready(port).await.is_none() {
            return Err(format!(
                "{} did not become ready\n{}",
                self.target,
                self.process.stderr()
            )
            .into());
        }
        Ok(())
    }

    /// SIGTERM, waits for a clean exit (a worker hands its render back first), starts it again
    /// with the same settings and ports, and waits until it is ready.
    async fn restart(&mut self) -> TestResult {
        self.terminate().await?;
        self.past.push_str(&self.process.stderr());
        self.process = Self::launch(self.target, &self.dir, &self.env)?;
        self.ready().await
    }

    /// SIGTERM, then waits (90 s at most) for the process to exit, which it must do with success.
    async fn terminate(&mut self) -> TestResult {
        let pid = self.process.0.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status()?;
        assert!(sent.success(), "kill -TERM {pid}");
        let deadline = Instant::now() + Duration::from_secs(90);
        let status = loop {
            if let Some(status) = self.process.0.try_wait()? {
                break status;
            }
            if Instant::now() > deadline {
                return Err(format!(
                    "{} did not stop within 90 s of SIGTERM\n{}",
                    self.target,
                    self.process.stderr()
                )
                .into());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        if !status.success() {
            return Err(format!(
                "{} ended with {status} after SIGTERM\n{}",
                self.target,
                self.process.stderr()
            )
            .into());
        }
        Ok(())
    }
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
    /// The two workers; the processes die before the virtual host goes.
    workers: Vec<Member>,
    /// The eight services, then the gateway.
    services: Vec<Member>,
    _vhost: Vhost,
    _dir: tempfile::TempDir,
}

/// The services in the order a farm starts (and a rolling restart restarts) them.
const SERVICES: [&str; 8] = [
    "task",
    "auth",
    "material",
    "category",
    "favourite",
    "font",
    "ai",
    "ring",
];

impl Farm {
    /// Migrates a fresh database once (`reelforge admin migrate`), then starts every service, two
    /// workers (stale limit `stale` s, 1 s heartbeats) and the gateway at once, each with
    /// `REELFORGE_SKIP_MIGRATIONS`, as the chart does, and signs a user in.
    async fn start(stale: u32) -> Result<Self, Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let vhost = Vhost::create()?;
        let db_url = fresh_postgres().await?;
        let storage = format!("{}&root=/{}", s3_url(), unique("dist"));
        let mut env = shared_env(&db_url, &redis_url(), &vhost.url(), &storage, stale)?;
        let migrated = Command::new(common::BIN)
            .args(["admin", "migrate"])
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .current_dir(dir.path())
            .output()?;
        if !migrated.status.success() {
            return Err(format!(
                "reelforge admin migrate: {}",
                String::from_utf8_lossy(&migrated.stderr)
            )
            .into());
        }
        env.push(("REELFORGE_SKIP_MIGRATIONS", "1".into()));
        let mut services = Vec::new();
        for target in SERVICES {
            services.push(Member::spawn(target, dir.path(), env.clone(), None)?);
        }
        let mut workers = Vec::new();
        for n in 0..2 {
            let mut env = env.clone();
            env.push((
                "REELFORGE_DATA_DIR",
                dir.path().join(format!("worker{n}")).display().to_string(),
            ));
            workers.push(Member::spawn("worker", dir.path(), env, None)?);
        }
        let http = free_port()?;
        services.push(Member::spawn("gateway", dir.path(), env, Some(http))?);
        for member in services.iter_mut().chain(workers.iter_mut()) {
            member.ready().await?;
        }
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
            services,
            _vhost: vhost,
            _dir: dir,
        })
    }

    /// Stops every process and answers their warnings and errors, for a failed test's message.
    fn warnings(&mut self) -> String {
        let mut out = String::new();
        for member in self.services.iter_mut().chain(self.workers.iter_mut()) {
            let log = format!("{}{}", member.past, member.process.stderr());
            for line in log
                .lines()
                .map(strip_colours)
                .filter(|l| l.contains(" WARN ") || l.contains(" ERROR "))
            {
                out.push_str(&format!("[{}] {line}\n", member.target));
            }
        }
        out
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

    /// Polls the task's state until it ended (success or error) or `deadline` passed. A failed
    /// poll is tried again until then: a target restarting, or a passing "service unavailable"
    /// (the auth service's revocation check refuses a call when Redis does not answer in time,
    /// which it sometimes did not while four farms ran at once).
    async fn ended(
        &self,
        task_id: i64,
        deadline: Instant,
    ) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
        loop {
            let last = match self.state(task_id).await {
                Ok(s) if s["status"] == 10 || s["status"] == 9 => return Ok(s),
                Ok(s) => s.to_string(),
                Err(e) => e.to_string(),
            };
            if Instant::now() > deadline {
                return Err(format!("task {task_id} did not end: {last}").into());
            }
            tokio::time::sleep(Duration::from_millis(250)).await;
        }
    }

    /// How many render jobs are in each state, over the whole farm.
    async fn job_states(&self) -> Result<Vec<(String, i64)>, Box<dyn std::error::Error>> {
        let rows = self
            .db
            .query_all_raw(Statement::from_string(
                self.db.get_database_backend(),
                "SELECT state, COUNT(*) AS n FROM render_job GROUP BY state ORDER BY state"
                    .to_owned(),
            ))
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("", "state")?, r.try_get::<i64>("", "n")?)))
            .collect()
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

/// `line` without its terminal colour codes.
fn strip_colours(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
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
    for worker in &farm.workers {
        counts.push(metric(worker.admin, "reelforge_render_seconds_count").await?);
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

/// Waits until the task's render draws (its state says `rendering` with frames done) and answers
/// the index of the worker that has it in flight.
async fn rendering_worker(farm: &Farm, task_id: i64) -> Result<usize, Box<dyn std::error::Error>> {
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        // A failed poll is tried again, as in `Farm::ended`.
        let s = match farm.state(task_id).await {
            Ok(s) => s,
            Err(e) => serde_json::json!({ "poll": e.to_string() }),
        };
        if s["stage"] == "rendering" && s["framesDone"].as_u64().unwrap_or(0) > 0 {
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("never seen rendering: {s}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let mut busy = None;
    for (i, worker) in farm.workers.iter().enumerate() {
        if metric(worker.admin, "reelforge_render_jobs_in_flight").await? > 0.0 {
            busy = Some(i);
        }
    }
    Ok(busy.ok_or("no worker has the job in flight")?)
}

/// A worker process killed with SIGKILL while it draws (catalogue Q3): its job is reaped and the
/// other worker renders it; the task succeeds once, one job, one video, at attempt 2 exactly: a
/// third would mean the reaper took the job from the living worker too. The stale limit is 10 s
/// against 1 s heartbeats, so a loaded machine's late beat is not mistaken for a dead worker (at
/// 3 s it could be, and the test allowed any attempt from 2 up). The document lasts 240 s (about
/// 2 s to render): a 40 s one rendered in half a second and was sometimes over before the
/// workers' metrics were read ("no worker has the job in flight").
#[tokio::test]
async fn a_render_survives_sigkill_of_its_worker() -> TestResult {
    let mut farm = Farm::start(10).await?;
    let task_id = farm.save_and_run(240).await?;
    let busy = rendering_worker(&farm, task_id).await?;
    let mut killed = farm.workers.remove(busy);
    killed.process.0.kill()?;
    killed.process.0.wait()?;

    let state = farm
        .ended(task_id, Instant::now() + Duration::from_secs(300))
        .await?;
    let jobs = farm.assert_succeeded_once(&state, task_id).await?;
    assert_eq!(jobs[0].1, 2, "rendered again once, after the reaper: {jobs:?}");
    assert_eq!(
        metric(farm.workers[0].admin, "reelforge_render_seconds_count").await?,
        1.0,
        "the other worker rendered it once"
    );
    Ok(())
}

/// SIGTERM to the worker process while it draws, on PostgreSQL, RabbitMQ and S3 (catalogue Q9):
/// it exits cleanly within the grace period, its job is handed back at the same attempt (a release
/// and a fresh copy on the queue, not the reaper: the stale limit is 90 s and the job ends at
/// attempt 1) and the other worker renders it once; one job, one video. The render is in flight
/// at the signal: the worker was drawing it, and it is the other worker that finished it. The
/// document lasts 600 s, several seconds of drawing, so the signal comes well before its end.
#[tokio::test]
async fn sigterm_mid_render_hands_the_job_to_the_other_worker() -> TestResult {
    let mut farm = Farm::start(90).await?;
    let task_id = farm.save_and_run(600).await?;
    let busy = rendering_worker(&farm, task_id).await?;
    let mut stopped = farm.workers.remove(busy);
    stopped.terminate().await?;

    let state = farm
        .ended(task_id, Instant::now() + Duration::from_secs(300))
        .await?;
    let jobs = farm.assert_succeeded_once(&state, task_id).await?;
    assert_eq!(jobs[0].1, 1, "handed back at its attempt, not reaped: {jobs:?}");
    assert_eq!(
        metric(farm.workers[0].admin, "reelforge_render_seconds_count").await?,
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

/// A rolling restart (issue 25): ten renders are run at once, then every target in turn (the task
/// service and both workers first, then the other services and the gateway) gets SIGTERM, must exit
/// cleanly, is started again with the same settings and must be ready again before the next, while
/// the renders go on. Every task succeeds exactly once: status 10, one job row, done, one video and
/// its cover; no job failed or was dead-lettered. The document is a blank 320×180 canvas of 60 s,
/// which renders in about 0.6 s here (a 2 s one in 0.2 s: all ten had ended before the first
/// restart was over): the ten keep both workers busy, starting and finishing jobs, through the
/// task service's restart and the workers'. Before the worker retried its calls, the task
/// service's restart of under a second dead-lettered several of them ("given back too many times").
#[tokio::test]
async fn a_rolling_restart_loses_no_render_and_finishes_each_once() -> TestResult {
    let mut farm = Farm::start(90).await?;
    let result = rolling_restart(&mut farm).await;
    if result.is_err() {
        eprintln!("the farm's warnings and errors:\n{}", farm.warnings());
    }
    result
}

async fn rolling_restart(farm: &mut Farm) -> TestResult {
    let mut tasks = Vec::new();
    for _ in 0..10 {
        let save = farm.client.post(format!("{}/videotask/save", farm.base));
        tasks.push(save_task(save, &canvas_rule(60), "rolling").await?);
    }
    // All at once, so the queue holds them all when the task service goes.
    let mut runs = tokio::task::JoinSet::new();
    for &task_id in &tasks {
        let (client, base) = (farm.client.clone(), farm.base.clone());
        runs.spawn(async move {
            let run = client
                .post(format!("{base}/videotask/runtask"))
                .json(&serde_json::json!({"taskId": task_id}))
                .send()
                .await
                .map_err(|e| e.to_string())?
                .text()
                .await
                .map_err(|e| e.to_string())?;
            envelope_data(&run).map(|_| ()).map_err(|e| e.to_string())
        });
    }
    while let Some(run) = runs.join_next().await {
        run??;
    }
    let order: Vec<(bool, usize)> = [(false, 0), (true, 0), (true, 1)]
        .into_iter()
        .chain((1..farm.services.len()).map(|i| (false, i)))
        .collect();
    for (worker, i) in order {
        let mut open = 0;
        for &task_id in &tasks {
            if farm
                .state(task_id)
                .await
                .is_ok_and(|s| s["status"] != 10 && s["status"] != 9)
            {
                open += 1;
            }
        }
        let member = if worker {
            &mut farm.workers[i]
        } else {
            &mut farm.services[i]
        };
        if !worker && i == 0 && open == 0 {
            return Err("the renders were over before the task service restarted".into());
        }
        let started = Instant::now();
        member.restart().await?;
        println!(
            "restarted {} in {:.1} s ({open} of 10 tasks not ended when it got SIGTERM)",
            member.target,
            started.elapsed().as_secs_f64()
        );
    }
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut ended = Vec::new();
    for &task_id in &tasks {
        ended.push((task_id, farm.ended(task_id, deadline).await?));
    }
    let jobs = farm.job_states().await?;
    let failed: Vec<_> = ended.iter().filter(|(_, s)| s["status"] != 10).collect();
    if !failed.is_empty() || jobs != [("done".to_owned(), 10)] {
        return Err(
            format!("not every task succeeded once: {failed:?}; jobs by state: {jobs:?}").into(),
        );
    }
    for (task_id, state) in &ended {
        farm.assert_succeeded_once(state, *task_id).await?;
    }
    Ok(())
}
