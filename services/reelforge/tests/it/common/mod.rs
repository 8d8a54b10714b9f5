//! What the process tests share: the binary, free ports, child processes killed on drop, polling,
//! the envelope and signing in through the mail outbox.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{Read, Seek};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A test's result; any error fails it with its message.
pub type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The `reelforge` binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_reelforge");

/// A loopback port nothing listens on now, and one this test process has not handed out before:
/// a binary's tests run at once and start their processes a while after choosing their ports
/// (services start one by one), so without the record the system could hand a port that one test
/// chose, but has not bound yet, to another ("Address already in use" in CI).
pub fn free_port() -> Result<u16, std::io::Error> {
    static GIVEN: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    loop {
        let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
        if GIVEN.lock().unwrap_or_else(|p| p.into_inner()).insert(port) {
            return Ok(port);
        }
    }
}

/// A child process, killed (SIGKILL) and reaped when dropped, so a failing test leaves none behind.
/// Its stderr goes to an unnamed file: a pipe nobody reads would stall a chatty child.
pub struct Process(pub Child, File);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Process {
    /// Starts `command` with stdout discarded and stderr kept.
    pub fn start(command: &mut Command) -> Result<Self, std::io::Error> {
        let log = tempfile::tempfile()?;
        let child = command
            .stdout(Stdio::null())
            .stderr(log.try_clone()?)
            .spawn()?;
        Ok(Self(child, log))
    }

    /// Starts `reelforge <target>` in `dir` with `env` added; every target serves an admin
    /// address, a free one unless `env` names it.
    pub fn spawn(
        target: &'static str,
        dir: &std::path::Path,
        env: &[(&str, String)],
    ) -> Result<Self, std::io::Error> {
        let mut command = Command::new(BIN);
        command
            .arg(target)
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .current_dir(dir);
        if !env.iter().any(|(k, _)| *k == "REELFORGE_ADMIN__ADDR") {
            command.env("REELFORGE_ADMIN__ADDR", format!("127.0.0.1:{}", free_port()?));
        }
        Self::start(&mut command)
    }

    /// Stops the process and answers what it wrote to stderr.
    pub fn stderr(&mut self) -> String {
        let _ = self.0.kill();
        let _ = self.0.wait();
        let mut s = String::new();
        if self.1.rewind().is_ok() {
            let _ = self.1.read_to_string(&mut s);
        }
        s
    }
}

/// GETs `url` until its body satisfies `ok` (30 s at most) and answers that body.
pub async fn get_until(url: &str, ok: impl Fn(&str) -> bool) -> Option<String> {
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

/// The `data` of a success envelope, or an error quoting the body.
pub fn envelope_data(body: &str) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
    let v: serde_json::Value = serde_json::from_str(body)?;
    if v["code"] != 2000 {
        return Err(format!("not a success envelope: {body}").into());
    }
    Ok(v["data"].clone())
}

/// Signs `mail` in at the gateway `base` with the code the auth service wrote to
/// `<dir>/data/mail-outbox.log`, and answers the token.
pub async fn sign_in(
    base: &str,
    dir: &std::path::Path,
    mail: &str,
) -> Result<String, Box<dyn std::error::Error>> {
    let client = reqwest::Client::new();
    let sent = client
        .post(format!("{base}/user/sendCode"))
        .form(&[("mail", mail)])
        .send()
        .await?
        .text()
        .await?;
    envelope_data(&sent)?;
    let outbox = std::fs::read_to_string(dir.join("data/mail-outbox.log"))?;
    let code = outbox
        .lines()
        .rev()
        .find(|l| l.split('\t').nth(2) == Some(mail))
        .and_then(|l| l.rsplit(' ').next())
        .ok_or("no code mailed")?
        .to_owned();
    let login = client
        .post(format!("{base}/user/login"))
        .json(&serde_json::json!({"mail": mail, "code": code}))
        .send()
        .await?;
    Ok(envelope_data(&login.text().await?)?["token"]
        .as_str()
        .ok_or("no token")?
        .to_owned())
}

/// A blank 320×180 canvas document of `seconds`: quick to render, long enough to catch mid-render.
pub fn canvas_rule(seconds: u32) -> serde_json::Value {
    serde_json::json!({
        "version": 1, "renderVersion": 2, "ruleType": "VIDEO_EDIT", "videoQuality": 30, "frameRate": 80,
        "resolutionRatio": {"name": "16:9", "width": 320, "height": 180, "ratio": "16:9", "sizeId": 41, "targetWidth": 320},
        "scenes": [{"type": "canvas", "timeLength": seconds, "bgColor": "#1e3a8a", "layers": []}],
        "audio": []
    })
}

/// Sends a save request (`save`: a POST to `/videotask/save` carrying the caller's headers) of `rule`
/// named `name`; answers the task id.
pub async fn save_task(
    save: reqwest::RequestBuilder,
    rule: &serde_json::Value,
    name: &str,
) -> Result<i64, Box<dyn std::error::Error>> {
    let saved = save
        .form(&[("taskInfo", rule.to_string()), ("name", name.to_owned())])
        .send()
        .await?
        .text()
        .await?;
    Ok(envelope_data(&saved)?.as_i64().ok_or("no task id")?)
}
