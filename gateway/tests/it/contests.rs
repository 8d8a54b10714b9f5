//! Contests (issue 30): a template manager opens a contest; users enter a rendered work each while
//! it is open (one per contest; withdrawn, another), like others' entries once; the entries' works
//! play through signed addresses; once closed the result ranks them by likes or by the judges'
//! scores. Every refusal names what was wrong and changes nothing; others' roles get 4001.

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;
use serde_json::{Value, json};

fn desc(v: &Value) -> &str {
    v["desc"].as_str().unwrap_or_default()
}

async fn rendered(s: &System, u: &User, name: &str) -> Fallible<i64> {
    let id = unrendered(s, u, name).await?;
    common::finish_task(s, u, id).await?;
    Ok(id)
}

async fn unrendered(s: &System, u: &User, name: &str) -> Fallible<i64> {
    let body = json!({"taskInfo": common::rule().to_string(), "name": name});
    Ok(data(s.call(Method::POST, "/videotask/save", u).json(&body)).await?.as_i64().ok_or("task id")?)
}

async fn refused(s: &System, u: &User, path: &str, body: Value, says: &str) -> Fallible<()> {
    let r = envelope(s.call(Method::POST, path, u).json(&body)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains(says), "{path} {body}: expected `{says}`: {r}");
    Ok(())
}

fn ids(detail: &Value) -> Vec<(i64, Option<i64>)> {
    detail["entries"].as_array().map(|l| l.iter().map(|e| (e["id"].as_i64().unwrap_or_default(), e["rank"].as_i64())).collect()).unwrap_or_default()
}

