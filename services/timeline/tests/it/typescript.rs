//! The generated TypeScript in `frontend/src/editor/model/gen/` must be what generation produces
//! now. `UPDATE_TS=1 cargo test -p reelforge-timeline --test typescript` regenerates it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn committed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../frontend/src/editor/model/gen")
}

fn read_tree(dir: &Path) -> Result<BTreeMap<String, String>, std::io::Error> {
    let mut files = BTreeMap::new();
    if !dir.exists() {
        return Ok(files);
    }
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "ts") {
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            files.insert(name, std::fs::read_to_string(&path)?);
        }
    }
    Ok(files)
}

#[test]
fn generated_typescript_is_up_to_date() -> TestResult {
    let tmp = tempfile::tempdir()?;
    reelforge_timeline::typescript::export_all(tmp.path())?;
    let fresh = read_tree(tmp.path())?;
    let committed_path = committed_dir();
    if std::env::var_os("UPDATE_TS").is_some() {
        std::fs::create_dir_all(&committed_path)?;
        for name in read_tree(&committed_path)?.keys() {
            std::fs::remove_file(committed_path.join(name))?;
        }
        for (name, text) in &fresh {
            std::fs::write(committed_path.join(name), text)?;
        }
        return Ok(());
    }
    let committed = read_tree(&committed_path)?;
    for (name, text) in &fresh {
        match committed.get(name) {
            None => return Err(format!("{name} is not committed; run UPDATE_TS=1 cargo test -p reelforge-timeline --test typescript").into()),
            Some(old) if old != text => return Err(format!("{name} is stale; run UPDATE_TS=1 cargo test -p reelforge-timeline --test typescript").into()),
            Some(_) => {}
        }
    }
    if let Some(extra) = committed.keys().find(|k| !fresh.contains_key(*k)) {
        return Err(format!("{extra} is no longer generated; remove it").into());
    }
    Ok(())
}
