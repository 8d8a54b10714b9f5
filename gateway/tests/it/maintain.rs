//! The maintenance area's calls (issue 29): administrators keep the category tree (duplicate names
//! and categories in use refused, saying where) and the tenant's system library (upload into a
//! starter category, offered to every user at once; rename, move, retire); a user who is no
//! administrator gets 4001 and changes nothing; another tenant's material is not found.

use crate::common;

use common::{Fallible, data, envelope};
use reqwest::Method;
use serde_json::{Value, json};

fn slotted_rule() -> Value {
    let mut rule = common::rule();
    rule["scenes"][0]["layers"] = json!([{"type": "word", "id": "title", "startTime": 0, "endTime": 2, "w": 200, "h": 60,
        "canModify": 1, "content": "标题", "maxLength": 4}]);
    rule
}

fn desc(v: &Value) -> &str {
    v["desc"].as_str().unwrap_or_default()
}

async fn administrators_keep_the_category_tree(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let admin = s.user("qs", "admin", 0).await?;
    let maker = s.user("qs", "maker", 8).await?;
    let root = data(s.call(Method::POST, "/category/taskvideo", &admin).json(&json!({"categoryName": "餐饮", "dimension": "industry"}))).await?;
    let root_id = root["categoryId"].as_i64().ok_or("id")?;
    let tea = data(s.call(Method::POST, "/category/taskvideo", &admin).json(&json!({"categoryName": "茶饮", "dimension": "industry", "higherUpId": root_id}))).await?;
    let tea_id = tea["categoryId"].as_i64().ok_or("id")?;
    let coffee = data(s.call(Method::POST, "/category/taskvideo", &admin).json(&json!({"categoryName": "咖啡", "dimension": "industry", "higherUpId": root_id}))).await?;
    let coffee_id = coffee["categoryId"].as_i64().ok_or("id")?;

    // A duplicate name beside another is refused, on create and on rename.
    let twin = envelope(s.call(Method::POST, "/category/taskvideo", &admin).json(&json!({"categoryName": " 餐饮 ", "dimension": "industry"}))).await?;
    assert_eq!(twin["code"], 3000, "{twin}");
    assert!(desc(&twin).contains("categoryName") && desc(&twin).contains("already exists"), "{twin}");
    let renamed = envelope(s.call(Method::POST, "/category/updatename", &admin).json(&json!({"categoryId": coffee_id, "categoryName": "茶饮"}))).await?;
    assert!(renamed["code"] == 3000 && desc(&renamed).contains("already exists"), "{renamed}");
    data(s.call(Method::POST, "/category/updatename", &admin).json(&json!({"categoryId": coffee_id, "categoryName": "咖啡馆"}))).await?;
    data(s.call(Method::POST, "/category/setPush", &admin).json(&json!({"ids": [root_id], "push": true}))).await?;

    // A user who is neither administrator nor template manager changes nothing.
    for (path, body) in [
        ("/category/taskvideo", json!({"categoryName": "x", "dimension": "use"})),
        ("/category/updatename", json!({"categoryId": root_id, "categoryName": "x"})),
        ("/category/setPush", json!({"ids": [root_id], "push": false})),
        ("/category/taskvideo/delete", json!({"categoryId": root_id})),
    ] {
        let r = envelope(s.call(Method::POST, path, &maker).json(&body)).await?;
        assert_eq!(r["code"], 4001, "{path}: {r}");
    }

    // A template filed under a child keeps the parent, and the child, from being deleted.
    let task = data(s.call(Method::POST, "/videotask/save", &maker).json(&json!({"taskInfo": slotted_rule().to_string(), "name": "开业大吉"})))
        .await?
        .as_i64()
        .ok_or("task id")?;
    data(s.call(Method::POST, "/template/submit", &maker).json(&json!({"taskId": task, "kind": "classic", "categoryIds": tea_id.to_string()}))).await?;
    for id in [root_id, tea_id] {
        let refused = envelope(s.call(Method::POST, "/category/taskvideo/delete", &admin).json(&json!({"categoryId": id}))).await?;
        assert_eq!(refused["code"], 3000, "{refused}");
        assert!(desc(&refused).contains("in use") && desc(&refused).contains("开业大吉") && desc(&refused).contains("1 template"), "{refused}");
    }
    let tree = data(s.call(Method::GET, "/category/taskvideo?dimension=industry", &maker)).await?;
    let first = &tree["dataList"][0];
    assert_eq!((first["categoryName"].as_str(), first["push"].as_bool(), first["children"].as_array().map(Vec::len)), (Some("餐饮"), Some(true), Some(2)), "{tree}");
    assert_eq!(first["children"][1]["categoryName"], "咖啡馆", "{tree}");

    // An unused child goes; another tenant's template does not count.
    let other = s.user("cc", "other-maker", 8).await?;
    let theirs = data(s.call(Method::POST, "/videotask/save", &other).json(&json!({"taskInfo": slotted_rule().to_string(), "name": "别家"})))
        .await?
        .as_i64()
        .ok_or("task id")?;
    data(s.call(Method::POST, "/template/submit", &other).json(&json!({"taskId": theirs, "kind": "classic", "categoryIds": coffee_id.to_string()}))).await?;
    data(s.call(Method::POST, "/category/taskvideo/delete", &admin).json(&json!({"categoryId": coffee_id}))).await?;
    let tree = data(s.call(Method::GET, "/category/taskvideo?dimension=industry", &maker)).await?;
    assert_eq!(tree["dataList"][0]["children"].as_array().map(Vec::len), Some(1), "{tree}");
    Ok(())
}

