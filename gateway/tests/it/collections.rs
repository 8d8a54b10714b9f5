//! Curated collections (issue 29): a template manager curates a tenant's topics, cases and
//! industries of approved templates (refusals name the field; every change audited); users see the
//! published ones only, with their templates that are still approved. Someone without the role is
//! refused; another tenant's ids are not found (tests/isolation.rs).

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;
use serde_json::{Value, json};

fn desc(v: &Value) -> &str {
    v["desc"].as_str().unwrap_or_default()
}

fn ids(v: &Value) -> Vec<i64> {
    v.as_array().map(|l| l.iter().filter_map(|c| c["id"].as_i64()).collect()).unwrap_or_default()
}

fn template_ids(v: &Value) -> Vec<i64> {
    v["templates"].as_array().map(|l| l.iter().filter_map(|t| t["id"].as_i64()).collect()).unwrap_or_default()
}

async fn refused(s: &System, u: &User, path: &str, body: Value) -> Fallible<String> {
    let r = envelope(s.call(Method::POST, path, u).json(&body)).await?;
    if r["code"] == 2000 {
        return Err(format!("{path} {body} was taken: {r}").into());
    }
    Ok(desc(&r).to_owned())
}

/// A template of `maker` waiting for audit: a task with one text slot, offered.
async fn pending_template(s: &System, maker: &User) -> Fallible<i64> {
    let mut rule = common::rule();
    rule["scenes"][0]["layers"] = json!([{"type": "word", "id": 1, "startTime": 0, "endTime": 2, "w": 200, "h": 60, "canModify": 1, "content": "待审", "maxLength": 8}]);
    let task = data(s.call(Method::POST, "/videotask/save", maker).json(&json!({"taskInfo": rule.to_string(), "name": "待审"}))).await?.as_i64().ok_or("task id")?;
    Ok(data(s.call(Method::POST, "/template/submit", maker).json(&json!({"taskId": task, "kind": "classic"}))).await?["id"].as_i64().ok_or("template id")?)
}

