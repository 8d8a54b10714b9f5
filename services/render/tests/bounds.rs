//! Unbounded documents are refused by `reelforge-render` before anything is drawn: the process
//! exits non-zero, names the field, and leaves no output file.

use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;

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

/// Runs the CLI on `doc` with `env` set and returns (success, stderr, whether out.mp4 exists).
fn run(
    dir: &Path,
    doc: &Value,
    env: &[(&str, &str)],
) -> Result<(bool, String, bool), Box<dyn std::error::Error>> {
    let rule = dir.join("rule.json");
    let out = dir.join("out.mp4");
    std::fs::write(&rule, doc.to_string())?;
    let got = Command::new(env!("CARGO_BIN_EXE_reelforge-render"))
        .arg(&rule)
        .arg("--materials")
        .arg(dir)
        .arg("-o")
        .arg(&out)
        .arg("--quiet")
        .envs(env.iter().copied())
        .output()?;
    Ok((
        got.status.success(),
        String::from_utf8_lossy(&got.stderr).into_owned(),
        out.exists(),
    ))
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
        let (ok, stderr, written) = run(dir.path(), &doc, &[])?;
        assert!(!ok, "{path}: exited 0");
        assert!(
            stderr.contains("refused") && stderr.contains(path),
            "{path}: {stderr}"
        );
        assert!(!written, "{path}: an output file was written");
    }
    Ok(())
}

#[test]
fn a_render_over_the_memory_budget_is_refused() -> R {
    let dir = tempfile::tempdir()?;
    let (ok, stderr, written) = run(
        dir.path(),
        &document(small_ratio(), 2.0),
        &[("REELFORGE_RENDER_MEMORY_MB", "1")],
    )?;
    assert!(!ok && !written, "{stderr}");
    assert!(stderr.contains("over the budget of 1 MiB"), "{stderr}");
    let (ok, stderr, written) = run(dir.path(), &document(small_ratio(), 2.0), &[])?;
    assert!(
        ok && written,
        "the same document within the budget renders: {stderr}"
    );
    Ok(())
}