/// `user`'s system materials of `category` as the editor lists them.
async fn offered(s: &common::System, user: &common::User, body: Value) -> Fallible<Vec<String>> {
    let page = data(s.call(Method::POST, "/material/ofdefault", user).json(&body)).await?;
    Ok(page["dataList"].as_array().ok_or("list")?.iter().filter_map(|m| m["id"].as_str().map(str::to_owned)).collect())
}

async fn administrators_keep_the_system_library(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let admin = s.user("qs", "admin", 0).await?;
    let user = s.user("qs", "user", 8).await?;
    let manager = s.user("qs", "manager", 3).await?;

    // Uploaded into the still backgrounds, it is a background of every user's library once probed.
    let id = common::upload_system(&s, &admin, "3001", "晚霞.png", common::PNG).await?;
    let m = common::settled(&s, &user, &id).await?;
    assert_eq!((m["state"].as_str(), m["type"].as_str(), m["categoryId"].as_i64(), m["openState"].as_i64()), (Some("ready"), Some("backgrounds"), Some(3001), Some(1)), "{m}");
    assert!(m["coverUrl"].as_str().is_some_and(|u| !u.is_empty()), "probed as a picture: {m}");
    assert!(offered(&s, &user, json!({"type": "backgrounds", "categoryId": -1})).await?.contains(&id), "in the user's backgrounds");
    let usage = data(s.call(Method::GET, "/material/quota", &admin)).await?;
    assert_eq!(usage["materials"], 0, "a system material is nobody's share: {usage}");

    // Bad uploads: an unknown category, a file the category does not take, no category at all.
    let prefix = reelforge_kit::blob::system_material_prefix("qs");
    let stored = || async { s.blobs.list(&prefix).await.map(|mut keys| { keys.sort(); keys }) };
    let before = stored().await?;
    for (category, name, bytes, says) in [
        ("1200", "x.png", common::PNG, "not a system category"),
        ("6001", "x.png", common::PNG, "does not go into category 6001"),
    ] {
        let (ct, body) = common::multipart(&[("categoryId", None, category.as_bytes()), ("uploadFile", Some(name), bytes)]);
        let r = envelope(s.call(Method::POST, "/maintain/material/upload", &admin).header("Content-Type", ct).body(body)).await?;
        assert!(r["code"] == 3000 && desc(&r).contains(says), "{category}: {r}");
    }
    let (ct, body) = common::multipart(&[("uploadFile", Some("x.png"), common::PNG)]);
    let r = envelope(s.call(Method::POST, "/maintain/material/upload", &admin).header("Content-Type", ct).body(body)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("categoryId"), "{r}");
    assert_eq!(stored().await?, before, "refused uploads leave nothing");

    // Rename and move among the categories listing the same kind; a move to another kind is refused.
    data(s.call(Method::POST, "/maintain/material/update", &admin).json(&json!({"materialIds": id, "materialName": "晚霞 2"}))).await?;
    let moved = envelope(s.call(Method::POST, "/maintain/material/update", &admin).json(&json!({"materialIds": [id], "categoryId": 6001}))).await?;
    assert!(moved["code"] == 3000 && desc(&moved).contains("lists audio"), "{moved}");
    let empty = envelope(s.call(Method::POST, "/maintain/material/update", &admin).json(&json!({"materialIds": id}))).await?;
    assert!(empty["code"] == 3000 && desc(&empty).contains("nothing to change"), "{empty}");

    // Retired, it leaves the libraries and stays in the maintenance list; restored, it is back.
    data(s.call(Method::POST, "/maintain/material/update", &admin).json(&json!({"materialIds": id, "openState": 0}))).await?;
    assert!(!offered(&s, &user, json!({"type": "backgrounds"})).await?.contains(&id), "a retired material is not offered");
    assert!(!offered(&s, &user, json!({"type": "backgrounds", "openState": 0})).await?.contains(&id), "not even when asked for");
    let listed = data(s.call(Method::POST, "/maintain/material/list", &admin).json(&json!({"categoryId": 3001}))).await?;
    let row = listed["dataList"].as_array().ok_or("list")?.iter().find(|m| m["id"] == id.as_str()).cloned().ok_or("in the maintenance list")?;
    assert_eq!((row["materialName"].as_str(), row["openState"].as_i64()), (Some("晚霞 2"), Some(0)), "{row}");
    let info = data(s.call(Method::POST, &format!("/material/info/{id}"), &user)).await?;
    assert_eq!(info["id"], id.as_str(), "documents naming it still resolve it");
    data(s.call(Method::POST, "/maintain/material/update", &admin).json(&json!({"materialIds": id, "openState": 1}))).await?;
    assert!(offered(&s, &user, json!({"type": "backgrounds"})).await?.contains(&id));
    let bad = envelope(s.call(Method::POST, "/maintain/material/update", &admin).json(&json!({"materialIds": id, "openState": 2}))).await?;
    assert!(bad["code"] == 3000 && desc(&bad).contains("openState"), "{bad}");

    // A user's own material is no system material.
    let own = common::upload(&s, &user, "mine.png", common::PNG).await?;
    let r = envelope(s.call(Method::POST, "/maintain/material/update", &admin).json(&json!({"materialIds": own, "materialName": "x"}))).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("does not exist"), "{r}");

    // Users who are not administrators, template managers included, get 4001 and change nothing.
    for caller in [&user, &manager] {
        let (ct, body) = common::multipart(&[("categoryId", None, b"3001"), ("uploadFile", Some("x.png"), common::PNG)]);
        let r = envelope(s.call(Method::POST, "/maintain/material/upload", caller).header("Content-Type", ct).body(body)).await?;
        assert_eq!(r["code"], 4001, "{r}");
        let r = envelope(s.call(Method::POST, "/maintain/material/list", caller).json(&json!({}))).await?;
        assert_eq!(r["code"], 4001, "{r}");
        let r = envelope(s.call(Method::POST, "/maintain/material/update", caller).json(&json!({"materialIds": id, "openState": 0}))).await?;
        assert_eq!(r["code"], 4001, "{r}");
    }
    assert!(offered(&s, &user, json!({"type": "backgrounds"})).await?.contains(&id), "still offered");
    assert_eq!(stored().await?, before, "nothing stored for them");
    Ok(())
}

common::on_both_backends!(administrators_keep_the_category_tree, administrators_keep_the_system_library);