async fn a_manager_curates_and_users_see_what_is_published(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let manager = s.user("qs", "curator", 3).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let starters = ids(&data(s.call(Method::GET, "/template/list?pageSize=3", &ann)).await?["list"]);
    assert!(starters.len() >= 3, "the tenant's starters: {starters:?}");
    let pending = pending_template(&s, &ann).await?;

    // Bad input: each refusal names its field, and nothing is made.
    let save = "/manage/collection/save";
    for (body, says) in [
        (json!({"kind": "topic", "name": "  "}), "name: required"),
        (json!({"kind": "topic", "name": "长".repeat(41)}), "name: at most 40 characters"),
        (json!({"kind": "shop", "name": "夏日"}), "kind: `shop` is not topic, case or industry"),
        (json!({"kind": "topic", "name": "夏日", "templateIds": [starters[0], starters[0]]}), "is listed twice"),
        (json!({"kind": "topic", "name": "夏日", "templateIds": [starters[0], pending]}), &format!("templateIds: {pending} is not an approved template")),
        (json!({"kind": "topic", "name": "夏日", "templateIds": [starters[0]], "coverTemplateId": starters[1]}), "coverTemplateId"),
    ] {
        let d = refused(&s, &manager, save, body.clone()).await?;
        assert!(d.contains(says), "{body}: {d}");
    }
    assert_eq!(data(s.call(Method::GET, "/manage/collection/list", &manager)).await?, json!([]), "nothing was made");

    // Someone without the role: refused, naming it; a user cannot read the manager's list.
    let d = refused(&s, &ann, save, json!({"kind": "topic", "name": "我的"})).await?;
    assert!(d.contains("TEMPLATE_MANAGER"), "{d}");
    let r = envelope(s.call(Method::GET, "/manage/collection/list", &ann)).await?;
    assert!(r["code"] != 2000 && desc(&r).contains("TEMPLATE_MANAGER"), "{r}");

    // Two topics and a case; the first topic's cover is its second template.
    let summer = data(s.call(Method::POST, save, &manager).json(&json!({"kind": "topic", "name": " 夏日 ", "description": "清凉一夏", "templateIds": [starters[0], starters[1]], "coverTemplateId": starters[1]}))).await?;
    let summer_id = summer["id"].as_i64().ok_or("id")?;
    assert_eq!((summer["name"].as_str(), summer["published"].as_bool(), summer["position"].as_i64(), summer["coverTemplateId"].as_i64()), (Some("夏日"), Some(false), Some(0), Some(starters[1])), "{summer}");
    assert_eq!(template_ids(&summer), vec![starters[0], starters[1]], "{summer}");
    let winter = data(s.call(Method::POST, save, &manager).json(&json!({"kind": "topic", "name": "冬日"}))).await?;
    let winter_id = winter["id"].as_i64().ok_or("id")?;
    assert_eq!(winter["position"], 1, "{winter}");
    let case = data(s.call(Method::POST, save, &manager).json(&json!({"kind": "case", "name": "夏日", "templateIds": [starters[2]]}))).await?;
    assert_eq!(case["position"], 0, "a kind orders its own: {case}");
    let d = refused(&s, &manager, save, json!({"kind": "topic", "name": "冬日", "templateIds": []})).await?;
    assert!(d.contains("「冬日」 is already a topic"), "{d}");

    // Unpublished: users see nothing of them. An empty topic cannot be published.
    assert_eq!(data(s.call(Method::GET, "/collection/list", &ann)).await?, json!([]));
    let r = envelope(s.call(Method::GET, &format!("/collection/{summer_id}"), &ann)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("does not exist"), "{r}");
    let d = refused(&s, &manager, "/manage/collection/publish", json!({"id": winter_id, "published": true})).await?;
    assert!(d.contains("needs a template"), "{d}");

    // Published and reordered: users see it first, with its templates in order.
    data(s.call(Method::POST, "/manage/collection/publish", &manager).json(&json!({"id": summer_id, "published": true}))).await?;
    let d = refused(&s, &manager, "/manage/collection/order", json!({"kind": "topic", "ids": [winter_id]})).await?;
    assert!(d.starts_with("ids:"), "every topic must be named: {d}");
    let ordered = data(s.call(Method::POST, "/manage/collection/order", &manager).json(&json!({"kind": "topic", "ids": [winter_id, summer_id]}))).await?;
    assert_eq!(ids(&ordered), vec![winter_id, summer_id], "{ordered}");
    let topics = data(s.call(Method::GET, "/collection/list?kind=topic", &ann)).await?;
    assert_eq!(ids(&topics), vec![summer_id], "the published topic only: {topics}");
    assert_eq!((topics[0]["templateCount"].as_u64(), topics[0]["position"].as_i64()), (Some(2), Some(1)), "{topics}");
    assert!(topics[0].get("templates").is_none() && topics[0].get("audit").is_none(), "a list carries no detail: {topics}");
    let seen = data(s.call(Method::GET, &format!("/collection/{summer_id}"), &ann)).await?;
    assert_eq!(template_ids(&seen), vec![starters[0], starters[1]], "{seen}");
    assert!(seen.get("audit").is_none(), "users see no audit trail: {seen}");

    // Edited: the new list replaces the old; the audit trail tells who did what.
    data(s.call(Method::POST, save, &manager).json(&json!({"id": summer_id, "kind": "topic", "name": "夏日", "templateIds": [starters[2], starters[0]]}))).await?;
    let seen = data(s.call(Method::GET, &format!("/collection/{summer_id}"), &ann)).await?;
    assert_eq!(template_ids(&seen), vec![starters[2], starters[0]], "{seen}");
    assert_eq!(seen["coverTemplateId"], starters[2], "the cover fell back to the first template: {seen}");
    let detail = data(s.call(Method::GET, &format!("/manage/collection/{summer_id}"), &manager)).await?;
    let actions: Vec<&str> = detail["audit"].as_array().ok_or("audit")?.iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(actions, vec!["collection.update", "collection.publish", "collection.create"], "{detail}");
    assert_eq!(detail["audit"][0]["actor"].as_str(), Some(manager.user_id.as_str()));
    assert!(detail["audit"][0]["before"].as_str().is_some_and(|b| b.contains(&starters[1].to_string())), "{detail}");

    // Withdrawn: gone for users. Deleted: gone for the manager too; its templates stay.
    data(s.call(Method::POST, "/manage/collection/publish", &manager).json(&json!({"id": summer_id, "published": false}))).await?;
    assert_eq!(data(s.call(Method::GET, "/collection/list", &ann)).await?, json!([]));
    data(s.call(Method::POST, "/manage/collection/delete", &manager).json(&json!({"id": summer_id}))).await?;
    assert_eq!(ids(&data(s.call(Method::GET, "/manage/collection/list?kind=topic", &manager)).await?), vec![winter_id]);
    let r = envelope(s.call(Method::GET, &format!("/manage/collection/{summer_id}"), &manager)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("does not exist"), "{r}");
    assert_eq!(data(s.call(Method::GET, &format!("/template/{}", starters[2]), &ann)).await?["id"], starters[2]);
    Ok(())
}

common::on_both_backends!(a_manager_curates_and_users_see_what_is_published);
