//! The task store on real SQLite and PostgreSQL with the database queue: saving, ownership, runs
//! through the outbox, exactly-once start and finish, cancel, the reaper and dead letters.

use std::sync::Arc;
use std::time::{Duration, Instant};

use prost::Message;
use reelforge_kit::JobQueue;
use reelforge_kit::config::QueueConfig;
use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};
use reelforge_task::{
    FarmSettings, FinishOutcome, JobRef, Owner, RENDER_QUEUE, Reaped, SaveInput, TaskDraft, TaskError, TaskFilter, TaskStatus, TaskStore,
    domain,
    migrate, render_keys,
};
use tokio::sync::watch;

use crate::common::{INVALID, TestResult, owner, valid};

/// A checked save of `owner` with no version (no stale check).
fn draft(owner: &Owner, task_id: i64, name: &str, task_info: &str, size: i32, used_for: &str) -> Result<TaskDraft, TaskError> {
    domain::parse_draft(owner, SaveInput { task_id, name, task_info, size_category_id: size, used_for, version: 0 })
}

async fn open(url: &str) -> Result<(TaskStore, Arc<dyn JobQueue>), Box<dyn std::error::Error>> {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    migrate(&db).await?;
    let config = QueueConfig { url: "db://".into(), delivery_limit: 2, lease_seconds: 60, prefetch: 1 };
    let queue = reelforge_kit::queue::open(&config, &db).await?;
    Ok((TaskStore::new(db), queue))
}

/// Starts the farm loop (relay, reaper, dead letters); it stops when the sender drops.
fn farm(store: &TaskStore, queue: &Arc<dyn JobQueue>, stale: Duration) -> watch::Sender<bool> {
    let (tx, rx) = watch::channel(false);
    let settings = FarmSettings { queue: RENDER_QUEUE.into(), stale, max_attempts: 2, tenant_in_queue: 4 };
    tokio::spawn(reelforge_task::farm::run(store.clone(), queue.clone(), settings, rx));
    tx
}

async fn next_job(queue: &Arc<dyn JobQueue>) -> Result<(reelforge_kit::Job, reelforge_proto::render::RenderJob), Box<dyn std::error::Error>> {
    let job = queue.receive(RENDER_QUEUE, Duration::from_secs(10)).await?.ok_or("no job published")?;
    let body = reelforge_proto::render::RenderJob::decode(job.body.as_slice())?;
    Ok((job, body))
}

fn reference(tenant: &str, task_id: i64, job_id: &str, attempt: u32) -> JobRef {
    JobRef { tenant: tenant.into(), task_id, job_id: job_id.into(), attempt }
}

