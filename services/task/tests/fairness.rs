//! Per-tenant fairness of the outbox relay (issue 24, catalogue T3) on real SQLite and PostgreSQL
//! with the database queue: a tenant's batch does not starve another tenant's render, a tenant has
//! at most `tenant_in_queue` jobs published and not started, a start lets the next one out, a
//! cancelled unpublished job is never published; and the oldest queued job's age gauge (issue 25).
//! One test runs every case in turn, since the gauge is process-wide.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;

use prost::Message;
use reelforge_kit::JobQueue;
use reelforge_kit::config::QueueConfig;
use reelforge_kit::metrics::RENDER_OLDEST_JOB_AGE;
use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};
use reelforge_proto::render::RenderJob;
use reelforge_task::{
    FarmSettings, JobRef, Owner, RENDER_QUEUE, SaveInput, TaskStore, domain, migrate,
};
use tokio::sync::watch;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const CAP: usize = 4;
/// Longer than the relay's idle poll: no publish is still on its way after this much quiet.
const QUIET: Duration = Duration::from_millis(1500);

/// The shared fixture with every material a system one of `tenant`.
fn rule_for(tenant: &str) -> String {
    include_str!("../../timeline/tests/fixtures/video_edit_every_layer.json")
        .replace("t/qs/u/2/materials/", &format!("t/{tenant}/sys/materials/"))
        .replace("t/qs/fx/", &format!("t/{tenant}/sys/materials/fx/"))
}

fn owner(tenant: &str) -> Owner {
    Owner {
        tenant: tenant.into(),
        user_id: "a@x.cn".into(),
    }
}

async fn open(url: &str) -> Result<(TaskStore, Arc<dyn JobQueue>), Box<dyn std::error::Error>> {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    let config = QueueConfig {
        url: "db://".into(),
        delivery_limit: 2,
        lease_seconds: 60,
        prefetch: 1,
    };
    let queue = reelforge_kit::queue::open(&config, &db).await?;
    Ok((TaskStore::new(db), queue))
}

/// Starts one farm loop (a task-service replica's relay); it stops when `true` is sent.
fn farm(store: &TaskStore, queue: &Arc<dyn JobQueue>) -> watch::Sender<bool> {
    let (tx, rx) = watch::channel(false);
    let settings = FarmSettings {
        queue: RENDER_QUEUE.into(),
        stale: Duration::from_secs(60),
        max_attempts: 2,
        tenant_in_queue: u32::try_from(CAP).unwrap_or(1),
    };
    tokio::spawn(reelforge_task::farm::run(
        store.clone(),
        queue.clone(),
        settings,
        rx,
    ));
    tx
}

/// Saves and runs one task of `tenant`; returns its task id and job id.
async fn run_one(
    store: &TaskStore,
    tenant: &str,
) -> Result<(i64, String), Box<dyn std::error::Error>> {
    let who = owner(tenant);
    let rule = rule_for(tenant);
    let input = SaveInput {
        task_id: -1,
        name: "",
        task_info: &rule,
        size_category_id: 3,
        used_for: "",
        version: 0,
    };
    let id = store.save(&who, domain::parse_draft(&who, input)?).await?;
    Ok((id, store.run(&who, id).await?.job_id))
}

/// Receives every job published until the queue stays quiet (each is acked: the test starts them).
async fn drain(queue: &Arc<dyn JobQueue>) -> Result<Vec<RenderJob>, Box<dyn std::error::Error>> {
    let mut out = Vec::new();
    while let Some(job) = queue.receive(RENDER_QUEUE, QUIET).await? {
        out.push(RenderJob::decode(job.body.as_slice())?);
        queue.ack(job).await?;
    }
    Ok(out)
}

fn reference(job: &RenderJob) -> JobRef {
    JobRef {
        tenant: job.tenant.clone(),
        task_id: job.task_id,
        job_id: job.job_id.clone(),
        attempt: job.attempt,
    }
}

