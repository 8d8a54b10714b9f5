//! The task store on real SQLite and PostgreSQL with the database queue: saving, ownership, runs and finishes.

use std::sync::Arc;
use std::time::Duration;

use prost::Message;
use reelforge_kit::JobQueue;
use reelforge_kit::config::QueueConfig;
use reelforge_kit::queue::{DeadLetter, Job, QueueError};
use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};
use reelforge_task::{FinishOutcome, Owner, RENDER_QUEUE, TaskError, TaskStatus, TaskStore, domain, migrate};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const VALID: &str = include_str!("../../timeline/tests/fixtures/video_edit_every_layer.json");
const INVALID: &str = include_str!("../../timeline/tests/fixtures/malformed_many_problems.json");

fn owner(tenant: &str, user: &str) -> Owner {
    Owner { tenant: tenant.into(), user_id: user.into() }
}

async fn suite(url: &str) -> TestResult {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    migrate(&db).await?;
    let queue = reelforge_kit::queue::open(&QueueConfig { url: "db://".into(), ..Default::default() }, &db).await?;
    let store = TaskStore::new(db.clone(), queue.clone());
    let (a, b, other_tenant) = (owner("qs", "a@x.cn"), owner("qs", "b@x.cn"), owner("cc", "a@x.cn"));

    // Save a valid rule; an invalid one names its fields and writes nothing.
    let id = store.save(&a, domain::parse_draft(-1, "", VALID, 3, "")?).await?;
    let task = store.get(&a, id).await?;
    assert_eq!((task.name.as_str(), task.status, task.task_info.as_str()), ("未命名", TaskStatus::New, VALID));
    let invalid = domain::parse_draft(id, "x", INVALID, 3, "");
    assert!(matches!(&invalid, Err(TaskError::Invalid(m)) if m.contains("scenes[0].timeLength: below minimum 2 s") && m.contains("; ")));
    assert_eq!(store.get(&a, id).await?.task_info, VALID, "nothing written");

    // Overwrite as the owner; others get NotFound for every call.
    assert_eq!(store.save(&a, domain::parse_draft(id, "促销", VALID, 4, "IVVR")?).await?, id);
    assert_eq!(store.get(&a, id).await?.name, "促销");
    for intruder in [&b, &other_tenant] {
        assert!(matches!(store.get(intruder, id).await, Err(TaskError::NotFound(_))));
        assert!(matches!(store.state(intruder, id).await, Err(TaskError::NotFound(_))));
        assert!(matches!(store.run(intruder, id).await, Err(TaskError::NotFound(_))));
        let over = store.save(intruder, domain::parse_draft(id, "偷改", VALID, 1, "")?).await;
        assert!(matches!(over, Err(TaskError::NotFound(_))));
    }
    assert_eq!(store.get(&a, id).await?.name, "促销");

    // Run publishes exactly one job with the task id, then the task waits.
    let job_id = store.run(&a, id).await?;
    assert_eq!(store.state(&a, id).await?.status, TaskStatus::Wait);
    assert!(matches!(store.run(&a, id).await, Err(TaskError::Conflict(_))), "no second run while rendering");
    let job = queue.receive(RENDER_QUEUE, Duration::from_millis(500)).await?.ok_or("no job published")?;
    let body = reelforge_proto::render::RenderJob::decode(job.body.as_slice())?;
    assert_eq!((body.job_id.as_str(), body.task_id, body.tenant.as_str(), body.attempt), (job_id.as_str(), id, "qs", 1));
    queue.ack(job).await?;
    assert!(queue.receive(RENDER_QUEUE, Duration::from_millis(200)).await?.is_none(), "exactly one job");

    // The worker side: executing, progress, finish once.
    assert!(store.mark_executing("qs", id).await?);
    assert!(!store.mark_executing("cc", id).await?, "scoped by tenant");
    assert!(store.set_progress("qs", id, 150).await?);
    assert_eq!(store.state(&a, id).await?.percent, 100);
    let done = FinishOutcome::Done { video_key: "videos/qs/1.mp4".into(), cover_key: "covers/qs/1.jpg".into() };
    assert!(matches!(store.finish("cc", id, &job_id, done.clone()).await, Err(TaskError::NotFound(_))));
    assert!(store.finish("qs", id, &job_id, done.clone()).await?);
    let failed = FinishOutcome::Failed { reason: "late".into() };
    assert!(!store.finish("qs", id, &job_id, failed).await?, "second finish is ignored");
    let state = store.state(&a, id).await?;
    assert_eq!((state.status, state.video_key.as_str(), state.reason.as_str()), (TaskStatus::Success, "videos/qs/1.mp4", ""));
    assert!(!store.set_progress("qs", id, 10).await?, "no progress after the end");

    // A failing run: re-run, fail, the reason is kept.
    let job2 = store.run(&a, id).await?;
    assert!(store.finish("qs", id, &job2, FinishOutcome::Failed { reason: "decode error".into() }).await?);
    let state = store.state(&a, id).await?;
    assert_eq!((state.status, state.reason.as_str()), (TaskStatus::Error, "decode error"));
    if let Some(job) = queue.receive(RENDER_QUEUE, Duration::from_millis(200)).await? {
        queue.ack(job).await?;
    }

    // When publishing fails the job row is removed and the task keeps its status.
    let broken = TaskStore::new(db, Arc::new(BrokenQueue));
    assert!(matches!(broken.run(&a, id).await, Err(TaskError::Queue(_))));
    assert_eq!(store.state(&a, id).await?.status, TaskStatus::Error);
    assert!(matches!(store.finish("qs", id, "no-such-job", FinishOutcome::Failed { reason: String::new() }).await, Err(TaskError::NotFound(_))));
    Ok(())
}

/// A broker that refuses every message.
struct BrokenQueue;

#[async_trait::async_trait]
impl JobQueue for BrokenQueue {
    async fn publish(&self, _: &str, _: &str, _: &[u8]) -> Result<(), QueueError> {
        Err(QueueError::Broker("refused".into()))
    }
    async fn receive(&self, _: &str, _: Duration) -> Result<Option<Job>, QueueError> {
        Ok(None)
    }
    async fn ack(&self, _: Job) -> Result<(), QueueError> {
        Ok(())
    }
    async fn retry(&self, _: Job) -> Result<(), QueueError> {
        Ok(())
    }
    async fn drain_dead_letters(&self, _: &str, _: usize) -> Result<Vec<DeadLetter>, QueueError> {
        Ok(Vec::new())
    }
    async fn ping(&self) -> Result<(), QueueError> {
        Ok(())
    }
}

#[tokio::test]
async fn on_sqlite() -> TestResult {
    suite(&fresh_sqlite()).await
}

#[tokio::test]
async fn on_postgres() -> TestResult {
    suite(&fresh_postgres().await?).await
}
