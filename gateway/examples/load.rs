//! `make bench-load` (issue 24): load on a running gateway over loopback, driven by
//! `gateway/benches/load.sh`. Open-loop: each request is sent at its scheduled time whether or not
//! earlier ones have answered, and its latency counts from that time, so a stalled server shows as
//! latency instead of as fewer requests (no coordinated omission). Prints requests per second,
//! p50/p99/max and errors per kind, the SSE fan-out, and the process's resident memory over the run.
//!
//! Settings come from the environment (`LOAD_*`, see `Settings::from_env`).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::sync::Mutex;

type Fallible<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

/// What the run does, from `LOAD_*` variables.
struct Settings {
    api: String,
    token: String,
    user: String,
    pid: u32,
    seconds: u64,
    read_rps: u32,
    save_rps: u32,
    upload_rps: u32,
    watchers: u32,
    baseline_seconds: u64,
}

impl Settings {
    fn from_env() -> Fallible<Self> {
        let var = |k: &str| std::env::var(k).map_err(|_| format!("{k} is not set"));
        let num = |k: &str, d: u64| {
            std::env::var(k)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(d)
        };
        Ok(Self {
            api: var("LOAD_API")?,
            token: var("LOAD_TOKEN")?,
            user: var("LOAD_USER")?,
            pid: var("LOAD_PID")?.parse()?,
            seconds: num("LOAD_SECONDS", 60),
            read_rps: u32::try_from(num("LOAD_READ_RPS", 500))?,
            save_rps: u32::try_from(num("LOAD_SAVE_RPS", 20))?,
            upload_rps: u32::try_from(num("LOAD_UPLOAD_RPS", 2))?,
            watchers: u32::try_from(num("LOAD_WATCHERS", 500))?,
            baseline_seconds: num("LOAD_BASELINE_SECONDS", 10),
        })
    }
}

/// Latencies and failures of one kind of request.
#[derive(Default)]
struct Tally {
    latencies: Mutex<Vec<Duration>>,
    errors: AtomicU64,
    first_error: Mutex<Option<String>>,
}

impl Tally {
    async fn record(&self, scheduled: Instant, outcome: Result<(), String>) {
        let took = scheduled.elapsed();
        self.latencies.lock().await.push(took);
        if let Err(e) = outcome {
            self.errors.fetch_add(1, Ordering::Relaxed);
            self.first_error.lock().await.get_or_insert(e);
        }
    }