/// Tenant qs runs 30 renders, then tenant cc runs 1, one relay publishing.
async fn one_relay(url: &str) -> TestResult {
    let (store, queue) = open(url).await?;
    let stop = farm(&store, &queue);
    let mut a_jobs = Vec::new();
    for _ in 0..30 {
        a_jobs.push(run_one(&store, "qs").await?);
    }
    let (b_task, b_job) = run_one(&store, "cc").await?;

    // The first wave: qs's oldest CAP jobs and cc's one, nothing more.
    let first = drain(&queue).await?;
    let ids: Vec<&str> = first.iter().map(|j| j.job_id.as_str()).collect();
    assert_eq!(first.len(), CAP + 1, "qs's cap and cc's job: {ids:?}");
    assert!(
        ids.contains(&b_job.as_str()),
        "cc's job goes out with qs's first: {ids:?}"
    );
    let oldest: Vec<&str> = a_jobs[..CAP].iter().map(|(_, j)| j.as_str()).collect();
    assert!(
        oldest.iter().all(|j| ids.contains(j)),
        "qs's oldest first: {ids:?}"
    );

    // The oldest queued job has waited at least the quiet period.
    reelforge_task::farm::gauges(&store).await?;
    assert!(
        RENDER_OLDEST_JOB_AGE.get() >= 1,
        "age {}",
        RENDER_OLDEST_JOB_AGE.get()
    );

    // A job still in the outbox, cancelled, is never published.
    let (cancelled_task, cancelled_job) = a_jobs[CAP + 2].clone();
    assert_eq!(
        store.cancel(&owner("qs"), &[cancelled_task]).await?.len(),
        1
    );

    // Starting qs's jobs lets the next ones out, never more than CAP waiting at once.
    let mut seen: HashSet<String> = ids.iter().map(|s| (*s).to_owned()).collect();
    let mut waiting: Vec<RenderJob> = first.into_iter().filter(|j| j.tenant == "qs").collect();
    let mut started = 0;
    while !waiting.is_empty() {
        assert!(
            waiting.len() <= CAP,
            "qs has {} published and not started",
            waiting.len()
        );
        for job in waiting.drain(..) {
            assert!(
                store.start(&reference(&job), 60_000).await?,
                "a published job starts once"
            );
            started += 1;
        }
        for job in drain(&queue).await? {
            assert!(
                seen.insert(job.job_id.clone()),
                "published twice: {}",
                job.job_id
            );
            assert_ne!(job.job_id, cancelled_job, "the cancelled job was published");
            assert_eq!(job.tenant, "qs");
            waiting.push(job);
        }
    }
    assert_eq!(
        started,
        a_jobs.len() - 1,
        "every qs job but the cancelled one went out"
    );

    // cc's job is the one left queued; once it starts, nothing waits.
    reelforge_task::farm::gauges(&store).await?;
    assert!(RENDER_OLDEST_JOB_AGE.get() >= 1, "cc's job still waits");
    let b = JobRef {
        tenant: "cc".into(),
        task_id: b_task,
        job_id: b_job,
        attempt: 1,
    };
    assert!(store.start(&b, 60_000).await?);
    reelforge_task::farm::gauges(&store).await?;
    assert_eq!(RENDER_OLDEST_JOB_AGE.get(), 0, "no job waits");
    stop.send(true)?;
    Ok(())
}

/// Two replicas' relays on one database: each row is published once (the claim), and a tenant's
/// batch still waits in the outbox.
async fn two_relays(url: &str) -> TestResult {
    let (store, queue) = open(url).await?;
    let replica = TaskStore::new(reelforge_kit::db::connect(url).await?);
    let stops = [farm(&store, &queue), farm(&replica, &queue)];
    let mut a_jobs = Vec::new();
    for _ in 0..12 {
        a_jobs.push(run_one(&store, "qs").await?.1);
    }
    let mut published: HashMap<String, u32> = HashMap::new();
    let mut waiting = drain(&queue).await?;
    while !waiting.is_empty() {
        // Each relay reads the counts before it claims, so together they may pass the cap a little.
        assert!(
            waiting.len() <= 2 * CAP,
            "{} published and not started",
            waiting.len()
        );
        for job in waiting.drain(..) {
            *published.entry(job.job_id.clone()).or_default() += 1;
            assert!(store.start(&reference(&job), 60_000).await?);
        }
        waiting = drain(&queue).await?;
    }
    assert_eq!(published.len(), a_jobs.len(), "every job published");
    assert!(
        published.values().all(|n| *n == 1),
        "a job published twice: {published:?}"
    );
    for stop in stops {
        stop.send(true)?;
    }
    Ok(())
}

#[tokio::test]
async fn a_tenants_batch_does_not_starve_another_tenant() -> TestResult {
    one_relay(&fresh_sqlite()).await?;
    let postgres = fresh_postgres().await?;
    one_relay(&postgres).await?;
    two_relays(&fresh_postgres().await?).await
}
