//! The task calls on real SQLite and PostgreSQL: list filters, order and paging; by ids; rename,
//! duplicate, clear, delete (all or none); the stale-save refusal; invalid documents (every error
//! listed with its path, nothing stored, sources confined to the tenant).

use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};
use reelforge_task::{Order, Owner, SaveInput, TaskDraft, TaskError, TaskFilter, TaskStatus, domain};

use crate::common::{INVALID, TestResult, open, owner, valid};

fn draft(o: &Owner, task_id: i64, name: &str, info: &str, size: i32, version: i64) -> Result<TaskDraft, TaskError> {
    domain::parse_draft(o, SaveInput { task_id, name, task_info: info, size_category_id: size, used_for: "", version })
}

fn ids(tasks: &[reelforge_task::Task]) -> Vec<i64> {
    tasks.iter().map(|t| t.id).collect()
}

async fn filters_and_paging(url: &str) -> TestResult {
    let store = open(url).await?;
    let (a, b) = (owner("qs", "a"), owner("qs", "b"));
    let spring = store.save(&a, draft(&a, -1, "春节促销", valid(), 41, 0)?).await?;
    let summer = store.save(&a, draft(&a, -1, "Summer Sale", valid(), 50, 0)?).await?;
    let percent = store.save(&a, draft(&a, -1, "100% 好", valid(), 42, 0)?).await?;
    store.save(&b, draft(&b, -1, "Summer of b", valid(), 41, 0)?).await?;
    store.run(&a, summer).await?;

    let all = TaskFilter::default();
    let (page, total) = store.mine(&a, &all, 1, 10).await?;
    assert_eq!((total, page.len()), (3, 3), "only the caller's own tasks");
    assert_eq!(ids(&page)[0], summer, "last changed first: the run changed it");
    let oldest = TaskFilter { order: Order::Oldest, ..TaskFilter::default() };
    assert_eq!(ids(&store.mine(&a, &oldest, 1, 10).await?.0), vec![spring, summer, percent]);
    assert_eq!(ids(&store.mine(&a, &oldest, 2, 2).await?.0), vec![percent], "page 2 of size 2");
    assert_eq!(store.mine(&a, &oldest, 3, 2).await?, (vec![], 3), "past the end: empty page, same total");

    let by_size = TaskFilter { size_category_ids: vec![41, 42, 51], order: Order::Oldest, ..TaskFilter::default() };
    assert_eq!(ids(&store.mine(&a, &by_size, 1, 10).await?.0), vec![spring, percent]);
    let waiting = TaskFilter { states: vec![TaskStatus::Wait.code()], ..TaskFilter::default() };
    assert_eq!(ids(&store.mine(&a, &waiting, 1, 10).await?.0), vec![summer]);
    let done = TaskFilter { states: vec![TaskStatus::Success.code()], ..TaskFilter::default() };
    assert_eq!(store.mine(&a, &done, 1, 10).await?.1, 0);
    let named = TaskFilter { name: " summer ".into(), ..TaskFilter::default() };
    assert_eq!(ids(&store.mine(&a, &named, 1, 10).await?.0), vec![summer], "case-insensitive part of the name");
    let chinese = TaskFilter { name: "促销".into(), ..TaskFilter::default() };
    assert_eq!(ids(&store.mine(&a, &chinese, 1, 10).await?.0), vec![spring]);
    let literal = TaskFilter { name: "%".into(), ..TaskFilter::default() };
    assert_eq!(ids(&store.mine(&a, &literal, 1, 10).await?.0), vec![percent], "% is a character, not a wildcard");

    // By use: a card work is listed only under its use; present and empty means plain works.
    let card_info = SaveInput { task_id: -1, name: "名片", task_info: valid(), size_category_id: 50, used_for: "BUSINESS_CARD_TEMPLATE", version: 0 };
    let card = store.save(&a, domain::parse_draft(&a, card_info)?).await?;
    let cards = TaskFilter { used_for: Some("BUSINESS_CARD_TEMPLATE".into()), ..TaskFilter::default() };
    assert_eq!(ids(&store.mine(&a, &cards, 1, 10).await?.0), vec![card]);
    let plain = TaskFilter { used_for: Some(String::new()), order: Order::Oldest, ..TaskFilter::default() };
    assert_eq!(ids(&store.mine(&a, &plain, 1, 10).await?.0), vec![spring, summer, percent]);
    assert_eq!(store.mine(&a, &all, 1, 10).await?.1, 4, "no use named: every use");
    // The editor saves a plain work as `ALL`, its default mode: still a plain work, under either name.
    let editor_info = SaveInput { task_id: -1, name: "编辑器", task_info: valid(), size_category_id: 50, used_for: "ALL", version: 0 };
    let editor = store.save(&a, domain::parse_draft(&a, editor_info)?).await?;
    assert_eq!(ids(&store.mine(&a, &plain, 1, 10).await?.0), vec![spring, summer, percent, editor]);
    let all_mode = TaskFilter { used_for: Some("ALL".into()), order: Order::Oldest, ..TaskFilter::default() };
    assert_eq!(ids(&store.mine(&a, &all_mode, 1, 10).await?.0), vec![spring, summer, percent, editor]);
    assert_eq!(ids(&store.mine(&a, &cards, 1, 10).await?.0), vec![card], "a card work is not a plain one");

    // By ids: in the order given; one id not the caller's fails the call.
    assert_eq!(ids(&store.of_ids(&a, &[percent, spring]).await?), vec![percent, spring]);
    let b_task = store.mine(&b, &all, 1, 1).await?.0[0].id;
    assert!(matches!(store.of_ids(&a, &[spring, b_task]).await, Err(TaskError::NotFound(id)) if id == b_task));
    Ok(())
}

