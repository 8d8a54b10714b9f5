//! The same behavioural suite runs against both implementations of each backend: SQLite and
//! PostgreSQL, in-process cache and Redis, database queue and RabbitMQ, local directory and S3.

use std::sync::Arc;
use std::time::Duration;

use reelforge_kit::config::QueueConfig;
use reelforge_kit::testing::{amqp_url, fresh_postgres, fresh_sqlite, redis_url, s3_url, unique};
use reelforge_kit::queue::Death;
use reelforge_kit::{BlobStore, Cache, JobQueue, cache, db, queue};
use sea_orm::ConnectionTrait;

type TestResult = Result<(), Box<dyn std::error::Error>>;

async fn database_suite(url: &str) -> TestResult {
    let conn = db::connect(url).await?;
    conn.execute_unprepared("CREATE TABLE probe (id BIGINT PRIMARY KEY, name TEXT NOT NULL)").await?;
    conn.execute_unprepared("INSERT INTO probe (id, name) VALUES (1, '未命名')").await?;
    let row = conn
        .query_one_raw(sea_orm::Statement::from_string(conn.get_database_backend(), "SELECT name FROM probe WHERE id = 1"))
        .await?
        .ok_or("row missing")?;
    let name: String = row.try_get("", "name")?;
    assert_eq!(name, "未命名");
    Ok(())
}

#[tokio::test]
async fn database_sqlite() -> TestResult {
    database_suite(&fresh_sqlite()).await
}

#[tokio::test]
async fn database_postgres() -> TestResult {
    database_suite(&fresh_postgres().await?).await
}

async fn cache_suite(c: Arc<dyn Cache>) -> TestResult {
    let k = unique("k");
    assert_eq!(c.get(&k).await?, None);
    c.set(&k, "v1", None).await?;
    assert_eq!(c.get(&k).await?.as_deref(), Some("v1"));
    assert_eq!(c.take(&k).await?.as_deref(), Some("v1"));
    assert_eq!(c.take(&k).await?, None, "a taken value is gone: codes are single-use");
    c.set(&k, "short", Some(Duration::from_millis(50))).await?;
    assert_eq!(c.get(&k).await?.as_deref(), Some("short"));
    tokio::time::sleep(Duration::from_millis(120)).await; // waits out a TTL, not timing a result
    assert_eq!(c.get(&k).await?, None, "expired values are not returned");
    let n = unique("n");
    assert_eq!(c.incr(&n, Duration::from_secs(60)).await?, 1);
    assert_eq!(c.incr(&n, Duration::from_secs(60)).await?, 2);
    let left = c.ttl(&n).await?.ok_or("a counter expires")?;
    assert!(left <= Duration::from_secs(60) && left > Duration::from_secs(30), "{left:?}");
    assert_eq!(c.ttl(&unique("absent")).await?, None);
    assert!(c.delete(&n).await?);
    assert!(!c.delete(&n).await?);
    c.ping().await?;
    Ok(())
}

#[tokio::test]
async fn cache_memory() -> TestResult {
    cache_suite(cache::open("memory://").await?).await
}

#[tokio::test]
async fn cache_redis() -> TestResult {
    cache_suite(cache::open(&redis_url()).await?).await
}

fn queue_config(url: &str) -> QueueConfig {
    QueueConfig { url: url.to_owned(), delivery_limit: 2, lease_seconds: 1, prefetch: 1 }
}

