//! The local programs the abilities run (pocketsphinx, tesseract): started with their arguments,
//! never through a shell, their output read on threads of their own so a full pipe never stalls
//! them, and killed once a timeout passes or the job is cancelled.

use std::io::Read;
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::provider::AiError;

/// What a program left when it ended.
pub(crate) struct Finished {
    /// How it ended.
    pub status: ExitStatus,
    /// Its standard output.
    pub stdout: Vec<u8>,
    /// Its standard error.
    pub stderr: Vec<u8>,
}

/// Runs `command` (its stdin empty) to its end; past `timeout`, or once `cancel` is set, the
/// program is killed and the answer is `Timeout` or `Cancelled`.
pub(crate) fn run(mut command: Command, timeout: Duration, cancel: &AtomicBool) -> Result<Finished, AiError> {
    let program = command.get_program().to_string_lossy().into_owned();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| AiError::Upstream(format!("`{program}` did not start: {e}")))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as Box<dyn Read + Send>));
    let started = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().map_err(|e| AiError::Upstream(format!("waiting for `{program}`: {e}")))? {
            break s;
        }
        let stop = if cancel.load(Ordering::Relaxed) {
            Some(AiError::Cancelled)
        } else if started.elapsed() > timeout {
            Some(AiError::Timeout(timeout.as_secs()))
        } else {
            None
        };
        if let Some(e) = stop {
            let _ = child.kill();
            let _ = child.wait();
            return Err(e);
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Ok(Finished { status, stdout: stdout.join().unwrap_or_default(), stderr: stderr.join().unwrap_or_default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_is_read_to_its_end_or_stopped() -> Result<(), AiError> {
        let mut echo = Command::new("sh");
        echo.args(["-c", "printf out; printf err >&2; exit 3"]);
        let done = run(echo, Duration::from_secs(10), &AtomicBool::new(false))?;
        assert_eq!((done.status.code(), done.stdout.as_slice(), done.stderr.as_slice()), (Some(3), &b"out"[..], &b"err"[..]));
        let mut slow = Command::new("sleep");
        slow.arg("30");
        assert!(matches!(run(slow, Duration::from_millis(200), &AtomicBool::new(false)), Err(AiError::Timeout(_))));
        let mut slow = Command::new("sleep");
        slow.arg("30");
        assert!(matches!(run(slow, Duration::from_secs(30), &AtomicBool::new(true)), Err(AiError::Cancelled)));
        assert!(matches!(run(Command::new("/nonexistent/program"), Duration::from_secs(1), &AtomicBool::new(false)), Err(AiError::Upstream(_))));
        Ok(())
    }
}
