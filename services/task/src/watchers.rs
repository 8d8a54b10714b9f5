//! The `Watch` streams of a task share one reading of its state per render event. A feed per watched
//! task reads the row and the latest event when the bus says the task moved (and every few seconds,
//! for ends the bus did not carry) and hands the reading to every watcher of the task: 500 browsers
//! watching one render cost one read per event, not 500. A feed is keyed by the owner as well as the
//! task, so a stranger's watch reads nothing of the owner's and gets its own not-found.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use reelforge_kit::status::to_status;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;
use tonic::Status;

use crate::domain::{Owner, Stage, TaskError, TaskState};
use crate::events::Events;
use crate::store::TaskStore;

/// How often a feed looks at the database besides the events (ends the bus did not carry).
const RECHECK: Duration = Duration::from_secs(5);

/// A reading of a task: its state with its latest render event and the sequence number of that
/// state, or why it cannot be watched.
pub type Reading = Result<(i64, TaskState), Status>;

/// The readings of one watched task, `None` until the first is made; the channel closes when the
/// task comes to rest.
pub type Feed = watch::Receiver<Option<Reading>>;

type Key = (String, String, i64);
type Sender = Arc<watch::Sender<Option<Reading>>>;

/// A task's state with its latest render event, and the sequence number of that state.
pub async fn current(store: &TaskStore, events: &Events, owner: &Owner, id: i64) -> Result<(i64, TaskState), TaskError> {
    // The event first, then the row: an end is announced only after its row is stored, so a row
    // read second is never older than the event. Read the other way round, a row read just before
    // the end's commit met the end's event read just after it: a state still executing yet "done",
    // whose sequence number the real end then did not exceed, so the watcher never saw the end.
    let latest = events.latest(id).await;
    let mut s = store.state(owner, id).await?;
    let mut seq = s.updated_ms;
    if let Some(p) = latest {
        let same_job = s.job_id.as_deref() == Some(p.job_id.as_str());
        if s.status.is_rendering() && same_job {
            s.stage = Stage::parse(&p.stage);
            s.percent = p.percent.min(100);
            s.frames = (p.frames_done, p.frames_total);
            s.eta_seconds = (p.eta_seconds >= 0).then_some(p.eta_seconds);
        }
        if same_job || !s.status.is_rendering() {
            seq = seq.max(p.seq);
        }
    }
    Ok((seq, s))
}

/// The feeds of the tasks being watched on this replica.
pub struct Watchers {
    store: TaskStore,
    events: Arc<Events>,
    feeds: Mutex<HashMap<Key, Sender>>,
    reads: AtomicU64,
}

impl Watchers {
    /// Feeds reading `store` and the latest events, woken by `events`.
    pub fn new(store: TaskStore, events: Arc<Events>) -> Arc<Self> {
        Arc::new(Self { store, events, feeds: Mutex::new(HashMap::new()), reads: AtomicU64::new(0) })
    }

    /// Readings made so far by every feed: one per render event of a watched task, whatever the
    /// number of its watchers.
    pub fn reads(&self) -> u64 {
        self.reads.load(Ordering::Relaxed)
    }

    fn feeds(&self) -> MutexGuard<'_, HashMap<Key, Sender>> {
        self.feeds.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The readings of `owner`'s task `task_id`, joining its feed or starting one.
    pub fn watch(self: &Arc<Self>, owner: &Owner, task_id: i64) -> Feed {
        let key = (owner.tenant.clone(), owner.user_id.clone(), task_id);
        let mut feeds = self.feeds();
        if let Some(feed) = feeds.get(&key) {
            return feed.subscribe();
        }
        let (tx, rx) = watch::channel(None);
        let tx = Arc::new(tx);
        feeds.insert(key.clone(), tx.clone());
        drop(feeds);
        tokio::spawn(self.clone().feed(key, owner.clone(), tx));
        rx
    }

    /// Reads the task at every event of it until it comes to rest, it cannot be read, or nobody
    /// watches it any more.
    async fn feed(self: Arc<Self>, key: Key, owner: Owner, tx: Sender) {
        let mut live = self.events.subscribe();
        let mut recheck = tokio::time::interval_at(tokio::time::Instant::now() + RECHECK, RECHECK);
        loop {
            self.reads.fetch_add(1, Ordering::Relaxed);
            let reading = current(&self.store, &self.events, &owner, key.2).await.map_err(to_status);
            let over = reading.as_ref().map_or(true, |(_, s)| !s.status.is_rendering());
            tx.send_replace(Some(reading));
            if over {
                self.retire(&key, &tx, false);
                return;
            }
            loop {
                tokio::select! {
                    _ = tx.closed() => if self.retire(&key, &tx, true) {
                        return;
                    },
                    _ = recheck.tick() => break,
                    got = live.recv() => match got {
                        Ok(p) if p.task_id == key.2 => break,
                        Ok(_) => {}
                        Err(RecvError::Lagged(_)) => break,
                        Err(RecvError::Closed) => {
                            self.retire(&key, &tx, false);
                            return;
                        }
                    },
                }
            }
        }
    }

    /// Takes a feed out of the map, so that the next watcher starts a fresh one; when `if_unwatched`,
    /// only while nobody watches it (a watcher may have joined since it saw none). Answers whether
    /// it was taken out.
    fn retire(&self, key: &Key, tx: &Sender, if_unwatched: bool) -> bool {
        let mut feeds = self.feeds();
        if if_unwatched && tx.receiver_count() > 0 {
            return false;
        }
        if feeds.get(key).is_some_and(|f| Arc::ptr_eq(f, tx)) {
            feeds.remove(key);
        }
        true
    }
}