/// Publishes, receives, acks; a consumer that goes away before acking gets the job delivered again;
/// a job given back past the limit lands in the dead letters (on RabbitMQ with its `x-death`
/// header, when `broker_records_deaths`); one given back by a stopping consumer does not count.
async fn queue_suite(
    open: impl AsyncFn() -> Result<Arc<dyn JobQueue>, Box<dyn std::error::Error>>,
    broker_records_deaths: bool,
) -> TestResult {
    let q = unique("jobs");
    let a = open().await?;
    a.publish(&q, "job-1", b"render 1").await?;
    let job = a.receive(&q, Duration::from_secs(10)).await?.ok_or("job-1 not delivered")?;
    assert_eq!((job.id.as_str(), job.body.as_slice(), job.attempt), ("job-1", &b"render 1"[..], 1));
    a.ack(job).await?;
    assert!(a.receive(&q, Duration::from_millis(300)).await?.is_none(), "an acked job is not delivered again");
    drop(a);

    // A consumer dies holding an unacked job: the job is delivered to the next consumer.
    let dying = open().await?;
    dying.publish(&q, "job-2", b"render 2").await?;
    let held = dying.receive(&q, Duration::from_secs(10)).await?.ok_or("job-2 not delivered")?;
    assert_eq!(held.attempt, 1);
    std::mem::forget(held);
    drop(dying);
    let b = open().await?;
    let again = b.receive(&q, Duration::from_secs(15)).await?.ok_or("job-2 not redelivered")?;
    assert_eq!((again.id.as_str(), again.attempt), ("job-2", 2));

    // Given back twice more it has been returned more than the limit of 2 and becomes a dead letter.
    b.retry(again).await?;
    let third = b.receive(&q, Duration::from_secs(10)).await?.ok_or("job-2 not delivered a third time")?;
    assert_eq!(third.attempt, 3);
    b.retry(third).await?;
    let fourth = b.receive(&q, Duration::from_secs(2)).await?;
    assert!(fourth.is_none(), "a job past the delivery limit is not delivered: {fourth:?}");
    let mut dead = None;
    for _ in 0..50 {
        dead = b.receive_dead(&q).await?;
        if dead.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await; // the broker dead-letters asynchronously
    }
    let dead = dead.ok_or("no dead letter")?;
    assert_eq!((dead.id.as_str(), dead.body.as_slice()), ("job-2", &b"render 2"[..]));
    let death = broker_records_deaths.then(|| Death { queue: q.clone(), reason: "delivery_limit".into(), count: 1 });
    assert_eq!(dead.death, death, "x-death names the queue, the delivery limit and one death");
    b.ack(dead).await?;
    assert!(b.receive_dead(&q).await?.is_none(), "an acked dead letter is gone");

    // A stopping consumer gives a job back more often than the limit without using it up.
    b.publish(&q, "job-3", b"render 3").await?;
    for round in 0..4 {
        let job = b.receive(&q, Duration::from_secs(10)).await?.ok_or(format!("job-3 not delivered in round {round}"))?;
        assert_eq!((job.id.as_str(), job.body.as_slice(), job.attempt), ("job-3", &b"render 3"[..], 1));
        b.give_back(job).await?;
    }
    let last = b.receive(&q, Duration::from_secs(10)).await?.ok_or("job-3 lost after its give-backs")?;
    b.ack(last).await?;
    assert!(b.receive(&q, Duration::from_millis(300)).await?.is_none(), "a given-back job is there once");
    b.ping().await?;
    Ok(())
}

#[tokio::test]
async fn queue_database_sqlite() -> TestResult {
    let url = fresh_sqlite();
    queue_suite(async || Ok(queue::open(&queue_config("db://"), &db::connect(&url).await?).await?), false).await
}

#[tokio::test]
async fn queue_database_postgres() -> TestResult {
    let url = fresh_postgres().await?;
    queue_suite(async || Ok(queue::open(&queue_config("db://"), &db::connect(&url).await?).await?), false).await
}

#[tokio::test]
async fn queue_rabbitmq() -> TestResult {
    let url = fresh_sqlite();
    queue_suite(async || Ok(queue::open(&queue_config(&amqp_url()), &db::connect(&url).await?).await?), true).await
}

#[tokio::test]
async fn queue_database_survives_a_restart() -> TestResult {
    let url = fresh_sqlite();
    {
        let q = queue::open(&queue_config("db://"), &db::connect(&url).await?).await?;
        q.publish("renders", "kept", b"x").await?;
    }
    let q = queue::open(&queue_config("db://"), &db::connect(&url).await?).await?;
    let job = q.receive("renders", Duration::from_secs(5)).await?.ok_or("job lost across restart")?;
    assert_eq!(job.id, "kept");
    Ok(())
}

