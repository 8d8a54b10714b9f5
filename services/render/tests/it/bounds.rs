//! Unbounded documents are refused by `reelforge-render` before anything is drawn: the process
//! exits non-zero, names the field, and leaves no output file. Each run's wall time and peak
//! RSS are printed (`cargo test -- --nocapture`); only the memory is asserted, never the time.

use serde_json::{Value, json};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

/// Peak resident memory a refusal may take: the bound, far below what rendering the
/// refused document would take (6.4 GB for the 100000-wide ratio before the bounds).
const REFUSAL_RSS_MAX_KB: i64 = 200 * 1024;

type R = Result<(), Box<dyn std::error::Error>>;

fn document(ratio: Value, time_length: f64) -> Value {
    json!({
        "version": 1, "frameRate": 30, "videoQuality": 99,
        "resolutionRatio": ratio,
        "scenes": [{"bgColor": "#000000", "timeLength": time_length, "layers": []}]
    })
}

fn small_ratio() -> Value {
    json!({"name": "16:9", "width": 160, "height": 90, "sizeId": 41, "targetWidth": 160})
}

/// How one CLI run ended.
struct Run {
    ok: bool,
    stderr: String,
    written: bool,
    /// Peak resident memory of the process, KiB (its own `getrusage`, reaped by `wait4`).
    max_rss_kb: i64,
}

/// Runs the CLI on `doc` with `env` set, in a directory of its own, and prints its wall time
/// and peak RSS under `label`.
fn run(
    dir: &Path,
    label: &str,
    doc: &Value,
    env: &[(&str, &str)],
) -> Result<Run, Box<dyn std::error::Error>> {
    let rule = dir.join("rule.json");
    let out = dir.join("out.mp4");
    std::fs::write(&rule, doc.to_string())?;
    let started = Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_reelforge-render"))
        .arg(&rule)
        .arg("--materials")
        .arg(dir)
        .arg("-o")
        .arg(&out)
        .arg("--quiet")
        // anyhow would capture and symbolise a backtrace for the error (0.6 s and 60 MB in a
        // debug build): the figures are the refusal's own, as the farm and the CLI run it.
        .env_remove("RUST_BACKTRACE")
        .env_remove("RUST_LIB_BACKTRACE")
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .ok_or("no stderr pipe")?
        .read_to_string(&mut stderr)?;
    let pid = libc::pid_t::try_from(child.id())?;
    let mut status = 0;
    // SAFETY: `rusage` is plain old data that all-zero bytes represent validly.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `pid` is our own child, not yet reaped (std's `Child` is never waited on here),
    // and both pointers are to live locals.
    let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if reaped != pid {
        return Err(format!("wait4: {}", std::io::Error::last_os_error()).into());
    }
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    println!(
        "{label}: exit {}, {:.3} s wall, peak RSS {} MB",
        if ok { "0" } else { "non-zero" },
        started.elapsed().as_secs_f64(),
        usage.ru_maxrss / 1024
    );
    Ok(Run {
        ok,
        stderr,
        written: out.exists(),
        max_rss_kb: usage.ru_maxrss,
    })
}

#[test]
fn unbounded_documents_are_refused_without_rendering() -> R {
    let dir = tempfile::tempdir()?;
    let cases = [
        (document(small_ratio(), 1e12), "scenes[0].timeLength"),
        (
            document(
                json!({"name": "custom", "width": 100_000, "height": 90, "sizeId": -1, "targetWidth": 100_000}),
                2.0,
            ),
            "resolutionRatio.width",
        ),
        (
            document(
                json!({"name": "custom", "width": 0, "height": 0, "sizeId": -1, "targetWidth": 0}),
                2.0,
            ),
            "resolutionRatio.height",
        ),
    ];
    for (doc, path) in cases {
        let got = run(dir.path(), path, &doc, &[])?;
        assert!(!got.ok, "{path}: exited 0");
        assert!(
            got.stderr.contains("refused") && got.stderr.contains(path),
            "{path}: {}",
            got.stderr
        );
        assert!(!got.written, "{path}: an output file was written");
        assert!(
            got.max_rss_kb < REFUSAL_RSS_MAX_KB,
            "{path}: peak RSS {} KiB",
            got.max_rss_kb
        );
    }
    Ok(())
}

#[test]
fn a_render_over_the_memory_budget_is_refused() -> R {
    let dir = tempfile::tempdir()?;
    let got = run(
        dir.path(),
        "memory budget 1 MiB",
        &document(small_ratio(), 2.0),
        &[("REELFORGE_RENDER_MEMORY_MB", "1")],
    )?;
    assert!(!got.ok && !got.written, "{}", got.stderr);
    assert!(
        got.stderr.contains("over the budget of 1 MiB"),
        "{}",
        got.stderr
    );
    let got = run(
        dir.path(),
        "within the budget",
        &document(small_ratio(), 2.0),
        &[],
    )?;
    assert!(
        got.ok && got.written,
        "the same document within the budget renders: {}",
        got.stderr
    );
    Ok(())
}
