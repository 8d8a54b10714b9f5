//! The enterprise workspace (issue 30, `/workbench/yqx`): an administrator makes an enterprise and
//! adds two users; one shares a rendered work and a material, the other sees both with who shared
//! them, plays the work through its signed address and copies it into their own works (the
//! sharer's work unchanged); an enterprise administrator (operator level 2) adds and removes
//! members of their own enterprise and takes a share out. Every refusal names what was wrong and
//! changes nothing; a user in no enterprise gets an empty workspace, not an error.

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;
use serde_json::{Value, json};

fn desc(v: &Value) -> &str {
    v["desc"].as_str().unwrap_or_default()
}

async fn refused(s: &System, u: &User, path: &str, body: Value, code: i64, says: &str) -> Fallible<()> {
    let r = envelope(s.call(Method::POST, path, u).json(&body)).await?;
    assert!(r["code"] == code && desc(&r).contains(says), "{path} {body}: expected {code} `{says}`: {r}");
    Ok(())
}

async fn rendered(s: &System, u: &User, name: &str) -> Fallible<i64> {
    let body = json!({"taskInfo": common::rule().to_string(), "name": name});
    let id = data(s.call(Method::POST, "/videotask/save", u).json(&body)).await?.as_i64().ok_or("task id")?;
    common::finish_task(s, u, id).await?;
    Ok(id)
}

async fn space(s: &System, u: &User) -> Fallible<Value> {
    data(s.call(Method::GET, "/enterprise/space", u)).await
}