async fn blob_suite(store: BlobStore) -> TestResult {
    let prefix = format!("t/qs/{}/", unique("u"));
    let key = format!("{prefix}materials/a/original.png");
    assert!(!store.exists(&key).await?);
    store.put(&key, b"\x89PNG...".to_vec()).await?;
    assert!(store.exists(&key).await?);
    assert_eq!(store.get(&key).await?.as_ref(), b"\x89PNG...");
    store.put(&key, b"replaced".to_vec()).await?;
    assert_eq!(store.get(&key).await?.as_ref(), b"replaced");
    assert_eq!(store.list(&prefix).await?, vec![key.clone()]);
    // stat and ranges, as serving a video's byte ranges uses them.
    assert_eq!(store.size(&key).await?, 8);
    assert_eq!(store.read_range(&key, 2..5).await?.as_ref(), b"pla");
    let missing = format!("{prefix}materials/none/original.png");
    assert!(matches!(store.size(&missing).await, Err(reelforge_kit::BlobError::NotFound(_))));
    // A streamed write shows nothing under its key until it is closed; an aborted one never does.
    let streamed = format!("{prefix}materials/b/original.mp4");
    let mut w = store.writer(&streamed).await?;
    w.write(vec![7u8; 3 << 20].into()).await?;
    w.write(vec![8u8; 3 << 20].into()).await?;
    assert!(!store.exists(&streamed).await?, "a streamed object is not visible before it is closed");
    w.close().await?;
    assert_eq!(store.size(&streamed).await?, 6 << 20);
    assert_eq!(store.read_range(&streamed, (3 << 20) - 1..(3 << 20) + 1).await?.as_ref(), [7, 8]);
    let aborted = format!("{prefix}materials/c/original.mp4");
    let mut w = store.writer(&aborted).await?;
    w.write(vec![9u8; 3 << 20].into()).await?;
    w.abort().await?;
    assert!(!store.exists(&aborted).await?, "an aborted write leaves nothing");
    let mut listed: Vec<String> = store.list_modified(&prefix).await?.into_iter().map(|(k, _)| k).collect();
    listed.sort();
    assert_eq!(listed, vec![key.clone(), streamed.clone()]);
    // A copy inside the store (a delivered work's render) leaves the original as it was.
    let copied = format!("{prefix}renders/copy.mp4");
    store.copy(&streamed, &copied).await?;
    assert_eq!((store.size(&copied).await?, store.size(&streamed).await?), (6 << 20, 6 << 20));
    assert_eq!(store.read_range(&copied, (3 << 20) - 1..(3 << 20) + 1).await?.as_ref(), [7, 8]);
    assert!(store.copy(&missing, &copied).await.is_err(), "copying nothing is an error");
    assert!(store.copy(&key, "../escape").await.is_err());
    store.delete(&copied).await?;
    store.delete(&streamed).await?;
    store.delete(&key).await?;
    assert!(matches!(store.get(&key).await, Err(reelforge_kit::BlobError::NotFound(_))));
    store.delete(&key).await?;
    assert!(store.put("../escape", b"x".to_vec()).await.is_err());
    Ok(())
}

#[tokio::test]
async fn blob_local_directory() -> TestResult {
    let dir = tempfile::tempdir()?;
    let store = BlobStore::open(&format!("fs://{}", dir.path().display()))?;
    // A writer dropped unended (its request dropped when the client went away) leaves no
    // temporary file behind once its clean-up has run.
    let partial = dir.path().join(".partial");
    let mut w = store.writer("t/qs/u/dropped/materials/d/original.mp4").await?;
    w.write(vec![1u8; 9 << 20].into()).await?;
    assert_eq!(std::fs::read_dir(&partial)?.count(), 1, "the write in progress has its temporary file");
    drop(w);
    for _ in 0..200 {
        if std::fs::read_dir(&partial)?.count() == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    assert_eq!(std::fs::read_dir(&partial)?.count(), 0, "a dropped write leaves no temporary file");
    // One whose process died leaves its temporary file: an incomplete upload until aborted.
    assert!(store.incomplete_uploads("t/").await?.is_empty());
    abandon(&store, "t/qs/u/killed/materials/d/original.mp4").await?;
    let left = store.incomplete_uploads("t/").await?;
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].key.starts_with(".partial/original.mp4."), "{left:?}");
    store.abort_upload(&left[0]).await?;
    assert_eq!(std::fs::read_dir(&partial)?.count(), 0, "an aborted upload leaves no temporary file");
    store.abort_upload(&left[0]).await?;
    blob_suite(store).await
}

/// Begins a write of `key` whose process then "dies": its writer is forgotten, so nothing aborts
/// it. Two chunks are written, so on S3 the multipart upload has begun and has a part.
async fn abandon(store: &BlobStore, key: &str) -> TestResult {
    let mut w = store.writer(key).await?;
    w.write(vec![5u8; 2 * reelforge_kit::blob::WRITE_CHUNK + 1].into()).await?;
    std::mem::forget(w);
    Ok(())
}