    async fn report(&self, name: &str, seconds: f64) -> Option<Duration> {
        let mut l = self.latencies.lock().await.clone();
        l.sort();
        let errors = self.errors.load(Ordering::Relaxed);
        let at = |q: f64| {
            l.get(((l.len() as f64 * q).ceil() as usize).saturating_sub(1))
                .copied()
                .unwrap_or_default()
        };
        let p99 = at(0.99);
        println!(
            "{name}: {} requests, {:.0} req/s, p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms, errors {errors}{}",
            l.len(),
            l.len() as f64 / seconds,
            ms(at(0.5)),
            ms(p99),
            ms(l.last().copied().unwrap_or_default()),
            match self.first_error.lock().await.as_deref() {
                Some(e) => format!(" (first: {e})"),
                None => String::new(),
            }
        );
        (!l.is_empty()).then_some(p99)
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The signed-in caller's headers on a request.
fn authed(s: &Settings, r: reqwest::RequestBuilder) -> reqwest::RequestBuilder {
    r.header("Authorization", &s.token)
        .header("userId", &s.user)
}

/// A success envelope's data, or the envelope as the error.
async fn data(r: reqwest::RequestBuilder) -> Result<serde_json::Value, String> {
    let answer = r.send().await.map_err(|e| e.to_string())?;
    let status = answer.status();
    let body: serde_json::Value = answer
        .json()
        .await
        .map_err(|e| format!("HTTP {status}: {e}"))?;
    if body["code"] == 2000 {
        Ok(body["data"].clone())
    } else {
        Err(body.to_string())
    }
}

/// Sends `rps` requests a second for `seconds`, each made by `make` from its sequence number.
async fn open_loop<F, Fut>(rps: u32, seconds: u64, tally: Arc<Tally>, make: F)
where
    F: Fn(u64) -> Fut,
    Fut: std::future::Future<Output = Result<(), String>> + Send + 'static,
{
    if rps == 0 {
        return;
    }
    let period = Duration::from_secs_f64(1.0 / f64::from(rps));
    let start = tokio::time::Instant::now();
    let total = u64::from(rps) * seconds;
    let mut running = tokio::task::JoinSet::new();
    for n in 0..total {
        let at = start + period.mul_f64(n as f64);
        tokio::time::sleep_until(at).await;
        let scheduled = at.into_std();
        let fut = make(n);
        let tally = tally.clone();
        running.spawn(async move { tally.record(scheduled, fut.await).await });
        while running.try_join_next().is_some() {}
    }
    while running.join_next().await.is_some() {}
}

/// The minimal valid rule of a `seconds`-long one-scene video, as the gateway tests save it.
fn rule(seconds: u32) -> serde_json::Value {
    serde_json::json!({
        "version": 1, "renderVersion": 2, "ruleType": "VIDEO_EDIT", "videoQuality": 30, "frameRate": 80,
        "resolutionRatio": {"name": "16:9", "width": 640, "height": 360, "ratio": "16:9", "sizeId": 41, "targetWidth": 640},
        "scenes": [{"type": "canvas", "timeLength": seconds, "bgColor": "#1e3a8a", "effectTime": 1, "layers": []}],
        "audio": []
    })
}

/// A distinct small PNG for upload `n` (distinct so duplicate detection does not short-cut it).
fn png(n: u64) -> Fallible<Vec<u8>> {
    let [a, b, c, ..] = n.to_le_bytes();
    let img = image::RgbImage::from_pixel(64, 64, image::Rgb([a, b, c]));
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)?;
    Ok(out.into_inner())
}

fn multipart(user: &str, file: &[u8]) -> (String, Vec<u8>) {
    let boundary = "reelforge-load-boundary";
    let mut body = Vec::new();
    for (k, v) in [
        ("userId", user),
        ("type", "picture"),
        ("categoryId", "-1"),
        ("styleId", "-1"),
        ("materialState", "0"),
    ] {
        body.extend(
            format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                .as_bytes(),
        );
    }
    body.extend(
        format!("--{boundary}\r\nContent-Disposition: form-data; name=\"uploadFile\"; filename=\"load.png\"\r\nContent-Type: image/png\r\n\r\n")
            .as_bytes(),
    );
    body.extend(file);
    body.extend(format!("\r\n--{boundary}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={boundary}"), body)
}

fn rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// One round of the SSE fan-out: a render of the task and `watchers` streams on it; answers how
/// many saw `done` (a failed render or a dropped stream is not counted) and the spread between the
/// first and the last to see it.
async fn fan_out(
    s: &Settings,
    sse: &reqwest::Client,
    client: &reqwest::Client,
    task: i64,
) -> Result<(u32, Duration), String> {
    // The stream of a task at rest ends at once, so the watchers come after the run, as the
    // browser's do.
    data(
        authed(s, client.post(format!("{}/videotask/runtask", s.api)))
            .json(&serde_json::json!({"taskId": task})),
    )
    .await?;
    let url = format!("{}/videotask/events?taskId={task}", s.api);
    let connected = Arc::new(tokio::sync::Semaphore::new(0));
    let mut streams = tokio::task::JoinSet::new();
    for _ in 0..s.watchers {
        let req = authed(s, sse.get(&url));
        let connected = connected.clone();
        streams.spawn(async move {
            let mut r = match req.send().await {
                Ok(r) if r.status().is_success() => r,
                _ => {
                    connected.add_permits(1);
                    return None;
                }
            };
            connected.add_permits(1);
            let mut seen = String::new();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
            loop {
                match tokio::time::timeout_at(deadline, r.chunk()).await {
                    Ok(Ok(Some(bytes))) => {
                        seen.push_str(&String::from_utf8_lossy(&bytes));
                        if seen.contains("event: done") {
                            return Some(Instant::now());
                        }
                        if seen.contains("event: error") || seen.contains("event: cancelled") {
                            return None;
                        }
                        if seen.len() > 4096 {
                            seen.drain(..seen.len() - 64);
                        }
                    }
                    _ => return None,
                }
            }
        });
    }
    tokio::time::timeout(Duration::from_secs(60), connected.acquire_many(s.watchers))
        .await
        .map_err(|_| "the watchers did not all connect within 60 s".to_owned())?
        .map_err(|e| e.to_string())?
        .forget();
    let mut done = Vec::new();
    while let Some(got) = streams.join_next().await {
        if let Ok(Some(at)) = got {
            done.push(at);
        }
    }
    let spread = match (done.iter().min(), done.iter().max()) {
        (Some(a), Some(b)) => *b - *a,
        _ => Duration::ZERO,
    };
    Ok((u32::try_from(done.len()).unwrap_or(u32::MAX), spread))
}

#[tokio::main]
async fn main() -> Fallible<()> {
    let s = Arc::new(Settings::from_env()?);
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()?;
    let sse = reqwest::Client::builder()
        .pool_max_idle_per_host(0)
        .build()?;

    // The floor: the same rate on /healthz, which does no work, through the same client.
    let root = s.api.trim_end_matches("/diyvrbt").to_owned();
    let floor = Arc::new(Tally::default());
    let c = client.clone();
    open_loop(s.read_rps, s.baseline_seconds, floor.clone(), |_| {
        let r = c.get(format!("{root}/healthz"));
        async move {
            r.send()
                .await
                .map_err(|e| e.to_string())
                .and_then(|a| a.error_for_status().map(|_| ()).map_err(|e| e.to_string()))
        }
    })
    .await;
    let floor_p99 = floor
        .report("baseline /healthz", s.baseline_seconds as f64)
        .await;

    let save_body = move |task_id: i64| serde_json::json!({"taskId": task_id, "taskName": "load", "taskInfo": rule(10).to_string(), "sizeCategoryId": 41});
    let task =
        data(authed(&s, client.post(format!("{}/videotask/save", s.api))).json(&save_body(-1)))
            .await?;
    let task = task.as_i64().ok_or("save answered no task id")?;

    let reads = Arc::new(Tally::default());
    let saves = Arc::new(Tally::default());
    let uploads = Arc::new(Tally::default());
    let memory = Arc::new(Mutex::new(Vec::<(f64, f64)>::new()));
    let started = Instant::now();

    let sampler = {
        let (memory, pid) = (memory.clone(), s.pid);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(1));
            loop {
                tick.tick().await;
                if let Some(mb) = rss_mb(pid) {
                    memory
                        .lock()
                        .await
                        .push((started.elapsed().as_secs_f64(), mb));
                }
            }
        })
    };

    let (c, st) = (client.clone(), s.clone());
    let read_load = open_loop(s.read_rps, s.seconds, reads.clone(), move |n| {
        let r = match n % 3 {
            0 => authed(&st, c.post(format!("{}/material/ofuser", st.api)))
                .json(&serde_json::json!({"pageNum": 1, "pageSize": 20})),
            1 => authed(
                &st,
                c.get(format!("{}/videotask/mine?pageNum=1&pageSize=20", st.api)),
            ),
            _ => authed(
                &st,
                c.get(format!("{}/videotask/state?taskId={task}", st.api)),
            ),
        };
        async move { data(r).await.map(|_| ()) }
    });
    let (c, st) = (client.clone(), s.clone());
    let body = save_body(task);
    let save_load = open_loop(s.save_rps, s.seconds, saves.clone(), move |_| {
        let r = authed(&st, c.post(format!("{}/videotask/save", st.api))).json(&body);
        async move { data(r).await.map(|_| ()) }
    });
    let (c, st) = (client.clone(), s.clone());
    let upload_load = open_loop(s.upload_rps, s.seconds, uploads.clone(), move |n| {
        let file = png(n);
        let st = st.clone();
        let c = c.clone();
        async move {
            let (kind, body) = multipart(&st.user, &file.map_err(|e| e.to_string())?);
            data(
                authed(&st, c.post(format!("{}/upload/material", st.api)))
                    .header("Content-Type", kind)
                    .body(body),
            )
            .await
            .map(|_| ())
        }
    });
    let (c, st) = (client.clone(), s.clone());
    let fan = async move {
        let mut rounds = Vec::new();
        let end = Instant::now() + Duration::from_secs(st.seconds);
        while st.watchers > 0 && Instant::now() < end {
            // A new task each round: a finished one answers its last `done` at once.
            let round = data(
                authed(&st, c.post(format!("{}/videotask/save", st.api))).json(&save_body(-1)),
            )
            .await;
            rounds.push(match round.map(|t| t.as_i64()) {
                Ok(Some(task)) => fan_out(&st, &sse, &c, task).await,
                Ok(None) => Err("save answered no task id".to_owned()),
                Err(e) => Err(e),
            });
        }
        rounds
    };
    let ((), (), (), rounds) = tokio::join!(read_load, save_load, upload_load, fan);
    sampler.abort();
    let seconds = started.elapsed().as_secs_f64();

    let read_p99 = reads
        .report("reads (material list, my tasks, task state)", seconds)
        .await;
    saves.report("saves (videotask/save)", seconds).await;
    uploads.report("uploads (a 64x64 PNG)", seconds).await;
    if let (Some(r), Some(f)) = (read_p99, floor_p99) {
        println!("reads p99 / baseline p99: {:.2}", ms(r) / ms(f).max(0.001));
        println!(
            "reads p99 goal < 50 ms: {}",
            if ms(r) < 50.0 { "met" } else { "NOT met" }
        );
    }
    let (mut ok, mut failed, mut seen, mut spread) = (0u64, 0u64, 0u32, Duration::ZERO);
    for r in &rounds {
        match r {
            Ok((n, sp)) => {
                ok += 1;
                seen += n;
                spread = spread.max(*sp);
            }
            Err(e) => {
                failed += 1;
                println!("sse round failed: {e}");
            }
        }
    }
    println!(
        "sse: {ok} rounds of {} watchers ({failed} failed), done seen {seen}/{}, fan-out spread max {:.1} ms",
        s.watchers,
        u64::from(s.watchers) * ok,
        ms(spread)
    );
    let mem = memory.lock().await;
    let warm: Vec<f64> = mem
        .iter()
        .filter(|(t, _)| *t >= 10.0)
        .map(|(_, m)| *m)
        .collect();
    if let (Some(first), Some(last)) = (warm.first(), warm.last()) {
        let peak = warm.iter().copied().fold(0.0, f64::max);
        let tail = &warm[warm.len() - warm.len().min(30)..];
        let head = &warm[..warm.len().min(30)];
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
        println!(
            "process RSS MB: after warm-up {first:.0}, peak {peak:.0}, end {last:.0}; mean of the last 30 s minus the first 30 s: {:+.1}",
            mean(tail) - mean(head)
        );
    }
    Ok(())
}