async fn members_share_works_and_materials_and_copy_them(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let admin = s.user("qs", "admin", 0).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let bob = s.user("qs", "bob", 8).await?;
    let boss = s.user("qs", "boss", 2).await?;
    let outsider = s.user("qs", "outsider", 8).await?;
    let elsewhere = s.user("cc", "elsewhere", 8).await?;

    // No enterprise yet: an empty workspace, not a refusal.
    let none = space(&s, &ann).await?;
    assert_eq!((none["enterprise"].is_null(), none["shares"].as_array().map(Vec::len)), (true, Some(0)), "{none}");

    // Only an administrator makes enterprises; names are required and unique in the tenant.
    refused(&s, &ann, "/manage/enterprise/save", json!({"name": "星河传媒"}), 4001, "administrator").await?;
    refused(&s, &admin, "/manage/enterprise/save", json!({"name": "  "}), 3000, "name: required").await?;
    let made = data(s.call(Method::POST, "/manage/enterprise/save", &admin).json(&json!({"name": " 星河传媒 "}))).await?;
    let id = made["id"].as_i64().ok_or("enterprise id")?;
    assert_eq!((made["name"].as_str(), made["memberCount"].as_i64()), (Some("星河传媒"), Some(0)), "{made}");
    refused(&s, &admin, "/manage/enterprise/save", json!({"name": "星河传媒"}), 3000, "name: an enterprise named 星河传媒 exists").await?;
    let other = data(s.call(Method::POST, "/manage/enterprise/save", &admin).json(&json!({"name": "别家"}))).await?["id"].as_i64().ok_or("id")?;

    // Members: users of this tenant only, each in one enterprise.
    for u in [&ann, &bob, &boss] {
        let m = data(s.call(Method::POST, "/enterprise/member/add", &admin).json(&json!({"enterpriseId": id, "userId": u.user_id}))).await?;
        assert_eq!((m["userId"].as_str(), m["addedBy"].as_str()), (Some(u.user_id.as_str()), Some(admin.user_id.as_str())), "{m}");
    }
    refused(&s, &admin, "/enterprise/member/add", json!({"enterpriseId": id, "userId": elsewhere.user_id}), 3000, "userId: no user").await?;
    refused(&s, &admin, "/enterprise/member/add", json!({"enterpriseId": other, "userId": ann.user_id}), 3000, "is already a member of another enterprise").await?;
    refused(&s, &admin, "/enterprise/member/add", json!({"userId": outsider.user_id}), 3000, "enterpriseId: required").await?;
    // A member who is no enterprise administrator manages nobody.
    refused(&s, &ann, "/enterprise/member/add", json!({"userId": outsider.user_id}), 4001, "enterprise administrator").await?;

    // Ann shares a rendered work and a material; not Bob's work, not an unrendered one, not twice.
    let work = rendered(&s, &ann, "年会开场").await?;
    let bobs = rendered(&s, &bob, "鲍勃的").await?;
    let material = common::upload(&s, &ann, "logo.png", common::PNG).await?;
    refused(&s, &ann, "/enterprise/share", json!({"kind": "work", "itemId": bobs}), 3000, &format!("itemId: task {bobs} does not exist")).await?;
    refused(&s, &ann, "/enterprise/share", json!({"kind": "song", "itemId": work}), 3000, "kind: `song` is not work or material").await?;
    refused(&s, &outsider, "/enterprise/share", json!({"kind": "material", "itemId": common::upload(&s, &outsider, "o.png", common::PNG).await?}), 3000, "not in an enterprise").await?;
    let shared = data(s.call(Method::POST, "/enterprise/share", &ann).json(&json!({"kind": "work", "itemId": work}))).await?;
    let share = shared["id"].as_i64().ok_or("share id")?;
    refused(&s, &ann, "/enterprise/share", json!({"kind": "work", "itemId": work.to_string()}), 3000, "itemId: this work is already shared").await?;
    refused(&s, &ann, "/enterprise/share", json!({"kind": "material", "itemId": "nope"}), 3000, "itemId: material nope is not one of your materials").await?;
    let pic = data(s.call(Method::POST, "/enterprise/share", &ann).json(&json!({"kind": "material", "itemId": material}))).await?;
    assert_eq!((pic["name"].as_str(), pic["mediaKind"].as_str(), pic["mine"].as_bool()), (Some("logo.png"), Some("picture"), Some(true)), "{pic}");

    // Bob sees both, newest first, with who shared them; the work plays through its signed address.
    let seen = space(&s, &bob).await?;
    let items: Vec<(Option<&str>, Option<&str>, Option<bool>)> =
        seen["shares"].as_array().ok_or("shares")?.iter().map(|x| (x["kind"].as_str(), x["sharedBy"].as_str(), x["mine"].as_bool())).collect();
    assert_eq!(items, vec![(Some("material"), Some(ann.user_id.as_str()), Some(false)), (Some("work"), Some(ann.user_id.as_str()), Some(false))], "{seen}");
    assert_eq!((seen["enterprise"]["name"].as_str(), seen["admin"].as_bool(), seen["enterprise"]["members"].as_array().map(Vec::len)), (Some("星河传媒"), Some(false), Some(0)), "{seen}");
    let video = seen["shares"][1]["videoUrl"].as_str().ok_or("video url")?.trim_start_matches("/diyvrbt").to_owned();
    let played = s.call(Method::GET, &video, &bob).send().await?;
    assert_eq!((played.status().as_u16(), played.headers().get("content-type").and_then(|v| v.to_str().ok()).map(str::to_owned)), (200, Some("video/mp4".into())));

    // Bob copies the work into his own; a material is not a work; Ann's work stays hers, unchanged.
    refused(&s, &bob, "/enterprise/copy", json!({"shareId": pic["id"]}), 3000, "is a material, not a work").await?;
    let copy = data(s.call(Method::POST, "/enterprise/copy", &bob).json(&json!({"shareId": share}))).await?["taskId"].as_i64().ok_or("task id")?;
    let mine = data(s.call(Method::GET, &format!("/videotask/ofone/{copy}"), &bob)).await?;
    assert_eq!((mine["taskName"].as_str(), mine["status"].as_i64()), (Some("年会开场 副本"), Some(10)), "{mine}");
    assert!(mine["videoRelativePath"].as_str().is_some_and(|p| !p.is_empty()), "the copy has its own video: {mine}");
    let hers = data(s.call(Method::GET, &format!("/videotask/ofone/{work}"), &ann)).await?;
    assert_eq!((hers["taskName"].as_str(), hers["version"].as_i64()), (Some("年会开场"), Some(1)), "{hers}");

    // Bob may not take Ann's share out; the enterprise administrator may, and sees the members.
    refused(&s, &bob, "/enterprise/unshare", json!({"shareId": share}), 4001, "the sharer").await?;
    let boss_view = space(&s, &boss).await?;
    assert_eq!((boss_view["admin"].as_bool(), boss_view["enterprise"]["members"].as_array().map(Vec::len)), (Some(true), Some(3)), "{boss_view}");
    data(s.call(Method::POST, "/enterprise/unshare", &boss).json(&json!({"shareId": share}))).await?;
    refused(&s, &boss, "/enterprise/unshare", json!({"shareId": share}), 3000, &format!("shareId: share {share} does not exist")).await?;

    // The enterprise administrator adds and removes members of their own enterprise only; a removed
    // member's shares go with them.
    data(s.call(Method::POST, "/enterprise/member/add", &boss).json(&json!({"userId": outsider.user_id}))).await?;
    refused(&s, &boss, "/enterprise/member/add", json!({"enterpriseId": other, "userId": outsider.user_id}), 3000, &format!("enterpriseId: enterprise {other} does not exist")).await?;
    data(s.call(Method::POST, "/enterprise/member/remove", &boss).json(&json!({"userId": ann.user_id}))).await?;
    refused(&s, &boss, "/enterprise/member/remove", json!({"userId": ann.user_id}), 3000, "is not a member of 星河传媒").await?;
    let after = space(&s, &bob).await?;
    assert_eq!(after["shares"].as_array().map(Vec::len), Some(0), "Ann's material left with her: {after}");
    assert!(space(&s, &ann).await?["enterprise"].is_null(), "Ann is in no enterprise now");

    // The administrator's list: both enterprises, with their members.
    let list = data(s.call(Method::GET, "/manage/enterprise/list", &admin)).await?;
    let counts: Vec<(Option<&str>, Option<i64>)> = list.as_array().ok_or("list")?.iter().map(|e| (e["name"].as_str(), e["memberCount"].as_i64())).collect();
    assert_eq!(counts, vec![(Some("星河传媒"), Some(3)), (Some("别家"), Some(0))], "{list}");
    refused(&s, &bob, "/manage/enterprise/save", json!({"id": id, "name": "改名"}), 4001, "administrator").await?;
    Ok(())
}

#[tokio::test]
async fn the_openapi_document_lists_the_enterprise_routes() -> Fallible<()> {
    let s = common::start().await?;
    let doc: Value = reqwest::get(format!("{}/openapi.json", s.base)).await?.json().await?;
    for (path, method) in [
        ("/diyvrbt/enterprise/space", "get"),
        ("/diyvrbt/enterprise/share", "post"),
        ("/diyvrbt/enterprise/unshare", "post"),
        ("/diyvrbt/enterprise/copy", "post"),
        ("/diyvrbt/enterprise/member/add", "post"),
        ("/diyvrbt/enterprise/member/remove", "post"),
        ("/diyvrbt/enterprise/media/{id}/{part}", "get"),
        ("/diyvrbt/manage/enterprise/list", "get"),
        ("/diyvrbt/manage/enterprise/save", "post"),
    ] {
        assert!(doc["paths"][path][method].is_object(), "{method} {path} is documented");
    }
    Ok(())
}

common::on_both_backends!(members_share_works_and_materials_and_copy_them);