async fn suite(url: &str) -> TestResult {
    let (store, queue) = open(url).await?;
    let (a, b, other_tenant) = (owner("qs", "a@x.cn"), owner("qs", "b@x.cn"), owner("cc", "a@x.cn"));

    // Save a valid rule; an invalid one names its fields and writes nothing.
    let id = store.save(&a, draft(&a, -1, "", valid(), 3, "")?).await?;
    let task = store.get(&a, id).await?;
    assert_eq!((task.name.as_str(), task.status, task.task_info.as_str()), ("未命名", TaskStatus::New, valid()));
    let invalid = draft(&a, id, "x", INVALID, 3, "");
    assert!(matches!(&invalid, Err(TaskError::Invalid(m)) if m.contains("scenes[0].timeLength: below minimum 2 s") && m.contains("; ")));
    assert_eq!(store.get(&a, id).await?.task_info, valid(), "nothing written");

    // Overwrite as the owner; others get NotFound for every call.
    assert_eq!(store.save(&a, draft(&a, id, "促销", valid(), 4, "IVVR")?).await?, id);
    assert_eq!(store.get(&a, id).await?.name, "促销");
    for intruder in [&b, &other_tenant] {
        assert!(matches!(store.get(intruder, id).await, Err(TaskError::NotFound(_))));
        assert!(matches!(store.state(intruder, id).await, Err(TaskError::NotFound(_))));
        assert!(matches!(store.run(intruder, id).await, Err(TaskError::NotFound(_))));
        assert!(matches!(store.cancel(intruder, &[id]).await, Err(TaskError::NotFound(_))));
        let over = store.save(intruder, draft(&a, id, "偷改", valid(), 1, "")?).await;
        assert!(matches!(over, Err(TaskError::NotFound(_))));
    }
    assert_eq!(store.get(&a, id).await?.name, "促销");

    // Run commits the job to the outbox: nothing is published until the relay runs, and the task
    // already waits; a second run answers the same job.
    let run = store.run(&a, id).await?;
    assert_eq!(run.status, TaskStatus::Wait);
    assert_eq!(store.state(&a, id).await?.status, TaskStatus::Wait);
    assert_eq!(store.run(&a, id).await?, run, "a run of a waiting task answers its job");
    assert!(queue.receive(RENDER_QUEUE, Duration::from_millis(300)).await?.is_none(), "published only by the relay");
    assert_eq!(store.outbox_due(10).await?.len(), 1);
    let stop = farm(&store, &queue, Duration::from_secs(60));
    let (job, body) = next_job(&queue).await?;
    assert_eq!(
        (body.job_id.as_str(), body.task_id, body.tenant.as_str(), body.user_id.as_str(), body.attempt),
        (run.job_id.as_str(), id, "qs", "a@x.cn", 1)
    );
    assert_eq!(body.task_info, valid(), "the job carries the rule as saved");
    let deadline = Instant::now() + Duration::from_secs(10);
    while !store.outbox_due(10).await?.is_empty() {
        assert!(Instant::now() < deadline, "the confirmed outbox row is deleted");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    // Start once: a duplicate delivery or an old attempt is dropped, another tenant refused.
    let r = reference("qs", id, &run.job_id, 1);
    assert!(matches!(store.start(&reference("cc", id, &run.job_id, 1), 60_000).await, Err(TaskError::JobMismatch(_))));
    assert!(!store.start(&reference("qs", id, &run.job_id, 2), 60_000).await?);
    assert!(store.start(&r, 60_000).await?);
    assert!(!store.start(&r, 60_000).await?, "a duplicate delivery of a running job is dropped");
    assert_eq!(store.state(&a, id).await?.status, TaskStatus::Executing);
    assert_eq!(store.run(&a, id).await?.status, TaskStatus::Executing, "a run of an executing task answers its job");
    assert!(store.heartbeat(&r).await?);

    // Finish once: a second report or another attempt changes nothing, another tenant is refused.
    let (video, cover) = render_keys("qs", id, &run.job_id);
    let done = FinishOutcome::Done { video_key: video.clone(), cover_key: cover, loudness: Some(-16.0) };
    assert!(matches!(store.finish(&reference("cc", id, &run.job_id, 1), false, done.clone()).await, Err(TaskError::JobMismatch(_))));
    assert!(!store.finish(&reference("qs", id, &run.job_id, 2), false, done.clone()).await?);
    assert!(store.finish(&r, false, done.clone()).await?);
    assert!(!store.finish(&r, false, FinishOutcome::Failed { reason: "late".into() }).await?, "second finish is ignored");
    assert!(!store.finish(&r, true, FinishOutcome::Failed { reason: "dead".into() }).await?, "a dead letter of an ended job changes nothing");
    assert!(!store.heartbeat(&r).await?, "no heartbeat after the end");
    let state = store.state(&a, id).await?;
    assert_eq!((state.status, state.video_key.as_str(), state.reason.as_str(), state.percent), (TaskStatus::Success, video.as_str(), "", 100));
    assert_eq!(store.get(&a, id).await?.loudness, Some(-16.0), "the render's loudness is kept with the task");
    queue.ack(job).await?;

    // A failing run keeps its reason.
    let run2 = store.run(&a, id).await?;
    assert_ne!(run2.job_id, run.job_id);
    let (job, _) = next_job(&queue).await?;
    let r2 = reference("qs", id, &run2.job_id, 1);
    assert!(store.start(&r2, 60_000).await?);
    assert!(store.finish(&r2, false, FinishOutcome::Failed { reason: "decode error".into() }).await?);
    let state = store.state(&a, id).await?;
    assert_eq!((state.status, state.reason.as_str()), (TaskStatus::Error, "decode error"));
    queue.ack(job).await?;

    // Cancel a published run: its delivery is then dropped at start and the task is cancelled (11).
    // (An unpublished one is never published: tests/fairness.rs.)
    let run3 = store.run(&a, id).await?;
    let (job, body) = next_job(&queue).await?;
    let cancelled = store.cancel(&a, &[id]).await?;
    assert_eq!(cancelled.iter().map(|j| j.job_id.as_str()).collect::<Vec<_>>(), vec![run3.job_id.as_str()]);
    assert_eq!(store.state(&a, id).await?.status, TaskStatus::Cancelled);
    assert!(!store.start(&reference("qs", id, &body.job_id, body.attempt), 60_000).await?, "a cancelled job is not rendered");
    queue.ack(job).await?;
    assert!(store.cancel(&a, &[id]).await?.is_empty(), "nothing left to cancel");

    // The caller's tasks, newest first, paged.
    let second = store.save(&a, draft(&a, -1, "第二", valid(), 3, "")?).await?;
    store.save(&b, draft(&b, -1, "别人的", valid(), 3, "")?).await?;
    let (page, total) = store.mine(&a, &TaskFilter::default(), 1, 1).await?;
    assert_eq!((total, page.iter().map(|t| t.id).collect::<Vec<_>>()), (2, vec![second]));
    let (page, _) = store.mine(&a, &TaskFilter::default(), 2, 1).await?;
    assert_eq!(page.iter().map(|t| t.id).collect::<Vec<_>>(), vec![id]);
    drop(stop);
    Ok(())
}

/// A worker's calls are bound to the task and tenant its job was published with (issue 24): a call
/// naming the job with another task of the tenant, or another tenant, is refused and changes
/// nothing, neither the job nor the task it names; a finish must report the job's own keys.
async fn calls_bound_to_the_job(url: &str) -> TestResult {
    let (store, _queue) = open(url).await?;
    let a = owner("qs", "a@x.cn");
    let mine = store.save(&a, draft(&a, -1, "mine", valid(), 3, "")?).await?;
    let other = store.save(&a, draft(&a, -1, "other", valid(), 3, "")?).await?;
    let run = store.run(&a, mine).await?;
    let r = reference("qs", mine, &run.job_id, 1);
    let wrong_task = reference("qs", other, &run.job_id, 1);
    let wrong_tenant = reference("cc", mine, &run.job_id, 1);
    for bad in [&wrong_task, &wrong_tenant] {
        assert!(matches!(store.start(bad, 60_000).await, Err(TaskError::JobMismatch(_))), "{bad:?}");
    }
    assert!(store.start(&r, 60_000).await?);
    store.run(&a, other).await?;
    assert_eq!(store.state(&a, other).await?.status, TaskStatus::Wait);
    for bad in [&wrong_task, &wrong_tenant] {
        assert!(matches!(store.heartbeat(bad).await, Err(TaskError::JobMismatch(_))), "{bad:?}");
        assert!(matches!(store.release(bad).await, Err(TaskError::JobMismatch(_))), "{bad:?}");
        let (video, cover) = render_keys(&bad.tenant, bad.task_id, &bad.job_id);
        let done = FinishOutcome::Done { video_key: video, cover_key: cover, loudness: None };
        assert!(matches!(store.finish(bad, false, done).await, Err(TaskError::JobMismatch(_))), "{bad:?}");
        let failed = FinishOutcome::Failed { reason: "x".into() };
        assert!(matches!(store.finish(bad, true, failed).await, Err(TaskError::JobMismatch(_))), "{bad:?}");
    }
    assert_eq!(store.state(&a, mine).await?.status, TaskStatus::Executing, "the job still runs");
    assert_eq!(store.state(&a, other).await?.status, TaskStatus::Wait, "the named task is untouched");
    // Keys of another task, or of another job of this one, are not this job's output.
    let (other_video, other_cover) = render_keys("qs", other, &run.job_id);
    let elsewhere = FinishOutcome::Done { video_key: other_video, cover_key: other_cover, loudness: None };
    assert!(matches!(store.finish(&r, false, elsewhere).await, Err(TaskError::JobMismatch(_))));
    let (video, _) = render_keys("qs", mine, &run.job_id);
    let foreign_cover = FinishOutcome::Done { video_key: video.clone(), cover_key: "t/qs/u/b@x.cn/materials/x/original.png".into(), loudness: None };
    assert!(matches!(store.finish(&r, false, foreign_cover).await, Err(TaskError::JobMismatch(_))));
    assert!(store.release(&r).await?, "the job's own worker hands it back");
    assert!(store.start(&r, 60_000).await?);
    assert!(store.finish(&r, false, FinishOutcome::Done { video_key: video.clone(), cover_key: String::new(), loudness: None }).await?);
    assert_eq!(store.state(&a, mine).await?.video_key, video);
    Ok(())
}

#[tokio::test]
async fn worker_calls_are_bound_to_the_job_on_sqlite() -> TestResult {
    calls_bound_to_the_job(&fresh_sqlite()).await
}

#[tokio::test]
async fn worker_calls_are_bound_to_the_job_on_postgres() -> TestResult {
    calls_bound_to_the_job(&fresh_postgres().await?).await
}

/// A run checks the stored document again: a row naming another user's material (saved before the
/// check, or written by hand) is refused naming the source, and no job is queued.
#[tokio::test]
async fn a_run_refuses_another_users_material() -> TestResult {
    let (store, _queue) = open(&fresh_sqlite()).await?;
    let a = owner("qs", "a@x.cn");
    let theirs = "t/qs/u/b@x.cn/materials/x/original.png";
    let info = valid().replacen("t/qs/sys/materials/a/original.png", theirs, 1);
    // Straight into the table, past the save's check.
    let row = TaskDraft { task_id: None, name: "旧".into(), task_info: info, size_category_id: 3, used_for: String::new(), version: None, duration_ms: 1000, warnings: Vec::new(), template_id: 0 };
    let id = store.save(&a, row).await?;
    let refused = store.run(&a, id).await;
    assert!(matches!(&refused, Err(TaskError::Invalid(m)) if m.contains(theirs) && m.contains("another user's")), "{refused:?}");
    assert_eq!(store.state(&a, id).await?.status, TaskStatus::New, "not queued");
    assert!(store.outbox_due(10).await?.is_empty(), "no job");
    // A material by address is confirmed in the library: none here, so it is refused by name.
    let by_address = valid().replacen("t/qs/sys/materials/a/original.png", "/diyvrbt/material/file/m-theirs/original", 1);
    let refused = domain::parse_draft(&a, SaveInput { task_id: -1, name: "x", task_info: &by_address, size_category_id: 3, used_for: "", version: 0 })
        .map(|_| ());
    assert!(refused.is_ok(), "the document check leaves ids to the library: {refused:?}");
    let row = TaskDraft { task_id: None, name: "旧".into(), task_info: by_address, size_category_id: 3, used_for: String::new(), version: None, duration_ms: 1000, warnings: Vec::new(), template_id: 0 };
    let id = store.save(&a, row).await?;
    let refused = store.run(&a, id).await;
    assert!(matches!(&refused, Err(TaskError::Invalid(m)) if m.contains("material m-theirs is not one of your materials")), "{refused:?}");
    Ok(())
}

#[tokio::test]
async fn on_sqlite() -> TestResult {
    suite(&fresh_sqlite()).await
}

#[tokio::test]
async fn on_postgres() -> TestResult {
    suite(&fresh_postgres().await?).await
}

/// Ten runs of one task at once queue exactly one job; all ten answer it.
async fn concurrent_runs(url: &str) -> TestResult {
    let (store, queue) = open(url).await?;
    let a = owner("qs", "a@x.cn");
    let id = store.save(&a, draft(&a, -1, "并发", valid(), 3, "")?).await?;
    let mut runs = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let (store, a) = (store.clone(), a.clone());
        runs.spawn(async move { store.run(&a, id).await });
    }
    let mut jobs = Vec::new();
    while let Some(r) = runs.join_next().await {
        jobs.push(r??.job_id);
    }
    jobs.dedup();
    assert_eq!(jobs.len(), 1, "every run answers the one job: {jobs:?}");
    assert_eq!(store.outbox_due(100).await?.len(), 1, "one job in the outbox");
    let _stop = farm(&store, &queue, Duration::from_secs(60));
    let (job, body) = next_job(&queue).await?;
    assert_eq!(body.job_id, jobs[0]);
    queue.ack(job).await?;
    assert!(queue.receive(RENDER_QUEUE, Duration::from_millis(500)).await?.is_none(), "exactly one job published");
    Ok(())
}