#[tokio::test]
async fn filters_and_paging_on_sqlite() -> TestResult {
    filters_and_paging(&fresh_sqlite()).await
}

#[tokio::test]
async fn filters_and_paging_on_postgres() -> TestResult {
    filters_and_paging(&fresh_postgres().await?).await
}

async fn saves(url: &str) -> TestResult {
    let store = open(url).await?;
    let a = owner("qs", "a");
    let id = store.save(&a, draft(&a, -1, "v", valid(), 41, 0)?).await?;
    assert_eq!(store.get(&a, id).await?.version, 1);

    // Two tabs based on version 1: the first save wins, the second is refused and stores nothing.
    let other = valid().replacen("\"scenes\"", "\"name\": \"tab two\", \"scenes\"", 1);
    store.save(&a, draft(&a, id, "tab one", valid(), 41, 1)?).await?;
    let stale = store.save(&a, draft(&a, id, "tab two", &other, 41, 1)?).await;
    assert!(matches!(stale, Err(TaskError::Stale)), "{stale:?}");
    assert_eq!(TaskError::Stale.to_string(), domain::STALE_MESSAGE);
    let t = store.get(&a, id).await?;
    assert_eq!((t.name.as_str(), t.version, t.task_info.as_str()), ("tab one", 2, valid()));
    store.save(&a, draft(&a, id, "tab two", &other, 41, 2)?).await?;
    assert_eq!(store.get(&a, id).await?.version, 3, "a save based on the stored version goes through");
    store.save(&a, draft(&a, id, "no version", valid(), 41, 0)?).await?;
    assert_eq!(store.get(&a, id).await?.version, 4, "a save naming no version overwrites and counts");
    let stranger = owner("qs", "b");
    assert!(matches!(store.save(&stranger, draft(&a, id, "x", valid(), 41, 4)?).await, Err(TaskError::NotFound(_))));

    // An invalid document: every error listed with its path, nothing parsed twice or stored.
    let rule = reelforge_timeline::Rule::parse(INVALID)?;
    let options = reelforge_timeline::ValidateOptions { access: Some(a.access()), ..Default::default() };
    let errors = reelforge_timeline::validate_with(&rule, &options);
    assert!(errors.len() > 3, "{errors:?}");
    let Err(TaskError::Invalid(message)) = draft(&a, id, "bad", INVALID, 41, 4) else {
        return Err("an invalid document was accepted".into());
    };
    for e in &errors {
        assert!(message.contains(&format!("{}: {}", e.path, e.message)), "{} missing from {message}", e.path);
    }
    assert_eq!(message.split("; ").count(), errors.len());

    // Sources outside the tenant, or another user's of the same tenant, are errors with their paths.
    for (src, code) in [
        ("/etc/passwd", "UnsafeSource"),
        ("../x", "UnsafeSource"),
        ("t/cc/u/1/materials/x/original.png", "ForeignSource"),
        ("t/qs/u/b/materials/x/original.png", "ForeignSource"),
        ("t/qs/tasks/7/renders/j.mp4", "ForeignSource"),
        ("http://evil.example/x", "UnsafeSource"),
    ] {
        let doc = valid().replacen("t/qs/sys/materials/a/original.png", src, 1);
        let rule = reelforge_timeline::Rule::parse(&doc)?;
        let found = reelforge_timeline::validate_with(&rule, &options);
        assert_eq!(found.len(), 1, "{src}: {found:?}");
        assert_eq!(format!("{:?}", found[0].code), code, "{src}");
        let Err(TaskError::Invalid(m)) = draft(&a, id, "x", &doc, 41, 0) else {
            return Err(format!("{src} was accepted").into());
        };
        assert!(m.starts_with(&found[0].path) && m.contains(src), "{src}: {m}");
    }
    assert_eq!(store.get(&a, id).await?.version, 4, "nothing stored");
    Ok(())
}

