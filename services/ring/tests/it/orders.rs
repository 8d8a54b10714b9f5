//! Orders through the gRPC service with the ring platform inside the binary: the phone and
//! copyright checks, one order per duplicate submit, set then cancel, isolation, the managers' list
//! and the refusal of a platform configured without its secret.

use reelforge_kit::identity::OperatorLevel;
use reelforge_proto::ring as pb;

use crate::common::{self, Fallible, reason};
use crate::on_both;

on_both!(
    a_duplicate_submit_is_one_order_and_one_delivery,
    set_then_cancel_on_the_local_platform,
    refusals_name_their_reason,
    orders_are_the_callers_own
);

async fn a_duplicate_submit_is_one_order_and_one_delivery(db: &str) -> Fallible<()> {
    let ring = common::start(db, common::config(None, 5)).await?;
    let (a, b) = tokio::join!(ring.save("13800138000"), ring.save("+86 13800138000"));
    let (a, b) = (a?, b?);
    assert_eq!(a.id, b.id, "racing saves answer one order");
    assert_eq!(
        ring.save("13800138000").await?.id,
        a.id,
        "a later save answers it too"
    );
    let (x, y) = tokio::join!(ring.upload(a.id), ring.upload(a.id));
    assert_eq!(
        [&x, &y].iter().filter(|r| r.is_ok()).count(),
        1,
        "one upload queues it: {x:?} {y:?}"
    );
    let refused = if let Err(e) = x {
        e
    } else {
        y.err().ok_or("the second upload is refused")?
    };
    assert_eq!(reason(&refused), "order_state");
    let done = ring.settled(a.id, 1).await?;
    assert!(done.platform_ref.starts_with("local-"), "{done:?}");
    assert_eq!(
        ring.store.receipts("qs").await?,
        1,
        "the local platform took one delivery"
    );
    let page = ring
        .client
        .clone()
        .list_orders(ring.u1(pb::ListOrdersRequest {
            page: 1,
            size: 20,
            state: None,
        })?)
        .await?
        .into_inner();
    assert_eq!(page.total, 1);
    Ok(())
}

async fn set_then_cancel_on_the_local_platform(db: &str) -> Fallible<()> {
    let ring = common::start(db, common::config(None, 5)).await?;
    let order = ring.save("13800138000").await?;
    let early = ring
        .client
        .clone()
        .cancel(ring.u1(pb::OrderRequest { order_id: order.id })?)
        .await
        .err()
        .ok_or("only a set ring is cancelled")?;
    assert_eq!(reason(&early), "order_state");
    ring.upload(order.id).await?;
    ring.settled(order.id, 1).await?;
    let cancelled = ring
        .client
        .clone()
        .cancel(ring.u1(pb::OrderRequest { order_id: order.id })?)
        .await?
        .into_inner();
    assert_eq!(cancelled.state, 3);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while ring.store.outbox_len().await? > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the cancel is delivered"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        ring.store.receipts("qs").await?,
        2,
        "the platform was told of the cancel"
    );
    assert_eq!(ring.order(order.id).await?.state, 3);
    // A cancelled order frees the task and number.
    assert_ne!(ring.save("13800138000").await?.id, order.id);
    Ok(())
}

