//! The library calls through the gateway over real PostgreSQL: fonts (system list, upload parsed
//! before storing, file served, glyph test, owner-only delete), the category tree with its role
//! rules, favourites and the search history.

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;
use serde_json::json;

const CJK_TEXT: &str = "Hi 你好世界";

async fn upload(s: &System, user: &User, file_name: &str, bytes: &[u8]) -> Fallible<serde_json::Value> {
    let (ct, body) = common::multipart(&[("file", Some(file_name), bytes), ("userId", None, b"someone-else")]);
    envelope(s.call(Method::POST, "/font/upload", user).header("Content-Type", ct).body(body)).await
}

async fn font_keys(s: &System, user: &User) -> Fallible<Vec<String>> {
    Ok(s.blobs.list(&format!("t/{}/u/{}/fonts/", user.tenant, user.user_id)).await.unwrap_or_default())
}

#[tokio::test]
async fn system_fonts_are_listed_by_id_without_paths() -> Fallible<()> {
    let s = common::start_postgres().await?;
    let me = s.user("qs", "fonts", 7).await?;
    let fonts = data(s.call(Method::GET, "/font/ofdefault", &me)).await?;
    let list = fonts.as_array().ok_or("a list")?;
    assert!(!list.is_empty(), "the machine's fonts are listed: {fonts}");
    let text = fonts.to_string();
    assert!(!text.contains("/usr/") && !text.contains(".ttc\"") && !text.contains("share/fonts"), "no path is shown: {text}");
    for f in list {
        let id = f["id"].as_str().ok_or("id")?;
        assert!(id.starts_with("sys-") && f["system"] == true, "{f}");
        assert_eq!(f["relativePath"], format!("/font/file/{id}"));
    }
    let again = data(s.call(Method::GET, "/font/ofdefault", &me)).await?;
    assert_eq!(fonts, again, "ids are stable");
    let noto = list
        .iter()
        .find(|f| f["name"].as_str().is_some_and(|n| n.starts_with("Noto Sans CJK")) && f["style"] == "Regular")
        .ok_or("Noto Sans CJK is listed (fonts-noto-cjk, installed by the Makefile)")?;
    // Noto CJK draws the Chinese text: nothing is missing.
    let r = data(s.call(Method::POST, "/font/test", &me).json(&json!({"text": CJK_TEXT, "fontId": noto["id"]}))).await?;
    assert_eq!((r["ok"].as_bool(), r["missing"].as_str()), (Some(true), Some("")), "{r}");
    let file = s.call(Method::GET, &format!("/font/file/{}", noto["id"].as_str().ok_or("id")?), &me).send().await?;
    assert_eq!(file.headers().get("content-type").and_then(|v| v.to_str().ok()), Some("font/collection"));
    assert_eq!(file.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("public, max-age=86400"));
    assert!(file.bytes().await?.starts_with(b"ttcf"));
    Ok(())
}