#[tokio::test]
async fn concurrent_runs_on_sqlite() -> TestResult {
    concurrent_runs(&fresh_sqlite()).await
}

#[tokio::test]
async fn concurrent_runs_on_postgres() -> TestResult {
    concurrent_runs(&fresh_postgres().await?).await
}

/// Reaps with a 1 ms limit until the heartbeat just written has aged past it.
async fn reap_until_found(store: &TaskStore) -> Result<Vec<Reaped>, Box<dyn std::error::Error>> {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let reaped = store.reap(1, 2).await?;
        if !reaped.is_empty() || Instant::now() > deadline {
            return Ok(reaped);
        }
        tokio::task::yield_now().await;
    }
}

/// A job whose worker stops beating is queued again with the next attempt (the old attempt's
/// reports are ignored); one whose worker beats is left alone; out of attempts the task fails.
async fn reaper(url: &str) -> TestResult {
    let (store, queue) = open(url).await?;
    let a = owner("qs", "a@x.cn");
    let id = store.save(&a, draft(&a, -1, "", valid(), 3, "")?).await?;
    let run = store.run(&a, id).await?;
    let r1 = reference("qs", id, &run.job_id, 1);
    assert!(store.start(&r1, 60_000).await?);
    assert!(store.reap(60_000, 2).await?.is_empty(), "a beating worker keeps its job");
    let reaped = reap_until_found(&store).await?;
    assert_eq!(reaped, vec![Reaped::Requeued(reference("qs", id, &run.job_id, 2))]);
    assert_eq!(store.state(&a, id).await?.status, TaskStatus::Wait);
    assert!(!store.heartbeat(&r1).await?, "the silent worker lost the job");
    let done = FinishOutcome::Done { video_key: render_keys("qs", id, &run.job_id).0, cover_key: String::new(), loudness: None };
    assert!(!store.finish(&r1, false, done.clone()).await?, "the old attempt cannot finish it");
    let ids: Vec<String> = store.outbox_due(10).await?.into_iter().map(|e| e.id).collect();
    assert_eq!(ids, vec![format!("{}:1", run.job_id), format!("{}:2", run.job_id)]);

    let r2 = reference("qs", id, &run.job_id, 2);
    assert!(store.start(&r2, 60_000).await?);
    assert_eq!(reap_until_found(&store).await?, vec![Reaped::Failed(r2.clone())]);
    let state = store.state(&a, id).await?;
    assert_eq!(state.status, TaskStatus::Error);
    assert!(state.reason.contains("stopped responding"), "{}", state.reason);
    drop(queue);
    Ok(())
}

#[tokio::test]
async fn reaper_on_sqlite() -> TestResult {
    reaper(&fresh_sqlite()).await
}

#[tokio::test]
async fn reaper_on_postgres() -> TestResult {
    reaper(&fresh_postgres().await?).await
}

/// A job given back past the delivery limit is dead-lettered and the farm fails its task before
/// it acks the letter.
#[tokio::test]
async fn a_dead_letter_fails_its_task() -> TestResult {
    let (store, queue) = open(&fresh_sqlite()).await?;
    let a = owner("qs", "a@x.cn");
    let id = store.save(&a, draft(&a, -1, "", valid(), 3, "")?).await?;
    store.run(&a, id).await?;
    let _stop = farm(&store, &queue, Duration::from_secs(60));
    for _ in 0..3 {
        let (job, _) = next_job(&queue).await?;
        queue.retry(job).await?;
    }
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let state = store.state(&a, id).await?;
        if state.status == TaskStatus::Error {
            assert!(state.reason.contains("given back too many times"), "{}", state.reason);
            break;
        }
        assert!(Instant::now() < deadline, "the dead letter did not fail the task: {state:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(queue.receive_dead(RENDER_QUEUE).await?.is_none(), "the letter is acked once recorded");
    Ok(())
}
