//! A toolbox run is a task, but not an editor work: the editor's own calls (run, save, clear,
//! duplicate, rename, autosave) refuse its id naming `taskId`, and change nothing of it; on real
//! SQLite and PostgreSQL.

use std::collections::BTreeSet;
use std::sync::Arc;

use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};
use reelforge_task::domain::Library;
use reelforge_task::{Owner, SaveInput, TaskError, TaskFilter, TaskStatus, TaskStore, domain, migrate};

use crate::common::{TestResult, canvas_rule};

/// The material library as the material service answers one owner's own materials: the ids it
/// holds, for that owner only.
struct OwnMaterials {
    owner: Owner,
    ids: BTreeSet<String>,
}

#[async_trait::async_trait]
impl Library for OwnMaterials {
    async fn usable(&self, owner: &Owner, ids: &[String]) -> Result<BTreeSet<String>, TaskError> {
        Ok(if *owner == self.owner { ids.iter().filter(|id| self.ids.contains(*id)).cloned().collect() } else { BTreeSet::new() })
    }
}

fn is_not_a_work(r: Result<impl std::fmt::Debug, TaskError>, id: i64, call: &str) {
    match r {
        Err(e @ TaskError::NotAWork(n)) if n == id => {
            assert_eq!(e.to_string(), format!("taskId: task {id} is a toolbox run, not an editor work"), "{call}");
        }
        other => panic!("{call} on a tool run answered {other:?}"),
    }
}

async fn editor_calls_refuse_a_tool_run(url: &str) -> TestResult {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    let ann = Owner { tenant: "qs".into(), user_id: "ann".into() };
    let library = OwnMaterials { owner: ann.clone(), ids: BTreeSet::from(["m-1".to_owned()]) };
    let store = TaskStore::new(db).with_library(Arc::new(library));

    let tool = domain::parse_tool_run("EXTRACT_AUDIO", r#"{"format":"wav"}"#, &["m-1".to_owned()])?;
    let (run_id, _) = store.run_tool(&ann, tool).await?;
    let work = store.save(&ann, domain::parse_draft(&ann, SaveInput { task_id: -1, name: "作品", task_info: &canvas_rule(), size_category_id: 41, used_for: "", version: 0 })?).await?;
    let before = store.get(&ann, run_id).await?;

    is_not_a_work(store.run(&ann, run_id).await, run_id, "runtask");
    is_not_a_work(store.clear(&ann, run_id).await, run_id, "clear");
    is_not_a_work(store.duplicate(&ann, run_id).await, run_id, "duplicate");
    is_not_a_work(store.rename(&ann, run_id, "新名字").await, run_id, "rename");
    is_not_a_work(store.access(&ann, run_id).await.map(|_| ()), run_id, "save (its access)");
    let over = domain::parse_draft(&ann, SaveInput { task_id: run_id, name: "覆盖", task_info: &canvas_rule(), size_category_id: 41, used_for: "", version: 0 })?;
    is_not_a_work(store.save(&ann, over).await, run_id, "save");
    is_not_a_work(store.confirm_work(&ann, run_id).await, run_id, "autosave");

    // Nothing of the run changed, and nothing new was made.
    let after = store.get(&ann, run_id).await?;
    assert_eq!(after, before, "the refused calls left the run as it was");
    assert_eq!((after.status, after.tool.map(|t| t.tool_type)), (TaskStatus::Wait, Some("EXTRACT_AUDIO".to_owned())));
    assert_eq!(store.mine(&ann, &TaskFilter::default(), 1, 10).await?.1, 1, "no copy of the run among the works");
    assert_eq!(store.mine_tools(&ann, None, 1, 10).await?.1, 1);

    // Another user's run is simply not found; the owner's work still takes every editor call.
    let bob = Owner { tenant: "qs".into(), user_id: "bob".into() };
    assert!(matches!(store.clear(&bob, run_id).await, Err(TaskError::NotFound(_))));
    store.rename(&ann, work, "改名").await?;
    store.confirm_work(&ann, work).await?;
    let copy = store.duplicate(&ann, work).await?;
    assert_eq!(store.run(&ann, copy).await?.status, TaskStatus::Wait);
    // The run's own calls still reach it: its state and its deletion.
    assert_eq!(store.state(&ann, run_id).await?.status, TaskStatus::Wait);
    assert_eq!(store.delete(&ann, &[run_id]).await?.len(), 1);
    Ok(())
}

#[tokio::test]
async fn editor_calls_refuse_a_tool_run_sqlite() -> TestResult {
    editor_calls_refuse_a_tool_run(&fresh_sqlite()).await
}

#[tokio::test]
async fn editor_calls_refuse_a_tool_run_postgres() -> TestResult {
    editor_calls_refuse_a_tool_run(&fresh_postgres().await?).await
}