/// The multipart uploads under the bucket's `prefix` as the store itself answers
/// `ListMultipartUploads`, unsigned and without the blob store's code.
async fn listed_by_the_bucket(prefix: &str) -> Result<String, Box<dyn std::error::Error>> {
    let url = s3_url();
    let bucket = url.trim_start_matches("s3://").split('?').next().unwrap_or_default().to_owned();
    let endpoint = url.split(['?', '&']).find_map(|p| p.strip_prefix("endpoint=")).ok_or("no endpoint in the test store's url")?.to_owned();
    Ok(reqwest::get(format!("{endpoint}/{bucket}?uploads&prefix={prefix}")).await?.error_for_status()?.text().await?)
}

/// A write whose process died leaves an S3 multipart upload no object listing shows: it is listed
/// under its prefix (relative to the store's root, with when it began) and under no other, and once
/// aborted the bucket lists it no more. The store signs its calls (SeaweedFS takes any key).
#[tokio::test]
async fn blob_s3_incomplete_uploads_are_listed_and_aborted() -> TestResult {
    let root = unique("uploads");
    let url = format!("{}&root=/{root}&access_key_id=reelforge&secret_access_key=reelforge", s3_url().replace("&anonymous", ""));
    let store = BlobStore::open(&url)?;
    let key = "t/qs/u/a@x.cn/materials/m 1/original.mp4";
    abandon(&store, key).await?;
    let listed = store.incomplete_uploads("t/qs/").await?;
    assert_eq!(listed.iter().map(|u| u.key.as_str()).collect::<Vec<_>>(), [key], "{listed:?}");
    let age = std::time::SystemTime::now().duration_since(listed[0].initiated).unwrap_or_default();
    assert!(age < Duration::from_secs(600), "begun just now, not {age:?} ago");
    assert!(store.incomplete_uploads("t/cc/").await?.is_empty(), "another prefix has none");
    assert!(!store.exists(key).await?, "nothing is visible under the key");
    assert!(listed_by_the_bucket(&format!("{root}/t/qs/")).await?.contains(&listed[0].upload_id));

    store.abort_upload(&listed[0]).await?;
    assert!(store.incomplete_uploads("t/").await?.is_empty());
    assert!(!listed_by_the_bucket(&format!("{root}/")).await?.contains("<Upload>"), "the bucket lists no upload");
    store.abort_upload(&listed[0]).await?;
    assert!(store.abort_upload(&reelforge_kit::blob::IncompleteUpload { key: "../x".into(), ..listed[0].clone() }).await.is_err());
    Ok(())
}

#[tokio::test]
async fn blob_s3() -> TestResult {
    blob_suite(BlobStore::open(&s3_url())?).await
}

/// Stores used under different async runtimes at once (each test has its own, and so does each
/// farm test's system) never share connections: when one runtime ends in the middle of the other's
/// writes, the other's writes still succeed. With opendal's process-wide HTTP client they failed
/// with "dispatch task is gone" on a connection the ended runtime drove.
#[test]
fn s3_stores_outlive_other_runtimes() -> TestResult {
    let writes = |name: &'static str, n: usize| {
        std::thread::spawn(move || -> Result<(), String> {
            let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
            runtime.block_on(async {
                let store = BlobStore::open(&format!("{}&root=/{}", s3_url(), unique("runtimes"))).map_err(|e| e.to_string())?;
                for i in 0..n {
                    store.put(&format!("t/qs/{name}/{i}"), &b"x"[..]).await.map_err(|e| format!("{name} write {i}: {e}"))?;
                }
                Ok(())
            })
        })
    };
    let short = writes("short", 20);
    let long = writes("long", 200);
    short.join().map_err(|_| "short writer panicked")??;
    long.join().map_err(|_| "long writer panicked")??;
    Ok(())
}

/// A listener that accepts connections and never answers: a store, service or mail server that hangs.
async fn silent_server() -> Result<(std::net::SocketAddr, tokio::task::JoinHandle<()>), Box<dyn std::error::Error>> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = listener.accept().await {
            open.push(socket);
        }
    });
    Ok((addr, held))
}

