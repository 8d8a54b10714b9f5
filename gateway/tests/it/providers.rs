//! Service-provider applications (issues 29 and 30): a user applies (refusals name the field; one
//! waiting at a time), a template manager of the tenant rejects with a reason the applicant sees or
//! approves, which makes the applicant a provider (`/user/me`). Someone without the role is
//! refused; another tenant's ids are not found (tests/isolation.rs).

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;
use serde_json::{Value, json};

fn desc(v: &Value) -> &str {
    v["desc"].as_str().unwrap_or_default()
}

async fn refused(s: &System, u: &User, path: &str, body: Value) -> Fallible<String> {
    let r = envelope(s.call(Method::POST, path, u).json(&body)).await?;
    if r["code"] == 2000 {
        return Err(format!("{path} {body} was taken: {r}").into());
    }
    Ok(desc(&r).to_owned())
}

/// The manage index's count of applications waiting.
async fn waiting(s: &System, manager: &User) -> Fallible<u64> {
    let o = data(s.call(Method::GET, "/manage/overview", manager)).await?;
    let q = o["queues"].as_array().and_then(|l| l.iter().find(|q| q["queue"] == "service")).ok_or("the service queue is counted")?;
    Ok(q["pending"].as_u64().ok_or("a count")?)
}

async fn provider(s: &System, u: &User) -> Fallible<bool> {
    Ok(data(s.call(Method::GET, "/user/me", u)).await?["serviceProvider"].as_bool().ok_or("serviceProvider")?)
}

async fn an_application_is_reviewed_and_approval_makes_a_provider(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let manager = s.user("qs", "reviewer", 3).await?;
    let studio = json!({"name": " 光影工作室 ", "contact": "13800138000", "intro": "婚礼与企业宣传片，三天交付"});

    // Bad input: each refusal names its field; nothing is recorded.
    for (field, value, says) in [("name", json!(""), "name: required"), ("contact", json!("  "), "contact: required"), ("intro", json!("长".repeat(501)), "intro: at most 500 characters")] {
        let mut body = studio.clone();
        body[field] = value;
        let d = refused(&s, &ann, "/service/apply", body).await?;
        assert_eq!(d, says, "{field}");
    }
    assert_eq!(data(s.call(Method::GET, "/service/applications", &ann)).await?, json!([]));
    assert!(!provider(&s, &ann).await?, "not a provider before applying");

    // Applied: pending, one at a time.
    let first = data(s.call(Method::POST, "/service/apply", &ann).json(&studio)).await?;
    let first_id = first["id"].as_i64().ok_or("id")?;
    assert_eq!((first["name"].as_str(), first["state"].as_str(), first["userId"].as_str()), (Some("光影工作室"), Some("pending"), Some(ann.user_id.as_str())), "{first}");
    let d = refused(&s, &ann, "/service/apply", studio.clone()).await?;
    assert!(d.contains("still waiting for review"), "{d}");

    // The queue is the template managers': anyone else is refused, naming the role.
    let r = envelope(s.call(Method::GET, "/manage/service/list", &ann)).await?;
    assert!(r["code"] != 2000 && desc(&r).contains("TEMPLATE_MANAGER"), "{r}");
    let d = refused(&s, &ann, "/manage/service/decide", json!({"id": first_id, "approve": true})).await?;
    assert!(d.contains("TEMPLATE_MANAGER"), "{d}");
    let queue = data(s.call(Method::GET, "/manage/service/list", &manager)).await?;
    assert_eq!((queue["total"].as_u64(), queue["list"][0]["id"].as_i64()), (Some(1), Some(first_id)), "{queue}");
    assert_eq!(waiting(&s, &manager).await?, 1, "the manage index counts it");
    let bad = envelope(s.call(Method::GET, "/manage/service/list?state=done", &manager)).await?;
    assert!(bad["code"] == 3000 && desc(&bad).starts_with("state:"), "{bad}");

    // A rejection needs a reason, which the applicant sees; then they may apply again.
    let d = refused(&s, &manager, "/manage/service/decide", json!({"id": first_id, "approve": false, "reason": " "})).await?;
    assert!(d.starts_with("reason:"), "{d}");
    data(s.call(Method::POST, "/manage/service/decide", &manager).json(&json!({"id": first_id, "approve": false, "reason": "样片不足"}))).await?;
    let mine = data(s.call(Method::GET, "/service/applications", &ann)).await?;
    assert_eq!((mine[0]["state"].as_str(), mine[0]["reason"].as_str(), mine[0]["reviewedBy"].as_str()), (Some("rejected"), Some("样片不足"), Some(manager.user_id.as_str())), "{mine}");
    assert!(!provider(&s, &ann).await?, "a rejection changes nothing");
    let d = refused(&s, &manager, "/manage/service/decide", json!({"id": first_id, "approve": true})).await?;
    assert_eq!(d, format!("id: application {first_id} was already rejected"));

    // Approved: a provider; decided once; no further application.
    let second = data(s.call(Method::POST, "/service/apply", &ann).json(&studio)).await?;
    let second_id = second["id"].as_i64().ok_or("id")?;
    let approved = data(s.call(Method::POST, "/manage/service/decide", &manager).json(&json!({"id": second_id, "approve": true, "reason": "ignored"}))).await?;
    assert_eq!((approved["state"].as_str(), approved["reason"].as_str()), (Some("approved"), Some("")), "{approved}");
    assert!(approved["reviewTime"].as_str().is_some_and(|t| !t.is_empty()), "{approved}");
    assert!(provider(&s, &ann).await?, "approval makes a provider");
    let d = refused(&s, &ann, "/service/apply", studio).await?;
    assert!(d.contains("already a service provider"), "{d}");
    let one = data(s.call(Method::GET, &format!("/manage/service/{second_id}"), &manager)).await?;
    assert_eq!(one["intro"], "婚礼与企业宣传片，三天交付", "{one}");
    let decided = data(s.call(Method::GET, "/manage/service/list?state=approved", &manager)).await?;
    assert_eq!(decided["list"][0]["id"].as_i64(), Some(second_id), "{decided}");
    let queue = data(s.call(Method::GET, "/manage/service/list", &manager)).await?;
    assert_eq!(queue["total"], 0, "nothing waits: {queue}");
    assert_eq!(waiting(&s, &manager).await?, 0, "and the index says so");
    let r = envelope(s.call(Method::GET, "/manage/service/999999", &manager)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("does not exist"), "{r}");
    Ok(())
}

common::on_both_backends!(an_application_is_reviewed_and_approval_makes_a_provider);
