//! Many watchers of one render on real SQLite and PostgreSQL: each sees every stage and the end,
//! and the task is read once per event for all of them, not once per watcher.

use reelforge_kit::testing::{fresh_postgres, fresh_sqlite};
use reelforge_proto::render::RenderProgress;
use reelforge_task::events::Events;
use reelforge_task::watchers::Watchers;
use reelforge_task::{FinishOutcome, JobRef, Owner, SaveInput, TaskStatus, TaskStore, domain, migrate, render_keys};
use tokio::sync::mpsc;

use crate::common::{TestResult, canvas_rule};

const WATCHERS: usize = 500;
const STAGES: [&str; 4] = ["fetching", "rendering", "encoding", "uploading"];

fn progress(job: &JobRef, stage: &str, seq: i64) -> RenderProgress {
    RenderProgress {
        job_id: job.job_id.clone(),
        task_id: job.task_id,
        stage: stage.to_owned(),
        tenant: job.tenant.clone(),
        percent: 50,
        eta_seconds: -1,
        seq,
        ..Default::default()
    }
}

/// Saves `owner`'s canvas work and runs it: the task to watch, and its run.
async fn watched(store: &TaskStore, owner: &Owner) -> Result<(i64, reelforge_task::Run), Box<dyn std::error::Error>> {
    let info = canvas_rule();
    let input = SaveInput { task_id: -1, name: "watched", task_info: &info, size_category_id: 41, used_for: "", version: 0 };
    let task_id = store.save(owner, domain::parse_draft(owner, input)?).await?;
    Ok((task_id, store.run(owner, task_id).await?))
}

async fn many_watchers(url: &str) -> TestResult {
    let db = reelforge_kit::db::connect(url).await?;
    migrate(&db).await?;
    let store = TaskStore::new(db);
    let owner = Owner { tenant: "qs".into(), user_id: "ann@example.com".into() };
    let (task_id, run) = watched(&store, &owner).await?;
    let job = JobRef { tenant: "qs".into(), task_id, job_id: run.job_id.clone(), attempt: 1 };

    let cache = reelforge_kit::cache::open("memory://").await?;
    let (_stop, shutdown) = tokio::sync::watch::channel(false);
    let events = Events::start(reelforge_kit::bus::open("db://").await?, cache, shutdown).await?;
    let watchers = Watchers::new(store.clone(), events.clone());

    // Each watcher reports the stages it sees as the gRPC `Watch` turns them into events.
    let (seen_tx, mut seen) = mpsc::unbounded_channel::<(usize, String)>();
    let mut ends = Vec::new();
    for n in 0..WATCHERS {
        let mut feed = watchers.watch(&owner, task_id);
        let seen_tx = seen_tx.clone();
        ends.push(tokio::spawn(async move {
            let mut last = 0;
            let mut stages = Vec::new();
            loop {
                let reading = feed.borrow_and_update().clone();
                if let Some(reading) = reading {
                    let (seq, state) = reading.map_err(|e| e.to_string())?;
                    if seq > last {
                        last = seq;
                        // The row's own stage (fetching, once started) may come before the event's.
                        let stage = state.stage.name().to_owned();
                        if stages.last() != Some(&stage) {
                            stages.push(stage.clone());
                        }
                        let _ = seen_tx.send((n, stage));
                    }
                    if !state.status.is_rendering() {
                        return Ok::<_, String>((stages, state.status));
                    }
                }
                if feed.changed().await.is_err() {
                    return Err("the feed ended before the task did".to_owned());
                }
            }
        }));
    }
    drop(seen_tx);

    /// Waits until every watcher has seen `stage`.
    async fn all_saw(seen: &mut mpsc::UnboundedReceiver<(usize, String)>, stage: &str) -> Result<(), String> {
        let mut who = vec![false; WATCHERS];
        while who.contains(&false) {
            let (n, s) = seen.recv().await.ok_or_else(|| format!("watchers stopped before all saw {stage}"))?;
            if s == stage {
                who[n] = true;
            }
        }
        Ok(())
    }
    all_saw(&mut seen, "queued").await?;
    assert!(store.start(&job, 60_000).await?);
    let before = watchers.reads();
    let base = reelforge_kit::db::now_millis() + 1000;
    for (i, stage) in STAGES.iter().enumerate() {
        events.announce(progress(&job, stage, base + 1000 * i64::try_from(i)?)).await;
        all_saw(&mut seen, stage).await?;
    }
    let (video_key, cover_key) = render_keys("qs", task_id, &job.job_id);
    let done = FinishOutcome::Done { video_key, cover_key, loudness: None };
    assert!(store.finish(&job, false, done).await?);
    events.announce(progress(&job, "done", base + 10_000)).await;
    for end in ends {
        let (stages, status) = end.await??;
        assert_eq!(status, TaskStatus::Success);
        let expected: Vec<&str> = ["queued"].iter().chain(STAGES.iter()).chain(["done"].iter()).copied().collect();
        assert_eq!(stages, expected, "every stage and the end, in order");
    }
    let reads = watchers.reads() - before;
    // One read per event (four stages and the end); a recheck may add one during a slow run.
    assert!(reads <= 2 * (STAGES.len() as u64 + 1), "{reads} reads for {WATCHERS} watchers of 5 events");
    Ok(())
}

#[tokio::test]
async fn many_watchers_share_one_read_per_event_on_sqlite() -> TestResult {
    many_watchers(&fresh_sqlite()).await
}

#[tokio::test]
async fn many_watchers_share_one_read_per_event_on_postgres() -> TestResult {
    many_watchers(&fresh_postgres().await?).await
}

#[tokio::test]
async fn a_strangers_watch_is_refused_and_reads_nothing_of_the_owners() -> TestResult {
    let db = reelforge_kit::db::connect(&fresh_sqlite()).await?;
    migrate(&db).await?;
    let store = TaskStore::new(db);
    let owner = Owner { tenant: "qs".into(), user_id: "ann@example.com".into() };
    let (task_id, _) = watched(&store, &owner).await?;
    let (_stop, shutdown) = tokio::sync::watch::channel(false);
    let events = Events::start(reelforge_kit::bus::open("db://").await?, reelforge_kit::cache::open("memory://").await?, shutdown).await?;
    let watchers = Watchers::new(store, events);
    let mut owners = watchers.watch(&owner, task_id);
    let mut strangers = watchers.watch(&Owner { tenant: "qs".into(), user_id: "bob@example.com".into() }, task_id);
    let refused = strangers.wait_for(Option::is_some).await?.clone();
    assert!(matches!(&refused, Some(Err(s)) if s.code() == tonic::Code::NotFound), "{refused:?}");
    let shown = owners.wait_for(Option::is_some).await?.clone();
    assert!(matches!(&shown, Some(Ok((_, s))) if s.status == TaskStatus::Wait), "{shown:?}");
    Ok(())
}