async fn refusals_name_their_reason(db: &str) -> Fallible<()> {
    let ring = common::start(db, common::config(None, 5)).await?;
    let mut c = ring.client.clone();
    let save = |task_id: i64, phone: &str, agreed: bool, copyright: &str| pb::SaveRingRequest {
        task_id,
        phone: phone.into(),
        copyright_agreed: agreed,
        copyright_id: copyright.into(),
        fix_id: 0,
    };
    let cases = [
        (save(1, "12345", true, ""), "phone_invalid"),
        (save(1, "13900000000", true, ""), "phone_not_joined"),
        (save(1, "13800138000", false, ""), "copyright_missing"),
        (
            save(
                1,
                "13800138000",
                false,
                "00000000-0000-0000-0000-000000000000",
            ),
            "copyright_missing",
        ),
        (save(2, "13800138000", true, ""), "task_not_finished"),
        (save(9, "13800138000", true, ""), "task_not_found"),
        (save(3, "13800138000", true, ""), "profile_violation"),
    ];
    for (req, expected) in cases {
        let e = c.save_ring(ring.u1(req)?).await.err().ok_or(expected)?;
        assert_eq!(reason(&e), expected, "{e:?}");
    }
    // The too-long video: refused with its violations, each naming the rule and the measure.
    let e = c.save_ring(ring.u1(save(3, "13800138000", true, ""))?).await.err().ok_or("too long")?;
    let violations = e
        .metadata()
        .get_bin(reelforge_kit::status::VIOLATIONS_METADATA)
        .ok_or("violations")?
        .to_bytes()?;
    let violations: serde_json::Value = serde_json::from_slice(&violations)?;
    assert_eq!(violations.as_array().map(Vec::len), Some(1), "{violations}");
    assert_eq!(violations[0]["rule"], "duration", "{violations}");
    assert!(e.message().contains("duration") || e.message().contains("long"), "{}", e.message());
    // The report of a conforming video, and the rules a document decides.
    let report = c.check(ring.u1(pb::TaskRequest { task_id: 1, fix_id: 0 })?).await?.into_inner();
    let report: serde_json::Value = serde_json::from_str(&report.json)?;
    assert_eq!((report["conforms"].as_bool(), report["measured"]["width"].as_u64()), (Some(true), Some(180)), "{report}");
    let long = c.check(ring.u1(pb::TaskRequest { task_id: 3, fix_id: 0 })?).await?.into_inner();
    assert!(long.json.contains("\"conforms\":false"), "{}", long.json);
    let pre = pb::PrecheckRequest { width: 1920, height: 1080, seconds: 10.0 };
    let pre: serde_json::Value = serde_json::from_str(&c.precheck(ring.u1(pre)?).await?.into_inner().json)?;
    let rules: Vec<&str> = pre["violations"].as_array().into_iter().flatten().filter_map(|v| v["rule"].as_str()).collect();
    assert_eq!((pre["conforms"].as_bool(), rules), (Some(false), vec!["size", "orientation", "duration"]), "{pre}");
    let joined = c
        .if_download_by_phone(ring.u1(pb::PhoneRequest {
            phone: "139-0000-0000".into(),
        })?)
        .await?
        .into_inner();
    assert_eq!(
        (joined.allowed, joined.state, joined.phone.as_str()),
        (false, -2, "13900000000")
    );
    let fine = c
        .if_download_by_phone(ring.u1(pb::PhoneRequest {
            phone: "13800138000".into(),
        })?)
        .await?
        .into_inner();
    assert_eq!((fine.allowed, fine.state), (true, 0));
    let bad = c
        .if_download_by_phone(ring.u1(pb::PhoneRequest {
            phone: "110".into(),
        })?)
        .await
        .err()
        .ok_or("invalid")?;
    assert_eq!(reason(&bad), "phone_invalid");
    // A proof the caller recorded is accepted instead of the statement.
    let id = uuid::Uuid::new_v4().to_string();
    let key = format!(
        "{}{id}/original.pdf",
        reelforge_kit::blob::user_copyright_prefix("qs", "u1")
    );
    let record = pb::CopyrightRecord {
        id: id.clone(),
        name: "证明.pdf".into(),
        key,
        format: "pdf".into(),
        bytes: 10,
    };
    c.record_copyright(ring.u1(record.clone())?).await?;
    let foreign = c
        .record_copyright(ring.as_user("qs", "u2", OperatorLevel::Operation, record)?)
        .await
        .err()
        .ok_or("another's key")?;
    assert_eq!(foreign.code(), tonic::Code::InvalidArgument);
    let order = c
        .save_ring(ring.u1(save(1, "13800138000", false, &id))?)
        .await?
        .into_inner();
    assert_eq!(order.copyright_id, id);
    // Profile: the caller's variant's.
    let profile = c
        .profile(ring.as_user(
            "cc",
            "u1",
            OperatorLevel::Operation,
            reelforge_proto::common::Empty {},
        )?)
        .await?
        .into_inner();
    let profile: serde_json::Value = serde_json::from_str(&profile.json)?;
    assert_eq!(
        (profile["variant"].as_str(), profile["maxSeconds"].as_f64()),
        (Some("cc"), Some(48.0)),
        "{profile}"
    );
    Ok(())
}

async fn orders_are_the_callers_own(db: &str) -> Fallible<()> {
    let ring = common::start(db, common::config(None, 5)).await?;
    let mine = ring.save("13800138000").await?;
    let mut c = ring.client.clone();
    for (tenant, user) in [("qs", "u2"), ("cc", "u1")] {
        let as_other = |id: i64| {
            ring.as_user(
                tenant,
                user,
                OperatorLevel::OperationsManager,
                pb::OrderRequest { order_id: id },
            )
        };
        for e in [
            c.ring_upload(as_other(mine.id)?).await.err(),
            c.cancel(as_other(mine.id)?).await.err(),
        ] {
            let e = e.ok_or("another's order is not reached")?;
            assert_eq!(
                (e.code(), reason(&e)),
                (tonic::Code::NotFound, "order_not_found"),
                "{tenant}/{user}"
            );
        }
        let theirs = c
            .list_orders(ring.as_user(
                tenant,
                user,
                OperatorLevel::Operation,
                pb::ListOrdersRequest {
                    page: 1,
                    size: 20,
                    state: None,
                },
            )?)
            .await?
            .into_inner();
        assert_eq!(theirs.total, 0, "{tenant}/{user} sees none of u1's orders");
    }
    assert_eq!(ring.order(mine.id).await?.state, 0, "untouched");
    let list = |tenant: &str, level| {
        ring.as_user(
            tenant,
            "boss",
            level,
            pb::ListOrdersRequest {
                page: 1,
                size: 20,
                state: Some(0),
            },
        )
    };
    let refused = c
        .list_tenant_orders(list("qs", OperatorLevel::Operation)?)
        .await
        .err()
        .ok_or("a creator is refused")?;
    assert_eq!(refused.code(), tonic::Code::PermissionDenied);
    let managed = c
        .list_tenant_orders(list("qs", OperatorLevel::OperationsManager)?)
        .await?
        .into_inner();
    assert_eq!(managed.total, 1);
    assert_eq!(managed.list[0].phone, "138****8000", "masked in lists");
    let other = c
        .list_tenant_orders(list("cc", OperatorLevel::OperationsManager)?)
        .await?
        .into_inner();
    assert_eq!(other.total, 0, "another tenant's manager sees none");
    Ok(())
}

#[test]
fn a_platform_url_without_its_secret_is_refused_at_start() {
    let mut c = common::config(Some("https://ring.example"), 5);
    if let Some(p) = c.platforms.get_mut("qs") {
        p.secret.clear();
    }
    let store = reelforge_ring::RingStore::new(sea_orm::DatabaseConnection::default());
    let err = reelforge_ring::Platforms::from_config(&c, &Default::default(), store)
        .err()
        .unwrap_or_default();
    assert_eq!(
        err,
        "ring.platforms.qs.secret is required with ring.platforms.qs.url"
    );
}