#[tokio::test]
async fn a_font_upload_is_parsed_stored_served_tested_and_deleted_by_its_owner() -> Fallible<()> {
    let s = common::start_postgres().await?;
    let me = s.user("qs", "owner", 7).await?;
    let neighbour = s.user("qs", "neighbour", 7).await?;
    let latin = common::latin_font()?;

    let up = upload(&s, &me, "../../etc/my font.ttf", &latin).await?;
    assert_eq!(up["code"], 2000, "{up}");
    let font = &up["data"];
    let id = font["id"].as_str().ok_or("id")?.to_owned();
    assert_eq!(font["system"], false);
    assert!(!font["name"].as_str().unwrap_or_default().is_empty(), "the family name is read from the file: {font}");
    let keys = font_keys(&s, &me).await?;
    assert_eq!(keys.len(), 1, "{keys:?}");
    assert!(keys[0].ends_with(&format!("fonts/{id}.{}", font["format"].as_str().ok_or("format")?)), "server-made key: {keys:?}");
    assert!(font_keys(&s, &neighbour).await?.is_empty(), "the userId field is not trusted");

    let mine = data(s.call(Method::GET, &format!("/font/ofuseranddefault/{}", me.user_id), &me)).await?;
    let mine = mine.as_array().ok_or("a list")?;
    assert_eq!(mine[0]["id"], id.as_str(), "the upload first");
    assert!(mine.iter().skip(1).all(|f| f["system"] == true), "then the system fonts");

    // The glyph test: the Latin font lacks the Chinese characters, once each, in text order.
    let r = data(s.call(Method::POST, "/font/test", &me).json(&json!({"text": "你好 Hi 你好世界!", "fontId": id}))).await?;
    assert_eq!((r["ok"].as_bool(), r["missing"].as_str()), (Some(false), Some("你好世界")), "{r}");
    let r = data(s.call(Method::POST, "/font/test", &me).form(&[("text", "Hello, world"), ("fontId", id.as_str())])).await?;
    assert_eq!((r["ok"].as_bool(), r["missing"].as_str()), (Some(true), Some("")), "{r}");

    let file = s.call(Method::GET, &format!("/font/file/{id}"), &me).send().await?;
    assert!(file.headers().get("content-type").and_then(|v| v.to_str().ok()).is_some_and(|t| t.starts_with("font/")));
    assert_eq!(file.headers().get("cache-control").and_then(|v| v.to_str().ok()), Some("private, max-age=86400"));
    assert_eq!(file.bytes().await?.to_vec(), latin, "the same bytes come back");

    // Another user of the tenant reaches none of it.
    for answer in [
        envelope(s.call(Method::GET, &format!("/font/file/{id}"), &neighbour)).await?,
        envelope(s.call(Method::POST, "/font/test", &neighbour).json(&json!({"text": "x", "fontId": id}))).await?,
        envelope(s.call(Method::POST, "/font/delete", &neighbour).json(&json!({"id": id}))).await?,
        envelope(s.call(Method::GET, &format!("/font/ofuseranddefault/{}", me.user_id), &neighbour)).await?,
    ] {
        assert_eq!(answer["code"], 3000, "{answer}");
        assert!(answer["desc"].as_str().unwrap_or_default().contains("not"), "{answer}");
    }
    let theirs = data(s.call(Method::GET, &format!("/font/ofuseranddefault/{}", neighbour.user_id), &neighbour)).await?;
    assert!(theirs.as_array().ok_or("list")?.iter().all(|f| f["id"] != id.as_str()));

    // The owner deletes it with the legacy multipart body: row and file go.
    let (ct, body) = common::multipart(&[("id", None, id.as_bytes())]);
    let gone = envelope(s.call(Method::DELETE, "/font/delete", &me).header("Content-Type", ct).body(body)).await?;
    assert_eq!(gone["code"], 2000, "{gone}");
    assert!(font_keys(&s, &me).await?.is_empty(), "the file is removed");
    let mine = data(s.call(Method::GET, &format!("/font/ofuseranddefault/{}", me.user_id), &me)).await?;
    assert!(mine.as_array().ok_or("list")?.iter().all(|f| f["system"] == true));
    let again = envelope(s.call(Method::POST, "/font/delete", &me).json(&json!({"id": id}))).await?;
    assert_eq!(again["code"], 3000, "{again}");
    Ok(())
}

#[tokio::test]
async fn a_file_that_is_not_a_font_is_refused_and_nothing_is_stored() -> Fallible<()> {
    let s = common::start_postgres().await?;
    let me = s.user("qs", "bad-font", 7).await?;
    let latin = common::latin_font()?;
    let mut truncated = latin.clone();
    truncated.truncate(64);
    for (name, bytes, expect) in [
        ("evil.ttf", b"MZ\x90\x00 an exe renamed".to_vec(), "not a font"),
        ("cut.ttf", truncated, "does not parse"),
        ("empty.ttf", Vec::new(), "empty"),
    ] {
        let r = upload(&s, &me, name, &bytes).await?;
        assert_eq!(r["code"], 3000, "{name}: {r}");
        assert!(r["desc"].as_str().unwrap_or_default().contains(expect), "{name}: {r}");
    }
    let missing = envelope(s.call(Method::POST, "/font/upload", &me).header("Content-Type", common::multipart(&[("id", None, b"1")]).0).body(common::multipart(&[("id", None, b"1")]).1)).await?;
    assert_eq!(missing["code"], 3000);
    assert!(font_keys(&s, &me).await?.is_empty(), "no object was stored");
    let mine = data(s.call(Method::GET, &format!("/font/ofuseranddefault/{}", me.user_id), &me)).await?;
    assert!(mine.as_array().ok_or("list")?.iter().all(|f| f["system"] == true), "no row was stored");
    Ok(())
}