async fn a_contest_takes_entries_and_likes_then_ranks_them(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let manager = s.user("qs", "judge", 3).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let bob = s.user("qs", "bob", 8).await?;
    let now = reelforge_kit::db::now_millis();
    let open = json!({"title": " 春节拜年 ", "theme": "拜年视频", "rules": "15 秒以内", "startMs": now - 60_000, "endMs": now + 3_600_000, "ranking": "likes"});

    // Bad saves name the field; a user who is no manager gets 4001.
    for (patch, says) in [
        (json!({"title": ""}), "title: required"),
        (json!({"endMs": now - 60_000}), "endMs: the end must be after the start"),
        (json!({"ranking": "votes"}), "ranking: `votes` is not likes or scores"),
        (json!({"templateId": 999_999}), "templateId: template 999999 does not exist"),
    ] {
        let mut body = open.clone();
        body.as_object_mut().ok_or("body")?.extend(patch.as_object().cloned().unwrap_or_default());
        refused(&s, &manager, "/manage/contest/save", body, says).await?;
    }
    let r = envelope(s.call(Method::POST, "/manage/contest/save", &ann).json(&open)).await?;
    assert_eq!(r["code"], 4001, "{r}");
    let contest = data(s.call(Method::POST, "/manage/contest/save", &manager).json(&open)).await?;
    let id = contest["id"].as_i64().ok_or("contest id")?;
    assert_eq!((contest["title"].as_str(), contest["state"].as_str(), contest["entryCount"].as_i64()), (Some("春节拜年"), Some("open"), Some(0)), "{contest}");
    let listed = data(s.call(Method::GET, "/contest/list", &ann)).await?;
    assert_eq!(listed[0]["id"].as_i64(), Some(id), "{listed}");

    // Entries: a rendered work of one's own, once; a work with no video, or someone else's, refused.
    let ann_work = rendered(&s, &ann, "安的拜年").await?;
    let ann_entry = data(s.call(Method::POST, "/contest/submit", &ann).json(&json!({"contestId": id, "taskId": ann_work}))).await?;
    assert_eq!((ann_entry["taskName"].as_str(), ann_entry["mine"].as_bool(), ann_entry["likes"].as_i64()), (Some("安的拜年"), Some(true), Some(0)), "{ann_entry}");
    let ann_entry = ann_entry["id"].as_i64().ok_or("entry id")?;
    refused(&s, &ann, "/contest/submit", json!({"contestId": id, "taskId": ann_work}), &format!("you already entered contest {id} (entry {ann_entry})")).await?;
    let draft = unrendered(&s, &bob, "草稿").await?;
    refused(&s, &bob, "/contest/submit", json!({"contestId": id, "taskId": draft}), &format!("taskId: task {draft} has no video yet")).await?;
    refused(&s, &bob, "/contest/submit", json!({"contestId": id, "taskId": ann_work}), &format!("taskId: task {ann_work} does not exist")).await?;
    let bob_work = rendered(&s, &bob, "鲍勃的拜年").await?;
    let bob_entry = data(s.call(Method::POST, "/contest/submit", &bob).json(&json!({"contestId": id, "taskId": bob_work}))).await?["id"].as_i64().ok_or("entry id")?;

    // Withdrawn, entered again: a new entry.
    data(s.call(Method::POST, "/contest/withdraw", &ann).json(&json!({"entryId": ann_entry}))).await?;
    refused(&s, &bob, "/contest/withdraw", json!({"entryId": bob_entry + 1_000}), "does not exist").await?;
    let ann_entry = data(s.call(Method::POST, "/contest/submit", &ann).json(&json!({"contestId": id, "taskId": ann_work}))).await?["id"].as_i64().ok_or("entry id")?;

    // Likes: once, never one's own.
    let liked = data(s.call(Method::POST, "/contest/like", &ann).json(&json!({"entryId": bob_entry}))).await?;
    assert_eq!((liked["likes"].as_i64(), liked["liked"].as_bool(), liked["mine"].as_bool()), (Some(1), Some(true), Some(false)), "{liked}");
    refused(&s, &ann, "/contest/like", json!({"entryId": bob_entry}), &format!("you already liked entry {bob_entry}")).await?;
    refused(&s, &ann, "/contest/like", json!({"entryId": ann_entry}), &format!("entry {ann_entry} is your own")).await?;

    // Everyone of the tenant sees the entries, newest first, unranked, with their works playing.
    let detail = data(s.call(Method::GET, &format!("/contest/{id}"), &manager)).await?;
    assert_eq!(ids(&detail), vec![(ann_entry, None), (bob_entry, None)], "{detail}");
    let video = detail["entries"][1]["videoUrl"].as_str().ok_or("video url")?.to_owned();
    assert!(video.starts_with(&format!("/diyvrbt/contest/media/{bob_entry}/video?ticket=")), "{video}");
    let origin = s.base.trim_end_matches("/diyvrbt");
    let get = |url: &str| reqwest::Client::new().get(format!("{origin}{url}")).header("X-Variant", "qs");
    let bytes = get(&video).send().await?.bytes().await?;
    assert_eq!(bytes.to_vec(), common::ring_clip()?.to_vec(), "the entry's video plays");
    let other_entry = video.replace(&format!("/media/{bob_entry}/"), &format!("/media/{ann_entry}/"));
    let r: Value = get(&other_entry).send().await?.json().await?;
    assert!(r["code"] == 3000 && desc(&r).contains("does not exist"), "a ticket shows its own entry only: {r}");

    // A contest with entries is not deleted, nor its ranking changed; scores are for scores contests.
    refused(&s, &manager, "/manage/contest/delete", json!({"id": id}), &format!("contest {id} has 2 entries")).await?;
    let mut scores = open.clone();
    scores["id"] = json!(id);
    scores["ranking"] = json!("scores");
    refused(&s, &manager, "/manage/contest/save", scores, &format!("ranking: contest {id} already has entries")).await?;
    refused(&s, &manager, "/manage/contest/score", json!({"entryId": bob_entry, "score": 90}), &format!("contest {id} is ranked by likes")).await?;

    // Closed (the manager moves its end into the past): no entries, likes or withdrawals; ranked.
    let mut closed = open.clone();
    closed["id"] = json!(id);
    closed["startMs"] = json!(now - 7_200_000);
    closed["endMs"] = json!(now - 1_000);
    assert_eq!(data(s.call(Method::POST, "/manage/contest/save", &manager).json(&closed)).await?["state"], "closed");
    refused(&s, &bob, "/contest/like", json!({"entryId": ann_entry}), &format!("contest {id} is closed: likes ended at")).await?;
    refused(&s, &ann, "/contest/withdraw", json!({"entryId": ann_entry}), "withdrawals ended at").await?;
    let late = rendered(&s, &manager, "迟到").await?;
    refused(&s, &manager, "/contest/submit", json!({"contestId": id, "taskId": late}), "entries ended at").await?;
    let result = data(s.call(Method::GET, &format!("/contest/{id}"), &ann)).await?;
    assert_eq!(ids(&result), vec![(bob_entry, Some(1)), (ann_entry, Some(2))], "{result}");

    // A scores contest ranks by the judges' scores; an empty contest is deleted; all audited.
    let judged = json!({"title": "评委评分", "startMs": now - 60_000, "endMs": now + 3_600_000, "ranking": "scores"});
    let judged = data(s.call(Method::POST, "/manage/contest/save", &manager).json(&judged)).await?["id"].as_i64().ok_or("contest id")?;
    let entry = data(s.call(Method::POST, "/contest/submit", &ann).json(&json!({"contestId": judged, "taskId": ann_work}))).await?["id"].as_i64().ok_or("entry id")?;
    refused(&s, &manager, "/manage/contest/score", json!({"entryId": entry, "score": 101}), "score: 101 is out of range 0–100").await?;
    let r = envelope(s.call(Method::POST, "/manage/contest/score", &bob).json(&json!({"entryId": entry, "score": 100}))).await?;
    assert_eq!(r["code"], 4001, "{r}");
    assert_eq!(data(s.call(Method::POST, "/manage/contest/score", &manager).json(&json!({"entryId": entry, "score": 88}))).await?["score"], 88);
    let empty = json!({"title": "空的", "startMs": now, "endMs": now + 1_000, "ranking": "likes"});
    let empty = data(s.call(Method::POST, "/manage/contest/save", &manager).json(&empty)).await?["id"].as_i64().ok_or("contest id")?;
    data(s.call(Method::POST, "/manage/contest/delete", &manager).json(&json!({"id": empty}))).await?;
    refused(&s, &ann, "/contest/submit", json!({"contestId": empty, "taskId": ann_work}), &format!("contest {empty} does not exist")).await?;
    let admin = s.user("qs", "admin", 0).await?;
    for (item, action) in [(format!("contest:{id}"), "contest.update"), (format!("contest:{empty}"), "contest.delete"), (format!("contest-entry:{entry}"), "contest.score")] {
        let trail = data(s.call(Method::GET, &format!("/maintain/audit?item={item}"), &admin)).await?;
        assert_eq!((trail[0]["action"].as_str(), trail[0]["actor"].as_str()), (Some(action), Some(manager.user_id.as_str())), "{item}: {trail}");
    }
    Ok(())
}

common::on_both_backends!(a_contest_takes_entries_and_likes_then_ranks_them);
