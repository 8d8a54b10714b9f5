//! Fixture documents in `tests/fixtures/`: each `NAME.json` has `NAME.expected.txt` holding the
//! exact validation problems (one per line), or `error: …` when it does not parse. Parseable
//! fixtures must also round-trip without losing a field. `UPDATE_FIXTURES=1` rewrites expectations.
//! The documents the browser editor saves (written by `frontend/tests/timeline/documents.test.ts`
//! from its own reducers) must round-trip too, with no problem found.

use reelforge_timeline::{Rule, validate};
use serde_json::Value;
use std::path::PathBuf;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// Returns the first key path of `input` missing from `output`.
fn lost_key(path: &str, input: &Value, output: &Value) -> Option<String> {
    match (input, output) {
        (Value::Object(a), Value::Object(b)) => a.iter().find_map(|(k, v)| match b.get(k) {
            None => Some(format!("{path}.{k}")),
            Some(w) => lost_key(&format!("{path}.{k}"), v, w),
        }),
        (Value::Array(a), Value::Array(b)) => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (v, w))| lost_key(&format!("{path}[{i}]"), v, w)),
        _ => None,
    }
}

fn outcome(text: &str) -> Result<String, Box<dyn std::error::Error>> {
    let rule = match Rule::parse(text) {
        Ok(rule) => rule,
        Err(e) => return Ok(format!("error: {e}\n")),
    };
    let saved = serde_json::to_string(&rule)?;
    let again = Rule::parse(&saved)?;
    if again != rule {
        return Err("parse → serialise → parse changed the rule".into());
    }
    if let Some(lost) = lost_key(
        "",
        &serde_json::from_str(text)?,
        &serde_json::from_str(&saved)?,
    ) {
        return Err(format!("round trip lost {lost}").into());
    }
    Ok(validate(&rule).iter().map(|p| format!("{p}\n")).collect())
}

#[test]
fn fixtures_give_exactly_the_expected_problems() -> TestResult {
    let update = std::env::var_os("UPDATE_FIXTURES").is_some();
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir())?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    assert!(names.len() >= 9, "fixtures missing");
    let mut failures = Vec::new();
    for path in names {
        let got = outcome(&std::fs::read_to_string(&path)?)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        let expected_path = path.with_extension("expected.txt");
        if update {
            std::fs::write(&expected_path, &got)?;
            continue;
        }
        let expected = std::fs::read_to_string(&expected_path)?;
        if expected != got {
            failures.push(format!(
                "{}:\n--- expected\n{expected}--- got\n{got}",
                path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    Ok(())
}

/// Returns the first key path where `output` differs from `input`: a value changed, a key lost or added.
fn first_difference(path: &str, input: &Value, output: &Value) -> Option<String> {
    match (input, output) {
        (Value::Object(a), Value::Object(b)) => a
            .iter()
            .find_map(|(k, v)| match b.get(k) {
                None => Some(format!("{path}.{k} lost")),
                Some(w) => first_difference(&format!("{path}.{k}"), v, w),
            })
            .or_else(|| b.keys().find(|k| !a.contains_key(*k)).map(|k| format!("{path}.{k} added"))),
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .enumerate()
            .find_map(|(i, (v, w))| first_difference(&format!("{path}[{i}]"), v, w)),
        // 3 and 3.0 are the same number to the editor.
        (Value::Number(a), Value::Number(b)) if a.as_f64() == b.as_f64() => None,
        _ if input == output => None,
        _ => Some(format!("{path}: {input} became {output}")),
    }
}

#[test]
fn documents_the_editor_saves_round_trip_unchanged_with_no_problem() -> TestResult {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../frontend/tests/timeline/documents");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<Vec<_>, _>>()?;
    names.retain(|p| p.extension().is_some_and(|e| e == "json"));
    assert!(names.len() >= 3, "the editor's documents are missing from {}", dir.display());
    for path in names {
        let text = std::fs::read_to_string(&path)?;
        let saved = serde_json::to_value(Rule::parse(&text)?)?;
        let difference = first_difference("", &serde_json::from_str(&text)?, &saved);
        assert!(difference.is_none(), "{}: {}", path.display(), difference.unwrap_or_default());
        let problems = outcome(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        assert!(problems.is_empty(), "{}:\n{problems}", path.display());
    }
    Ok(())
}
