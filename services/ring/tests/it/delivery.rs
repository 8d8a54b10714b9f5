//! The delivery adapter against a carrier platform started by the test: delivered once with a
//! valid signature; the platform down for a while, then delivered once; a 4xx fails the order with
//! the platform's reason; out of tries, the order fails as unreachable and may be uploaded again.

use std::sync::Arc;
use std::time::Duration;

use crate::common::{self, Fallible, Platform, Recorder};
use crate::on_both;

on_both!(
    delivered_once_with_a_valid_signature,
    delivered_once_after_the_platform_returns,
    a_refusal_fails_the_order_with_its_reason,
    out_of_tries_the_order_fails_as_unreachable
);

/// The SHA-256 of `bytes`, hex.
fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn delivered_once_with_a_valid_signature(db: &str) -> Fallible<()> {
    let port = common::closed_port()?;
    let rec = Arc::new(Recorder::default());
    let platform = Platform::start(port, rec.clone())?;
    let ring = common::start(
        db,
        common::config(Some(&format!("http://127.0.0.1:{port}/vrbt")), 5),
    )
    .await?;
    let order = ring.save("138 0013 8000").await?;
    assert_eq!(
        (order.state, order.phone.as_str()),
        (0, "13800138000"),
        "{order:?}"
    );
    let queued = ring.upload(order.id).await?;
    assert_eq!(queued.state, 2, "SETTING while the delivery is queued");
    let done = ring.settled(order.id, 1).await?;
    assert_eq!(
        (done.platform_ref.as_str(), done.phone.as_str()),
        ("carrier-1", "138****8000"),
        "{done:?}"
    );
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let got = rec.received();
    assert_eq!(got.len(), 1, "delivered exactly once: {got:?}");
    let sent = &got[0];
    assert_eq!(
        sent.signature,
        reelforge_ring::platform::signature(common::SECRET.as_bytes(), &sent.body),
        "the signature is the HMAC of the body"
    );
    assert_eq!(sent.idempotency_key, format!("{}-set", order.id));
    let body: serde_json::Value = serde_json::from_slice(&sent.body)?;
    assert_eq!(
        (
            body["orderId"].as_i64(),
            body["tenant"].as_str(),
            body["phone"].as_str(),
            body["taskId"].as_i64(),
            body["action"].as_str()
        ),
        (
            Some(order.id),
            Some("qs"),
            Some("13800138000"),
            Some(1),
            Some("set")
        )
    );
    let video = crate::clip::conforming()?;
    assert_eq!(body["video"]["bytes"].as_u64(), Some(video.len() as u64));
    assert_eq!(
        body["video"]["sha256"].as_str(),
        Some(sha256(video).as_str())
    );
    let url = body["video"]["url"].as_str().unwrap_or_default();
    assert!(
        url.starts_with(&format!(
            "{}{}?key=t%2Fqs%2Ftasks%2F1%2Frenders%2Fu1.mp4&exp=",
            common::PUBLIC,
            reelforge_kit::signed::PATH
        )),
        "{url}"
    );
    assert!(
        body["cover"]["url"]
            .as_str()
            .is_some_and(|u| u.contains("u1.jpg")),
        "{body}"
    );
    assert_eq!(ring.store.outbox_len().await?, 0, "nothing left to deliver");
    platform.stop().await;
    Ok(())
}

async fn delivered_once_after_the_platform_returns(db: &str) -> Fallible<()> {
    let port = common::closed_port()?;
    let ring = common::start(
        db,
        common::config(Some(&format!("http://127.0.0.1:{port}/")), 50),
    )
    .await?;
    let order = ring.save("13800138001").await?;
    ring.upload(order.id).await?;
    // Tries fail while nothing listens; the order waits, submitted.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let waiting = ring.order(order.id).await?;
    assert_eq!(waiting.state, 2, "{waiting:?}");
    assert!(
        waiting.attempts >= 1,
        "the failed tries are counted: {waiting:?}"
    );
    let rec = Arc::new(Recorder::default());
    let platform = Platform::start(port, rec.clone())?;
    let done = ring.settled(order.id, 1).await?;
    assert_eq!(done.platform_ref, "carrier-1");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(rec.received().len(), 1, "delivered once after it came back");
    platform.stop().await;
    Ok(())
}

async fn a_refusal_fails_the_order_with_its_reason(db: &str) -> Fallible<()> {
    let port = common::closed_port()?;
    let rec = Arc::new(Recorder::default());
    rec.answers.lock().map_err(|_| "lock")?.push_back((
        422,
        r#"{"reason":"loudness -9.8 LUFS, the limit is -14"}"#.into(),
    ));
    let platform = Platform::start(port, rec.clone())?;
    let ring = common::start(
        db,
        common::config(Some(&format!("http://127.0.0.1:{port}/")), 5),
    )
    .await?;
    let order = ring.save("13800138002").await?;
    ring.upload(order.id).await?;
    let failed = ring.settled(order.id, -1).await?;
    assert_eq!(failed.reason, "loudness -9.8 LUFS, the limit is -14");
    let again = ring
        .upload(order.id)
        .await
        .err()
        .ok_or("a refused order is not uploaded again")?;
    assert_eq!(common::reason(&again), "order_state");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(rec.received().len(), 1, "a refusal is not retried");
    // A failed order frees its task and number: a new save makes a new order.
    let second = ring.save("13800138002").await?;
    assert_ne!(second.id, order.id);
    platform.stop().await;
    Ok(())
}

async fn out_of_tries_the_order_fails_as_unreachable(db: &str) -> Fallible<()> {
    let port = common::closed_port()?;
    let ring = common::start(
        db,
        common::config(Some(&format!("http://127.0.0.1:{port}/")), 2),
    )
    .await?;
    let deliveries = |result: &str| {
        reelforge_kit::metrics::RING_DELIVERIES
            .with_label_values(&["set", result])
            .get()
    };
    let (retried, given_up) = (deliveries("retried"), deliveries("given_up"));
    let order = ring.save("13800138003").await?;
    ring.upload(order.id).await?;
    let failed = ring.settled(order.id, -1).await?;
    assert_eq!(
        (failed.reason.as_str(), failed.attempts),
        (reelforge_ring::domain::UNREACHABLE, 2),
        "{failed:?}"
    );
    // Operators see the outage: the postponed try and the order given up are counted.
    assert!(deliveries("retried") > retried && deliveries("given_up") > given_up);
    assert!(
        reelforge_kit::metrics::render()
            .contains(r#"reelforge_ring_deliveries_total{action="set",result="given_up"}"#)
    );
    // Unreachable is not a refusal: the owner may upload it again, and it is delivered this time.
    let rec = Arc::new(Recorder::default());
    let platform = Platform::start(port, rec.clone())?;
    let again = ring.upload(order.id).await?;
    assert_eq!(again.state, 2);
    ring.settled(order.id, 1).await?;
    assert_eq!(rec.received().len(), 1);
    platform.stop().await;
    Ok(())
}