/// An S3 store that accepts and never answers fails each call within the configured time instead
/// of holding the caller for ever (an upload, a render's fetch).
#[tokio::test]
async fn s3_calls_to_a_silent_store_time_out() -> TestResult {
    let (addr, held) = silent_server().await?;
    let timeouts = reelforge_kit::config::TimeoutConfig { storage_seconds: 1, storage_io_seconds: 1, ..Default::default() };
    let url = format!("s3://silent?endpoint=http://{addr}&access_key_id=k&secret_access_key=s");
    let store = BlobStore::open_with(&url, &timeouts)?;
    let started = std::time::Instant::now();
    let put = tokio::time::timeout(Duration::from_secs(20), store.put("t/qs/u/1/x.bin", b"x".to_vec())).await;
    assert!(matches!(put, Ok(Err(_))), "a put to a silent store fails, it does not hang: {put:?}");
    let stat = tokio::time::timeout(Duration::from_secs(20), store.check()).await;
    assert!(matches!(stat, Ok(Err(_))), "a check of a silent store fails: {stat:?}");
    let uploads = tokio::time::timeout(Duration::from_secs(20), store.incomplete_uploads("t/")).await;
    assert!(matches!(uploads, Ok(Err(_))), "listing a silent store's uploads fails: {uploads:?}");
    assert!(started.elapsed() < Duration::from_secs(15), "all failed in {:?}", started.elapsed());
    held.abort();
    Ok(())
}

/// A service that accepts and never answers fails a call within the configured time.
#[tokio::test]
async fn grpc_calls_to_a_silent_service_time_out() -> TestResult {
    let (addr, held) = silent_server().await?;
    let timeouts = reelforge_kit::config::TimeoutConfig { connect_seconds: 1, service_call_seconds: 1, ..Default::default() };
    let channel = reelforge_kit::grpc::channel(&format!("http://{addr}"), &timeouts)?;
    let mut client = tonic::client::Grpc::new(channel);
    let call = async {
        client.ready().await.map_err(|e| tonic::Status::unavailable(e.to_string()))?;
        let codec = tonic_prost::ProstCodec::<(), ()>::default();
        client.unary(tonic::Request::new(()), http::uri::PathAndQuery::from_static("/silent.Service/Call"), codec).await
    };
    let answer = tokio::time::timeout(Duration::from_secs(20), call).await;
    assert!(matches!(answer, Ok(Err(_))), "a call to a silent service fails, it does not hang: {answer:?}");
    held.abort();
    Ok(())
}

/// A job published to a queue that went away under a running publisher (deleted, so its routing
/// key has no binding) comes back from the broker (`mandatory`) and is reported unsent, so the
/// task service's outbox keeps its row for the next try (catalogue Q1).
#[tokio::test]
async fn a_job_for_a_queue_that_is_gone_is_reported_unsent() -> TestResult {
    let q = queue::open(&queue_config(&amqp_url()), &db::connect(&fresh_sqlite()).await?).await?;
    let name = unique("gone");
    q.publish(&name, "first", b"x").await?;
    let conn = lapin::Connection::connect(&amqp_url(), lapin::ConnectionProperties::default()).await?;
    let admin = conn.create_channel().await?;
    admin.queue_delete(name.as_str().into(), lapin::options::QueueDeleteOptions::default()).await?;
    let refused = q.publish(&name, "second", b"y").await;
    assert!(
        matches!(&refused, Err(reelforge_kit::QueueError::Broker(m)) if m.contains("returned")),
        "a publish nobody can receive is an error: {refused:?}"
    );
    admin.queue_delete(format!("{name}.dead").as_str().into(), lapin::options::QueueDeleteOptions::default()).await?;
    Ok(())
}

/// Runs `rabbitmqctl -q <args> --no-table-headers`; answers its lines, columns split on tabs.
fn rabbitmqctl(args: &[&str]) -> Result<Vec<Vec<String>>, Box<dyn std::error::Error>> {
    let out = std::process::Command::new("rabbitmqctl").arg("-q").args(args).arg("--no-table-headers").output()?;
    if !out.status.success() {
        return Err(format!("rabbitmqctl {args:?}: {}", String::from_utf8_lossy(&out.stderr)).into());
    }
    Ok(String::from_utf8(out.stdout)?.lines().map(|l| l.split('\t').map(str::to_owned).collect()).collect())
}

/// The unacknowledged deliveries of each consumer of `queue`, as the broker counts them (each
/// consumer has a channel of its own), and the jobs still ready in it.
fn unacked_per_consumer(queue: &str) -> Result<(Vec<u64>, u64), Box<dyn std::error::Error>> {
    let channels: Vec<String> =
        rabbitmqctl(&["list_consumers", "queue_name", "channel_pid"])?.into_iter().filter(|c| c[0] == queue).map(|c| c[1].clone()).collect();
    let unacked = rabbitmqctl(&["list_channels", "pid", "messages_unacknowledged"])?
        .into_iter()
        .filter(|c| channels.contains(&c[0]))
        .map(|c| c[1].parse())
        .collect::<Result<Vec<u64>, _>>()?;
    let ready = rabbitmqctl(&["list_queues", "name", "messages_ready"])?
        .into_iter()
        .find(|c| c[0] == queue)
        .ok_or("the queue is not listed")?[1]
        .parse()?;
    Ok((unacked, ready))
}

