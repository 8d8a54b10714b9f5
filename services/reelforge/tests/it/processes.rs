//! The binary as a user runs it: bad configuration stops it with one line; a gateway and a service in
//! separate processes answer a request across gRPC in the envelope.

use crate::common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{
    BIN, Process, TestResult, canvas_rule, envelope_data, free_port, get_until, save_task, sign_in,
};

/// A signing key in the environment form every target but `all` requires.
const KEYS: &str = r#"[{id="k1",secret="0123456789abcdef0123456789abcdef"}]"#;

/// Runs the binary to completion and returns (exit code, stderr).
fn run_to_end(
    args: &[&str],
    env: &[(&str, &str)],
) -> Result<(i32, String), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let out = Command::new(BIN)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir.path())
        .output()?;
    Ok((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

fn assert_one_line_failure(code: i32, stderr: &str, needle: &str) {
    assert_eq!(code, 1, "stderr: {stderr}");
    let lines: Vec<_> = stderr
        .lines()
        .filter(|l| l.starts_with("reelforge: "))
        .collect();
    assert_eq!(lines.len(), 1, "one problem line expected: {stderr}");
    assert!(lines[0].contains(needle), "`{needle}` not in {stderr}");
    assert!(
        !stderr.contains("panicked") && !stderr.contains("backtrace"),
        "{stderr}"
    );
}

#[test]
fn an_unknown_target_is_named() -> TestResult {
    let (code, err) = run_to_end(&["rendr"], &[])?;
    assert_one_line_failure(code, &err, "unknown target `rendr`");
    Ok(())
}

#[test]
fn a_malformed_config_file_is_named() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("bad.toml");
    std::fs::write(&file, "[http\naddr = ")?;
    let path = file.to_string_lossy().into_owned();
    let (code, err) = run_to_end(&["--config", &path, "category"], &[])?;
    assert_one_line_failure(code, &err, "configuration file");
    std::fs::write(&file, "[databse]\nurl = \"x\"\n")?;
    let (code, err) = run_to_end(&["--config", &path, "category"], &[])?;
    assert_one_line_failure(code, &err, "unknown key `databse`");
    Ok(())
}

#[test]
fn an_unreachable_database_is_named() -> TestResult {
    let port = free_port()?.to_string();
    let url = format!("postgres://postgres@127.0.0.1:{port}/nowhere");
    let (code, err) = run_to_end(
        &["category"],
        &[
            ("REELFORGE_DATABASE__URL", &url),
            ("REELFORGE_AUTH__KEYS", KEYS),
        ],
    )?;
    assert_one_line_failure(code, &err, "database postgres://");
    Ok(())
}

#[test]
fn targets_other_than_all_refuse_to_start_without_a_key() -> TestResult {
    for target in [
        "gateway",
        "auth",
        "material",
        "category",
        "favourite",
        "font",
        "task",
        "ai",
        "ring",
        "worker",
    ] {
        let (code, err) = run_to_end(&[target], &[])?;
        assert_one_line_failure(
            code,
            &err,
            &format!("auth.keys (REELFORGE_AUTH__KEYS) is required for target {target}"),
        );
    }
    let short = r#"[{id="k1",secret="short"}]"#;
    let (code, err) = run_to_end(&["category"], &[("REELFORGE_AUTH__KEYS", short)])?;
    assert_one_line_failure(code, &err, "auth.keys[0].secret: at least 32 bytes");
    Ok(())
}

#[tokio::test]
async fn a_request_crosses_from_the_gateway_process_to_a_service_process() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (grpc, admin, http, gateway_admin) = (free_port()?, free_port()?, free_port()?, free_port()?);
    let mut service = Process::spawn(
        "category",
        dir.path(),
        &[
            (
                "REELFORGE_SERVICES__CATEGORY__LISTEN",
                format!("127.0.0.1:{grpc}"),
            ),
            ("REELFORGE_ADMIN__ADDR", format!("127.0.0.1:{admin}")),
            ("REELFORGE_AUTH__KEYS", KEYS.into()),
        ],
    )?;
    let mut gateway = Process::spawn(
        "gateway",
        dir.path(),
        &[
            (
                "REELFORGE_SERVICES__CATEGORY__URL",
                format!("http://127.0.0.1:{grpc}"),
            ),
            ("REELFORGE_HTTP__ADDR", format!("127.0.0.1:{http}")),
            ("REELFORGE_ADMIN__ADDR", format!("127.0.0.1:{gateway_admin}")),
            ("REELFORGE_AUTH__KEYS", KEYS.into()),
        ],
    )?;
    let body = get_until(
        &format!("http://127.0.0.1:{http}/diyvrbt/category/taskvideo"),
        |b| b.contains("\"code\":2000"),
    )
    .await;
    let Some(body) = body else {
        return Err(format!(
            "no envelope from the gateway\n{}\n{}",
            gateway.stderr(),
            service.stderr()
        )
        .into());
    };
    let v: serde_json::Value = serde_json::from_str(&body)?;
    assert_eq!(v["data"]["dataList"], serde_json::json!([]));
    assert_eq!(v["desc"], "success");
    let health = get_until(&format!("http://127.0.0.1:{admin}/healthz"), |b| {
        b.contains("ok")
    })
    .await;
    assert!(health.is_some(), "service admin endpoint answers");
    let metrics = get_until(&format!("http://127.0.0.1:{gateway_admin}/metrics"), |b| {
        b.contains("reelforge_requests_total")
    })
    .await;
    assert!(
        metrics.is_some_and(|m| m.contains("/diyvrbt/category/taskvideo")),
        "requests are counted by route, on the gateway's admin address"
    );
    let public = reqwest::get(format!("http://127.0.0.1:{http}/metrics")).await?;
    assert_eq!(public.status().as_u16(), 404, "no metrics on the public port");

    // With the service gone, the gateway still answers in the envelope, naming no internals.
    drop(service);
    let down = get_until(
        &format!("http://127.0.0.1:{http}/diyvrbt/category/taskvideo"),
        |b| b.contains("\"code\":3000"),
    )
    .await;
    assert!(down.is_some_and(|b| b.contains("service unavailable")));
    let not_ready = reqwest::get(format!("http://127.0.0.1:{http}/readyz")).await?;
    assert_eq!(not_ready.status().as_u16(), 503);
    Ok(())
}