#[tokio::test]
async fn the_category_tree_keeps_two_levels_and_template_managers_change_it() -> Fallible<()> {
    let s = common::start_postgres().await?;
    let manager = s.user("qs", "manager", 3).await?; // operationsManager: role TEMPLATE_MANAGER
    let maker = s.user("qs", "maker", 7).await?;
    let root = data(s.call(Method::POST, "/category/taskvideo", &manager).json(&json!({"categoryName": "餐饮", "dimension": "industry"}))).await?;
    let root_id = root["categoryId"].as_i64().ok_or("id")?;
    assert_eq!(root["higherUpId"], -1, "higherUpId defaults to -1");
    let child = data(s.call(Method::POST, "/category/taskvideo", &manager).form(&[("categoryName", "茶饮"), ("dimension", "industry"), ("higherUpId", &root_id.to_string())])).await?;
    let child_id = child["categoryId"].as_i64().ok_or("id")?;
    let third = envelope(s.call(Method::POST, "/category/taskvideo", &manager).json(&json!({"categoryName": "x", "dimension": "industry", "higherUpId": child_id}))).await?;
    assert_eq!(third["code"], 3000);
    assert!(third["desc"].as_str().unwrap_or_default().contains("two levels"), "{third}");
    let bad = envelope(s.call(Method::POST, "/category/taskvideo", &manager).json(&json!({"categoryName": "x", "dimension": "colour"}))).await?;
    assert!(bad["desc"].as_str().unwrap_or_default().contains("dimension"), "{bad}");

    // Writers other than template managers are refused, setPush included; reading is open.
    for (path, body) in [
        ("/category/taskvideo", json!({"categoryName": "x", "dimension": "use"})),
        ("/category/updatename", json!({"categoryId": root_id, "categoryName": "x"})),
        ("/category/setPush", json!({"ids": [root_id], "push": true})),
        ("/category/taskvideo/delete", json!({"categoryId": root_id})),
    ] {
        let r = envelope(s.call(Method::POST, path, &maker).json(&body)).await?;
        assert_eq!(r["code"], 4001, "{path}: {r}");
    }

    data(s.call(Method::POST, "/category/updatename", &manager).json(&json!({"categoryId": child_id, "categoryName": "奶茶"}))).await?;
    data(s.call(Method::POST, "/category/setPush", &manager).form(&[("ids", format!("{root_id},{child_id}")), ("push", "true".into())])).await?;
    let unknown = envelope(s.call(Method::POST, "/category/setPush", &manager).json(&json!({"ids": [root_id, 999_999], "push": false}))).await?;
    assert_eq!(unknown["code"], 3000);
    assert!(unknown["desc"].as_str().unwrap_or_default().contains("999999"), "{unknown}");
    let tree = data(s.call(Method::GET, "/category/taskvideo?dimension=industry", &maker)).await?;
    let first = &tree["dataList"][0];
    assert_eq!((first["push"].as_bool(), first["children"][0]["categoryName"].as_str()), (Some(true), Some("奶茶")), "{tree}");
    assert_eq!(first["children"][0]["push"], true, "an unknown id changed nothing, and both were pushed before: {tree}");

    let audio = data(s.call(Method::POST, "/category/taskvideo", &manager).json(&json!({"categoryName": "欢快", "dimension": "audio"}))).await?;
    let audios = data(s.call(Method::GET, "/category/audio", &maker)).await?;
    assert_eq!(audios["dataList"].as_array().map(|l| l.iter().map(|c| c["categoryId"].clone()).collect::<Vec<_>>()), Some(vec![audio["categoryId"].clone()]));

    // Deleting a first-level category takes its children with it.
    data(s.call(Method::POST, "/category/taskvideo/delete", &manager).json(&json!({"categoryId": root_id}))).await?;
    let tree = data(s.call(Method::GET, "/category/taskvideo?dimension=industry", &maker)).await?;
    assert_eq!(tree["dataList"].as_array().map(Vec::len), Some(0), "{tree}");
    let renamed = envelope(s.call(Method::POST, "/category/updatename", &manager).json(&json!({"categoryId": child_id, "categoryName": "x"}))).await?;
    assert_eq!(renamed["code"], 3000, "the child went too: {renamed}");
    Ok(())
}