/// Waits until the broker shows `want` (unacked per consumer, sorted; ready jobs); every reading on
/// the way must hold at most one unacknowledged job per consumer.
async fn broker_shows(queue: &str, want: (Vec<u64>, u64)) -> TestResult {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        let (mut unacked, ready) = unacked_per_consumer(queue)?;
        assert!(unacked.iter().all(|n| *n <= 1), "a consumer holds more than one job: {unacked:?}");
        unacked.sort_unstable();
        if (unacked.clone(), ready) == want {
            return Ok(());
        }
        assert!(std::time::Instant::now() < deadline, "the broker shows {unacked:?} unacked and {ready} ready, not {want:?}");
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// One client consuming two queues waits on each at once: a job published to the second queue is
/// taken while the first queue's wait (20 s, with nothing in it) is still going. The client once
/// held one lock over every queue's wait, so the second receive began only when the first ended.
#[tokio::test]
async fn a_client_waits_on_two_queues_at_once() -> TestResult {
    let q = queue::open(&queue_config(&amqp_url()), &db::connect(&fresh_sqlite()).await?).await?;
    let (idle, busy) = (unique("idle"), unique("busy"));
    q.publish(&idle, "warm-up", b"x").await?;
    let warm = q.receive(&idle, Duration::from_secs(10)).await?.ok_or("the idle queue's first job")?;
    q.ack(warm).await?;
    let waiting = tokio::spawn({
        let (q, idle) = (Arc::clone(&q), idle.clone());
        async move { q.receive(&idle, Duration::from_secs(20)).await.map(|job| job.is_none()) }
    });
    q.publish(&busy, "job-1", b"x").await?;
    let job = q.receive(&busy, Duration::from_secs(20)).await?.ok_or("the busy queue's job")?;
    assert!(!waiting.is_finished(), "the busy queue's job came only after the idle queue's wait ended");
    q.ack(job).await?;
    assert!(waiting.await??, "the idle queue had no job to give");
    let conn = lapin::Connection::connect(&amqp_url(), lapin::ConnectionProperties::default()).await?;
    let admin = conn.create_channel().await?;
    for name in [&idle, &busy] {
        for q in [name.clone(), format!("{name}.dead")] {
            admin.queue_delete(q.as_str().into(), lapin::options::QueueDeleteOptions::default()).await?;
        }
    }
    Ok(())
}

/// Two workers with prefetch 1 and uneven jobs: the broker never lets a consumer hold more than one
/// unacknowledged job, so a worker busy with a long render leaves the rest to the other
/// (catalogue Q6, read from RabbitMQ).
#[tokio::test]
async fn prefetch_one_gives_each_consumer_one_job_at_a_time() -> TestResult {
    let db = db::connect(&fresh_sqlite()).await?;
    let (a, b) = (queue::open(&queue_config(&amqp_url()), &db).await?, queue::open(&queue_config(&amqp_url()), &db).await?);
    let name = unique("fair");
    for n in 1..=4 {
        a.publish(&name, &format!("job-{n}"), b"x").await?;
    }
    let long = b.receive(&name, Duration::from_secs(10)).await?.ok_or("b got no job")?;
    let mut short = a.receive(&name, Duration::from_secs(10)).await?.ok_or("a got no job")?;
    broker_shows(&name, (vec![1, 1], 2)).await?;
    // b keeps its long job while a goes through the short ones.
    for left in [1, 0] {
        a.ack(short).await?;
        short = a.receive(&name, Duration::from_secs(10)).await?.ok_or("a got no further job")?;
        broker_shows(&name, (vec![1, 1], left)).await?;
    }
    a.ack(short).await?;
    b.ack(long).await?;
    broker_shows(&name, (vec![0, 0], 0)).await?;
    let conn = lapin::Connection::connect(&amqp_url(), lapin::ConnectionProperties::default()).await?;
    let admin = conn.create_channel().await?;
    for q in [name.clone(), format!("{name}.dead")] {
        admin.queue_delete(q.as_str().into(), lapin::options::QueueDeleteOptions::default()).await?;
    }
    Ok(())
}
