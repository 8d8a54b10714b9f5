//! The binary as a user runs it: bad configuration stops it with one line; a gateway and a service in
//! separate processes answer a request across gRPC in the envelope.

use std::io::Read;
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const BIN: &str = env!("CARGO_BIN_EXE_reelforge");

fn free_port() -> Result<u16, std::io::Error> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

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
    let (code, err) = run_to_end(&["category"], &[("REELFORGE_DATABASE__URL", &url)])?;
    assert_one_line_failure(code, &err, "database postgres://");
    Ok(())
}

struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Process {
    fn spawn(
        target: &'static str,
        dir: &std::path::Path,
        env: &[(&str, String)],
    ) -> Result<Self, std::io::Error> {
        let child = Command::new(BIN)
            .arg(target)
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()?;
        Ok(Self(child))
    }

    fn stderr(&mut self) -> String {
        let _ = self.0.kill();
        let mut s = String::new();
        if let Some(e) = self.0.stderr.as_mut() {
            let _ = e.read_to_string(&mut s);
        }
        s
    }
}

async fn get_until(url: &str, ok: impl Fn(&str) -> bool) -> Option<String> {
    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while Instant::now() < deadline {
        if let Ok(r) = client.get(url).send().await
            && let Ok(body) = r.text().await
            && ok(&body)
        {
            return Some(body);
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    None
}

#[tokio::test]
async fn a_request_crosses_from_the_gateway_process_to_a_service_process() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (grpc, admin, http) = (free_port()?, free_port()?, free_port()?);
    let mut service = Process::spawn(
        "category",
        dir.path(),
        &[
            (
                "REELFORGE_SERVICES__CATEGORY__LISTEN",
                format!("127.0.0.1:{grpc}"),
            ),
            ("REELFORGE_ADMIN__ADDR", format!("127.0.0.1:{admin}")),
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
    let metrics = get_until(&format!("http://127.0.0.1:{http}/metrics"), |b| {
        b.contains("reelforge_requests_total")
    })
    .await;
    assert!(
        metrics.is_some_and(|m| m.contains("/diyvrbt/category/taskvideo")),
        "requests are counted by route"
    );

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

fn envelope_data(body: &str) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
    let v: serde_json::Value = serde_json::from_str(body)?;
    if v["code"] != 2000 {
        return Err(format!("not a success envelope: {body}").into());
    }
    Ok(v["data"].clone())
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
        "scenes": [{"id": 1, "type": "canvas", "timeLength": 2, "bgColor": "#1e3a8a", "effectTime": 1, "layers": [
            {"type": "word", "id": "t1", "startTime": 0, "endTime": 2, "x": 100, "y": 100, "w": 400, "h": 80, "z": 101,
             "content": "你好", "fontSize": 48, "color": "#ffffff"}]}],
        "audio": []
    });
    let saved = client
        .post(format!("{base}/videotask/save"))
        .header("Authorization", &token)
        .form(&[("taskInfo", rule.to_string()), ("name", "测试".into())])
        .send()
        .await?;
    let task_id = envelope_data(&saved.text().await?)?
        .as_i64()
        .ok_or("no task id")?;
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