#[tokio::test]
async fn saves_on_sqlite() -> TestResult {
    saves(&fresh_sqlite()).await
}

#[tokio::test]
async fn saves_on_postgres() -> TestResult {
    saves(&fresh_postgres().await?).await
}

async fn rename_duplicate_clear_delete(url: &str) -> TestResult {
    let store = open(url).await?;
    let (a, b) = (owner("qs", "a"), owner("qs", "b"));
    let id = store.save(&a, draft(&a, -1, "原", valid(), 50, 0)?).await?;

    let renamed = store.rename(&a, id, "新名").await?;
    assert_eq!((renamed.name.as_str(), renamed.version, renamed.task_info.as_str()), ("新名", 1, valid()));
    assert!(matches!(store.rename(&b, id, "x").await, Err(TaskError::NotFound(_))));

    let copy = store.duplicate(&a, id).await?;
    let c = store.get(&a, copy).await?;
    assert_ne!(copy, id);
    assert_eq!((c.name.as_str(), c.status, c.version, c.task_info.as_str(), c.size_category_id), ("新名 副本", TaskStatus::New, 1, valid(), 50));
    assert!(c.video_key.is_empty() && c.cover_key.is_empty());
    assert!(matches!(store.duplicate(&b, id).await, Err(TaskError::NotFound(_))));

    let (cleared, keys) = store.clear(&a, copy).await?;
    let rule = reelforge_timeline::Rule::parse(&cleared.task_info)?;
    assert_eq!((cleared.name.as_str(), cleared.status, cleared.version, rule.scenes.len()), ("未命名", TaskStatus::New, 2, 1));
    assert!(rule.scenes[0].layers.is_empty() && rule.audio.is_empty() && keys.is_empty());
    store.run(&a, id).await?;
    assert!(matches!(store.clear(&a, id).await, Err(TaskError::Rendering(_))), "a task being rendered is not cleared");

    // All or none: a batch naming someone else's task deletes nothing.
    let theirs = store.save(&b, draft(&b, -1, "别人的", valid(), 41, 0)?).await?;
    assert!(matches!(store.delete(&a, &[copy, theirs]).await, Err(TaskError::NotFound(t)) if t == theirs));
    assert_eq!(store.of_ids(&a, &[id, copy]).await?.len(), 2, "nothing deleted");
    let deleted = store.delete(&a, &[id, copy]).await?;
    assert_eq!(deleted.iter().map(|d| d.task_id).collect::<Vec<_>>(), vec![id, copy]);
    assert!(deleted[0].active_job.is_some(), "the queued render is reported for cancelling");
    assert!(matches!(store.get(&a, id).await, Err(TaskError::NotFound(_))));
    assert_eq!(store.queued_jobs().await?, 0, "its render job went with it");
    assert_eq!(store.get(&b, theirs).await?.name, "别人的");
    Ok(())
}

#[tokio::test]
async fn rename_duplicate_clear_delete_on_sqlite() -> TestResult {
    rename_duplicate_clear_delete(&fresh_sqlite()).await
}

#[tokio::test]
async fn rename_duplicate_clear_delete_on_postgres() -> TestResult {
    rename_duplicate_clear_delete(&fresh_postgres().await?).await
}