/// The main job end to end in `reelforge all`: sign in by mail code, save a task (a bad rule is refused
/// naming the field), run it, and the in-process worker renders it into storage; the state says done.
#[tokio::test]
async fn all_mode_signs_in_saves_runs_and_renders_a_task() -> TestResult {
    let dir = tempfile::tempdir()?;
    let http = free_port()?;
    let base = format!("http://127.0.0.1:{http}/diyvrbt");
    let mut all = Process::spawn(
        "all",
        dir.path(),
        &[("REELFORGE_HTTP__ADDR", format!("127.0.0.1:{http}"))],
    )?;
    if get_until(&format!("http://127.0.0.1:{http}/readyz"), |b| {
        b.contains("ready")
    })
    .await
    .is_none()
    {
        return Err(format!("reelforge all did not become ready\n{}", all.stderr()).into());
    }
    let client = reqwest::Client::new();
    client
        .post(format!("{base}/user/sendCode"))
        .form(&[("mail", "ann@example.com")])
        .send()
        .await?
        .text()
        .await?;
    let outbox = std::fs::read_to_string(dir.path().join("data/mail-outbox.log"))?;
    let code = outbox
        .lines()
        .last()
        .and_then(|l| l.rsplit(' ').next())
        .ok_or("no code mailed")?
        .to_owned();
    let login = client
        .post(format!("{base}/user/login"))
        .json(&serde_json::json!({"mail": "ann@example.com", "code": code}))
        .send()
        .await?;
    let token = envelope_data(&login.text().await?)?["token"]
        .as_str()
        .ok_or("no token")?
        .to_owned();
    let client = reqwest::Client::builder()
        .default_headers(
            [(
                reqwest::header::HeaderName::from_static("userid"),
                reqwest::header::HeaderValue::from_static("ann@example.com"),
            )]
            .into_iter()
            .collect(),
        )
        .build()?;

    let bad = client
        .post(format!("{base}/videotask/save"))
        .header("Authorization", &token)
        .form(&[("taskInfo", r#"{"scenes":[{"timeLength":1}]}"#)])
        .send()
        .await?
        .text()
        .await?;
    assert!(
        bad.contains("\"code\":3000") && bad.contains("scenes[0].timeLength"),
        "{bad}"
    );

    let rule = serde_json::json!({
        "version": 1, "renderVersion": 2, "ruleType": "VIDEO_EDIT", "videoQuality": 30, "frameRate": 80,
        "resolutionRatio": {"name": "16:9", "width": 640, "height": 360, "ratio": "16:9", "sizeId": 41, "targetWidth": 1280},
        "scenes": [{"type": "canvas", "timeLength": 2, "bgColor": "#1e3a8a", "effectTime": 1, "layers": [
            {"type": "word", "id": "t1", "startTime": 0, "endTime": 2, "x": 100, "y": 100, "w": 400, "h": 80, "z": 101,
             "content": "你好", "fontSize": 48, "color": "#ffffff"}]}],
        "audio": []
    });
    let save = client
        .post(format!("{base}/videotask/save"))
        .header("Authorization", &token);
    let task_id = save_task(save, &rule, "测试").await?;
    let run = client
        .post(format!("{base}/videotask/runtask"))
        .header("Authorization", &token)
        .json(&serde_json::json!({"taskId": task_id}))
        .send()
        .await?;
    envelope_data(&run.text().await?)?;

    let mut last = String::new();
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        last = client
            .get(format!("{base}/videotask/state?taskId={task_id}"))
            .header("Authorization", &token)
            .send()
            .await?
            .text()
            .await?;
        let status = envelope_data(&last)?["status"].as_i64().unwrap_or(0);
        if status == 10 || status == 9 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let state = envelope_data(&last)?;
    assert_eq!(state["status"], 10, "{last}");
    let key = state["videoRelativePath"].as_str().ok_or("no video path")?;
    assert!(
        key.starts_with(&format!("t/qs/tasks/{task_id}/renders/")) && key.ends_with(".mp4"),
        "{key}"
    );
    let mp4 = std::fs::read(dir.path().join("data/blobs").join(key))?;
    assert!(
        mp4.len() > 1000 && &mp4[4..8] == b"ftyp",
        "an MP4 is stored"
    );

    assert_eq!(state["stage"], "done", "{last}");

    // The event stream of an ended task is its final state, then the stream closes.
    let sse = client
        .get(format!("{base}/videotask/events?taskId={task_id}"))
        .header("Authorization", &token)
        .send()
        .await?;
    assert_eq!(
        sse.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("text/event-stream")
    );
    let sse = sse.text().await?;
    assert!(
        sse.starts_with("id: ")
            && sse.contains("\nevent: done\ndata: {")
            && sse.contains("\"percent\":100"),
        "{sse}"
    );
    let seen: String = sse
        .lines()
        .find_map(|l| l.strip_prefix("id: "))
        .ok_or("no id")?
        .to_owned();
    let resumed = client
        .get(format!("{base}/videotask/events?taskId={task_id}"))
        .header("Authorization", &token)
        .header("Last-Event-ID", &seen)
        .send()
        .await?
        .text()
        .await?;
    assert_eq!(resumed, "", "nothing after the last event seen");

    // ofone names the media; a ticket opens them without headers; ranges answer 206.
    let task = envelope_data(
        &client
            .get(format!("{base}/videotask/ofone/{task_id}"))
            .header("Authorization", &token)
            .send()
            .await?
            .text()
            .await?,
    )?;
    let video_url = format!("/diyvrbt/videotask/download?taskId={task_id}");
    assert_eq!(task["videoUrl"], video_url.as_str());
    let ticket = envelope_data(
        &client
            .post(format!("{base}/videotask/mediaTicket"))
            .header("Authorization", &token)
            .json(&serde_json::json!({"taskId": task_id}))
            .send()
            .await?
            .text()
            .await?,
    )?["ticket"]
        .as_str()
        .ok_or("no ticket")?
        .to_owned();
    let whole = client
        .get(format!(
            "http://127.0.0.1:{http}{video_url}&ticket={ticket}"
        ))
        .send()
        .await?;
    assert_eq!(whole.status().as_u16(), 200);
    let disposition = whole
        .headers()
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    assert!(
        disposition.starts_with(
            "attachment; filename=\"__.mp4\"; filename*=UTF-8''%E6%B5%8B%E8%AF%95.mp4"
        ),
        "{disposition}"
    );
    assert_eq!(whole.bytes().await?.as_ref(), mp4.as_slice());
    let part = client
        .get(format!(
            "http://127.0.0.1:{http}{video_url}&ticket={ticket}"
        ))
        .header("Range", "bytes=4-7")
        .send()
        .await?;
    assert_eq!(part.status().as_u16(), 206);
    assert_eq!(part.bytes().await?.as_ref(), b"ftyp");
    let forged = client
        .get(format!(
            "http://127.0.0.1:{http}/diyvrbt/videotask/cover?taskId={}&ticket={ticket}",
            task_id + 1
        ))
        .send()
        .await?
        .text()
        .await?;
    assert!(
        forged.contains("\"code\":4000"),
        "a ticket opens one task only: {forged}"
    );
    let cover = client
        .get(format!(
            "http://127.0.0.1:{http}/diyvrbt/videotask/cover?taskId={task_id}"
        ))
        .header("Authorization", &token)
        .send()
        .await?;
    assert_eq!(
        cover
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("image/jpeg")
    );
    let mine = envelope_data(
        &client
            .get(format!("{base}/videotask/mine"))
            .header("Authorization", &token)
            .send()
            .await?
            .text()
            .await?,
    )?;
    assert_eq!(mine["total"], 1);
    assert_eq!(mine["list"][0]["id"], task_id);
    let openapi = client
        .get(format!("{base}/openapi.json"))
        .send()
        .await?
        .text()
        .await?;
    for path in [
        "/diyvrbt/videotask/mine",
        "/diyvrbt/videotask/events",
        "/diyvrbt/videotask/download",
        "/diyvrbt/videotask/cover",
        "/diyvrbt/videotask/mediaTicket",
        "/diyvrbt/v2/videotask/cancelTask",
    ] {
        assert!(
            openapi.contains(&format!("\"{path}\"")),
            "{path} is documented"
        );
    }
    let cancel_other = client
        .post(format!("{base}/v2/videotask/cancelTask"))
        .header("Authorization", &token)
        .json(&serde_json::json!({"taskIds": [task_id + 100]}))
        .send()
        .await?
        .text()
        .await?;
    assert!(
        cancel_other.contains(&format!("task {} does not exist", task_id + 100)),
        "{cancel_other}"
    );

    let other = client
        .get(format!("{base}/videotask/ofone/{task_id}"))
        .header("Authorization", "not-a-token")
        .send()
        .await?
        .text()
        .await?;
    assert!(
        other.contains("\"code\":4000"),
        "a bad token is 'login expired': {other}"
    );
    Ok(())
}

/// `reelforge all` without a configured key makes one in its data directory (mode 0600) and keeps
/// it, so a token issued before a restart still works after it.
#[tokio::test]
async fn all_keeps_its_generated_key_so_tokens_survive_a_restart() -> TestResult {
    let dir = tempfile::tempdir()?;
    let http = free_port()?;
    let base = format!("http://127.0.0.1:{http}/diyvrbt");
    let env = [("REELFORGE_HTTP__ADDR", format!("127.0.0.1:{http}"))];
    let mut first = Process::spawn("all", dir.path(), &env)?;
    if get_until(&format!("http://127.0.0.1:{http}/readyz"), |b| {
        b.contains("ready")
    })
    .await
    .is_none()
    {
        return Err(format!("reelforge all did not become ready\n{}", first.stderr()).into());
    }
    let key_file = dir.path().join("data/signing-key.json");
    let key = std::fs::read_to_string(&key_file)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(
            std::fs::metadata(&key_file)?.permissions().mode() & 0o777,
            0o600
        );
    }
    let token = sign_in(&base, dir.path(), "kim@example.com").await?;
    drop(first);

    let _second = Process::spawn("all", dir.path(), &env)?;
    let me = get_until_with(&format!("{base}/user/me"), &token, "kim@example.com", |b| {
        b.contains("\"code\"")
    })
    .await;
    assert!(
        me.as_deref()
            .is_some_and(|b| b.contains("\"code\":2000") && b.contains("kim@example.com")),
        "{me:?}"
    );
    assert_eq!(
        std::fs::read_to_string(&key_file)?,
        key,
        "the key is reused"
    );
    Ok(())
}

async fn get_until_with(
    url: &str,
    token: &str,
    user: &str,
    ok: impl Fn(&str) -> bool,
) -> Option<String> {
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(r) = client
            .get(url)
            .header("Authorization", token)
            .header("userId", user)
            .send()
            .await
            && let Ok(body) = r.text().await
            && ok(&body)
        {
            return Some(body);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    None
}

/// SIGTERM stops `reelforge all` gracefully: it exits with success, promptly.
#[tokio::test]
async fn sigterm_stops_all_gracefully() -> TestResult {
    let dir = tempfile::tempdir()?;
    let http = free_port()?;
    let mut all = Process::spawn(
        "all",
        dir.path(),
        &[("REELFORGE_HTTP__ADDR", format!("127.0.0.1:{http}"))],
    )?;
    if get_until(&format!("http://127.0.0.1:{http}/readyz"), |b| {
        b.contains("ready")
    })
    .await
    .is_none()
    {
        return Err(format!("reelforge all did not become ready\n{}", all.stderr()).into());
    }
    let pid = all.0.id().to_string();
    let killed = Command::new("kill").args(["-TERM", &pid]).status()?;
    assert!(killed.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = all.0.try_wait()? {
            assert!(status.success(), "exit after SIGTERM: {status}");
            return Ok(());
        }
        if Instant::now() > deadline {
            return Err("reelforge all did not stop within 30 s of SIGTERM".into());
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Starts `reelforge all` in `dir` with a 1 s heartbeat and a `stale` s limit, and waits until ready.
async fn start_all(
    dir: &std::path::Path,
    http: u16,
    stale: u32,
) -> Result<Process, Box<dyn std::error::Error>> {
    let mut all = Process::spawn(
        "all",
        dir,
        &[
            ("REELFORGE_HTTP__ADDR", format!("127.0.0.1:{http}")),
            ("REELFORGE_WORKER__HEARTBEAT_SECONDS", "1".into()),
            ("REELFORGE_WORKER__STALE_SECONDS", stale.to_string()),
        ],
    )?;
    if get_until(&format!("http://127.0.0.1:{http}/readyz"), |b| {
        b.starts_with("ready")
    })
    .await
    .is_none()
    {
        return Err(format!("reelforge all did not become ready\n{}", all.stderr()).into());
    }
    Ok(all)
}

/// Runs a 60 s document in `reelforge all` (stale limit `stale` s), stops the process with
/// `signal` while it draws, starts it again and answers the task's final state and its renders.
async fn render_across_a_restart(
    signal: &str,
    stale: u32,
) -> Result<(serde_json::Value, Vec<String>), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let http = free_port()?;
    let base = format!("http://127.0.0.1:{http}/diyvrbt");
    let mut all = start_all(dir.path(), http, stale).await?;
    let client = reqwest::Client::builder()
        .default_headers(
            [(
                reqwest::header::HeaderName::from_static("userid"),
                reqwest::header::HeaderValue::from_static("kim@example.com"),
            )]
            .into_iter()
            .collect(),
        )
        .build()?;
    let token = sign_in(&base, dir.path(), "kim@example.com").await?;
    let save = client
        .post(format!("{base}/videotask/save"))
        .header("Authorization", &token);
    let task_id = save_task(save, &canvas_rule(60), "long").await?;
    let state_url = format!("{base}/videotask/state?taskId={task_id}");
    let state = |client: reqwest::Client, token: String, url: String| async move {
        let body = client
            .get(url)
            .header("Authorization", token)
            .send()
            .await?
            .text()
            .await?;
        envelope_data(&body)
    };
    client
        .post(format!("{base}/videotask/runtask"))
        .header("Authorization", &token)
        .json(&serde_json::json!({"taskId": task_id}))
        .send()
        .await?;
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let s = state(client.clone(), token.clone(), state_url.clone()).await?;
        if s["stage"] == "rendering" && s["framesDone"].as_u64().unwrap_or(0) > 0 {
            break;
        }
        if Instant::now() > deadline {
            return Err(format!("never seen rendering: {s}").into());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let sent = Command::new("kill")
        .args([signal, &all.0.id().to_string()])
        .status()?;
    assert!(sent.success());
    all.0.wait()?;

    let _all = start_all(dir.path(), http, stale).await?;
    let deadline = Instant::now() + Duration::from_secs(120);
    let done = loop {
        let s = state(client.clone(), token.clone(), state_url.clone()).await?;
        if s["status"] == 10 || s["status"] == 9 {
            break s;
        }
        if Instant::now() > deadline {
            return Err(format!("the task did not end after the restart: {s}").into());
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let renders = dir
        .path()
        .join(format!("data/blobs/t/qs/tasks/{task_id}/renders"));
    let mut names: Vec<String> = std::fs::read_dir(&renders)?
        .map(|e| e.map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect::<Result<_, _>>()?;
    names.sort();
    Ok((done, names))
}

fn assert_finished_once(done: &serde_json::Value, names: &[String]) {
    assert_eq!(done["status"], 10, "{done}");
    assert_eq!(names.len(), 2, "one video and one cover: {names:?}");
    assert!(
        done["videoRelativePath"]
            .as_str()
            .is_some_and(|k| names.iter().any(|n| k.ends_with(n.as_str()))),
        "{done} {names:?}"
    );
}

/// `reelforge all` killed with SIGKILL while it renders, then started again: the silent job is
/// taken back by the reaper (3 s stale limit) and rendered once more under the same key; the task
/// succeeds once, one video.
#[tokio::test]
async fn a_render_survives_sigkill_of_all() -> TestResult {
    let (done, names) = render_across_a_restart("-KILL", 3).await?;
    assert_finished_once(&done, &names);
    Ok(())
}

/// SIGTERM while it renders: the job is handed back before exit, so after the restart it renders
/// at once (the 600 s stale limit rules the reaper out) and succeeds once.
#[tokio::test]
async fn sigterm_hands_the_render_back() -> TestResult {
    let (done, names) = render_across_a_restart("-TERM", 600).await?;
    assert_finished_once(&done, &names);
    Ok(())
}
