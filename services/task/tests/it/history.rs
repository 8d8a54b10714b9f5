//! The editor's autosave in the in-process cache and in real Redis: store and restore per user and
//! task, the time of the last store, the 2 MB limit (refused, the last state kept).

use reelforge_kit::testing::{redis_url, unique};
use reelforge_task::domain::MAX_HISTORY_BYTES;
use reelforge_task::{HistoryStore, TaskError};

use crate::common::{TestResult, owner};

async fn suite(cache_url: &str) -> TestResult {
    let history = HistoryStore::new(reelforge_kit::cache::open(cache_url).await?);
    // Users of this run only: Redis is shared with every other run of these tests.
    let (ua, ub) = (unique("a"), unique("b"));
    let (a, b, other_tenant) = (owner("qs", &ua), owner("qs", &ub), owner("cc", &ua));
    let none = history.get(&a, 7).await?;
    assert_eq!((none.stored_ms, none.history.as_str()), (0, ""), "nothing kept yet");

    let first = history.store(&a, 7, r#"{"scenes":[1]}"#).await?;
    assert!(first > 0);
    let kept = history.get(&a, 7).await?;
    assert_eq!((kept.stored_ms, kept.history.as_str()), (first, r#"{"scenes":[1]}"#));
    history.store(&a, 7, r#"{"scenes":[1,2]}"#).await?;
    assert_eq!(history.get(&a, 7).await?.history, r#"{"scenes":[1,2]}"#, "each store replaces the last");

    // Per user, per task, per tenant; unsaved new tasks (-1, 0) share one state.
    for (who, task) in [(&b, 7), (&other_tenant, 7), (&a, 8)] {
        assert_eq!(history.get(who, task).await?.stored_ms, 0);
    }
    history.store(&a, -1, "[]").await?;
    assert_eq!(history.get(&a, 0).await?.history, "[]");

    // Over 2 MB is refused and the last state stays.
    let big = format!("\"{}\"", "x".repeat(MAX_HISTORY_BYTES));
    let refused = history.store(&a, 7, &big).await;
    assert!(matches!(&refused, Err(TaskError::Invalid(m)) if m.contains("over the limit of 2 MB")), "{refused:?}");
    let at_limit = format!("\"{}\"", "x".repeat(MAX_HISTORY_BYTES - 2));
    history.store(&a, 8, &at_limit).await?;
    assert_eq!(history.get(&a, 8).await?.history.len(), MAX_HISTORY_BYTES, "exactly 2 MB is kept");
    assert!(matches!(history.store(&a, 7, "{not json").await, Err(TaskError::Invalid(_))));
    assert_eq!(history.get(&a, 7).await?.history, r#"{"scenes":[1,2]}"#);

    history.forget(&a, 7).await?;
    assert_eq!(history.get(&a, 7).await?.stored_ms, 0);
    Ok(())
}

#[tokio::test]
async fn in_process() -> TestResult {
    suite("memory://").await
}

#[tokio::test]
async fn in_redis() -> TestResult {
    suite(&redis_url()).await
}