#[tokio::test]
async fn favourites_are_idempotent_and_only_the_callers_own() -> Fallible<()> {
    let s = common::start_postgres().await?;
    let me = s.user("qs", "fan", 7).await?;
    let other = s.user("qs", "other-fan", 7).await?;
    for _ in 0..2 {
        let r = envelope(s.call(Method::POST, "/favorite/add", &me).form(&[("id", "m-1"), ("type", "picture"), ("phoneNumber", &other.user_id)])).await?;
        assert_eq!((r["code"].as_i64(), r["desc"].as_str()), (Some(2000), Some("收藏成功")), "{r}");
    }
    data(s.call(Method::POST, "/favorite/add", &me).json(&json!({"id": "f-1", "type": "font"}))).await?;
    let pictures = data(s.call(Method::POST, "/favorite/list", &me).json(&json!({"type": "picture", "phoneNumber": other.user_id}))).await?;
    let pictures = pictures.as_array().ok_or("list")?;
    assert_eq!(pictures.len(), 1, "adding twice keeps one: {pictures:?}");
    assert_eq!((pictures[0]["id"].as_str(), pictures[0]["type"].as_str()), (Some("m-1"), Some("picture")));
    assert!(pictures[0]["createdMs"].as_i64().is_some_and(|t| t > 0));
    let theirs = data(s.call(Method::POST, "/favorite/list", &other).json(&json!({}))).await?;
    assert_eq!(theirs.as_array().map(Vec::len), Some(0), "the phone number in the body named no one");
    let bad = envelope(s.call(Method::POST, "/favorite/list", &me).json(&json!({"type": "rocket"}))).await?;
    assert_eq!(bad["code"], 3000);
    let r = envelope(s.call(Method::POST, "/favorite/remove", &me).json(&json!({"id": "m-1", "type": "picture"}))).await?;
    assert_eq!((r["code"].as_i64(), r["desc"].as_str()), (Some(2000), Some("取消收藏")), "{r}");
    let all = data(s.call(Method::POST, "/favorite/list", &me).json(&json!({}))).await?;
    assert_eq!(all.as_array().map(|l| l.iter().map(|f| f["id"].clone()).collect::<Vec<_>>()), Some(vec![json!("f-1")]));
    Ok(())
}

#[tokio::test]
async fn the_search_history_keeps_the_newest_ten_once_each() -> Fallible<()> {
    let s = common::start_postgres().await?;
    let me = s.user("qs", "searcher", 7).await?;
    let other = s.user("qs", "other-searcher", 7).await?;
    for i in 0..12 {
        data(s.call(Method::POST, "/search/history/add", &me).form(&[("keyword", format!("词{i}"))])).await?;
    }
    let h = data(s.call(Method::POST, "/search/history/add", &me).json(&json!({"keyword": "  词5 "}))).await?;
    let expected: Vec<String> = std::iter::once("词5".to_owned()).chain((2..12).rev().filter(|i| *i != 5).map(|i| format!("词{i}"))).collect();
    assert_eq!(h["keywords"], json!(expected), "10 newest first, a repeat moves to the front");
    let listed = data(s.call(Method::GET, "/search/history", &me)).await?;
    assert_eq!(listed["keywords"], json!(expected));
    let empty = envelope(s.call(Method::POST, "/search/history/add", &me).json(&json!({"keyword": "   "}))).await?;
    assert_eq!(empty["code"], 3000);
    assert_eq!(data(s.call(Method::GET, "/search/history", &other)).await?["keywords"], json!([]), "each user has their own");
    data(s.call(Method::POST, "/search/history/clear", &me)).await?;
    assert_eq!(data(s.call(Method::GET, "/search/history", &me)).await?["keywords"], json!([]));
    Ok(())
}
