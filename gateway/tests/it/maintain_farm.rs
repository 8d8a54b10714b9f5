//! The maintenance area's farm calls (issue 29): administrators search their tenant's tasks, see a
//! render's attempts and requeue a failed one (a new job through the outbox, which then renders);
//! the maintenance switch refuses new renders while running ones finish; run-time settings are
//! range-checked, audited and take effect at once. Others get 4001; another tenant's task is not
//! found.

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reelforge_task::{FinishOutcome, JobRef, Owner};
use reqwest::Method;
use serde_json::{Value, json};

fn desc(v: &Value) -> &str {
    v["desc"].as_str().unwrap_or_default()
}

/// Plays the worker on `job`: starts it and ends it with `outcome`.
async fn work(s: &System, job: &JobRef, outcome: FinishOutcome) -> Fallible<()> {
    if !s.tasks.start(job, 60_000).await? {
        return Err(format!("job {} did not start", job.job_id).into());
    }
    if !s.tasks.finish(job, false, outcome).await? {
        return Err(format!("job {} did not finish", job.job_id).into());
    }
    Ok(())
}

async fn save(s: &System, u: &User, name: &str) -> Fallible<i64> {
    let body = json!({"taskInfo": common::rule().to_string(), "name": name});
    Ok(data(s.call(Method::POST, "/videotask/save", u).json(&body)).await?.as_i64().ok_or("task id")?)
}

fn job(u: &User, task_id: i64, job_id: &str) -> JobRef {
    JobRef { tenant: u.tenant.clone(), task_id, job_id: job_id.to_owned(), attempt: 1 }
}

async fn a_failed_render_is_requeued_and_renders(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let admin = s.user("qs", "admin", 0).await?;
    let maker = s.user("qs", "maker", 8).await?;
    let id = save(&s, &maker, "夜市").await?;

    // Not failed: refused, naming the state.
    let r = envelope(s.call(Method::POST, "/maintain/task/requeue", &admin).json(&json!({"taskId": id}))).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("is new") && desc(&r).contains("failed"), "{r}");

    let first = data(s.call(Method::POST, "/videotask/runtask", &maker).json(&json!({"taskId": id}))).await?;
    let first_job = first["jobId"].as_str().or(first.as_str()).ok_or("job id")?.to_owned();
    work(&s, &job(&maker, id, &first_job), FinishOutcome::Failed { reason: "decoder crashed".into() }).await?;

    // The search finds it by id, owner and state; the attempts show the failure.
    for query in [format!("taskId={id}"), format!("userId={}", maker.user_id), "status=9".to_owned()] {
        let page = data(s.call(Method::GET, &format!("/maintain/task/list?{query}"), &admin)).await?;
        assert_eq!((page["total"].as_u64(), page["list"][0]["id"].as_i64()), (Some(1), Some(id)), "{query}: {page}");
        assert_eq!((page["list"][0]["userId"].as_str(), page["list"][0]["status"].as_i64()), (Some(maker.user_id.as_str()), Some(9)));
    }
    let none = data(s.call(Method::GET, "/maintain/task/list?status=10", &admin)).await?;
    assert_eq!(none["total"], 0, "{none}");
    let bad = envelope(s.call(Method::GET, "/maintain/task/list?status=4", &admin)).await?;
    assert!(bad["code"] == 3000 && desc(&bad).starts_with("status"), "{bad}");
    let attempts = data(s.call(Method::GET, &format!("/maintain/task/attempts/{id}"), &admin)).await?;
    let a = &attempts[0];
    assert_eq!((a["jobId"].as_str(), a["attempt"].as_u64(), a["state"].as_str(), a["error"].as_str()), (Some(first_job.as_str()), Some(1), Some("failed"), Some("decoder crashed")), "{attempts}");
    assert!(a["startedTime"].as_str().is_some_and(|t| !t.is_empty()) && a["endedTime"].as_str().is_some_and(|t| !t.is_empty()), "{attempts}");

    // Requeued: a new job, queued through the outbox, which a worker then renders.
    let again = data(s.call(Method::POST, "/maintain/task/requeue", &admin).json(&json!({"taskId": id}))).await?;
    let job_id = again["jobId"].as_str().ok_or("jobId")?.to_owned();
    assert_ne!(job_id, first_job);
    let state = data(s.call(Method::GET, &format!("/videotask/state?taskId={id}"), &maker)).await?;
    assert_eq!(state["status"], 0, "waiting again: {state}");
    let attempts = data(s.call(Method::GET, &format!("/maintain/task/attempts/{id}"), &admin)).await?;
    assert_eq!((attempts.as_array().map(Vec::len), attempts[0]["jobId"].as_str(), attempts[0]["state"].as_str()), (Some(2), Some(job_id.as_str()), Some("queued")), "{attempts}");
    let (video, cover) = reelforge_task::render_keys("qs", id, &job_id);
    s.blobs.put(&video, common::ring_clip()?.to_vec()).await?;
    s.blobs.put(&cover, b"\xff\xd8\xff cover".to_vec()).await?;
    work(&s, &job(&maker, id, &job_id), FinishOutcome::Done { video_key: video, cover_key: cover, loudness: None }).await?;
    let done = data(s.call(Method::GET, &format!("/videotask/ofone/{id}"), &maker)).await?;
    assert_eq!(done["status"], 10, "{done}");
    let r = envelope(s.call(Method::POST, "/maintain/task/requeue", &admin).json(&json!({"taskId": id}))).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("is success"), "a done task is not requeued: {r}");

    // The requeue is on the task's audit trail.
    let trail = data(s.call(Method::GET, &format!("/maintain/audit?item=task:{id}"), &admin)).await?;
    assert_eq!((trail[0]["action"].as_str(), trail[0]["actor"].as_str()), (Some("requeue"), Some(admin.user_id.as_str())), "{trail}");
    assert!(trail[0]["before"].as_str().is_some_and(|b| b.contains("decoder crashed")), "{trail}");

    // Another tenant's administrator finds nothing; a non-administrator gets 4001.
    let stranger = s.user("cc", "admin", 0).await?;
    let theirs = data(s.call(Method::GET, &format!("/maintain/task/list?taskId={id}"), &stranger)).await?;
    assert_eq!(theirs["total"], 0, "{theirs}");
    let r = envelope(s.call(Method::GET, &format!("/maintain/task/attempts/{id}"), &stranger)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("does not exist"), "{r}");
    for (method, path, body) in [
        (Method::GET, "/maintain/task/list".to_owned(), json!({})),
        (Method::POST, "/maintain/task/requeue".to_owned(), json!({"taskId": id})),
        (Method::GET, "/maintain/audit".to_owned(), json!({})),
        (Method::GET, "/maintain/farm".to_owned(), json!({})),
        (Method::GET, "/maintain/migrations".to_owned(), json!({})),
        (Method::GET, "/maintain/config".to_owned(), json!({})),
        (Method::POST, "/maintain/config".to_owned(), json!({"key": "toolbox.enabled", "value": false})),
        (Method::POST, "/maintain/farm/maintenance".to_owned(), json!({"maintenance": true})),
    ] {
        let r = envelope(s.call(method, &path, &maker).json(&body)).await?;
        assert_eq!(r["code"], 4001, "{path}: {r}");
    }
    Ok(())
}

async fn maintenance_refuses_new_renders_and_drains(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let admin = s.user("qs", "admin", 0).await?;
    let maker = s.user("qs", "maker", 8).await?;
    let running = save(&s, &maker, "在渲染").await?;
    let later = save(&s, &maker, "稍后").await?;
    let owner = Owner { tenant: "qs".into(), user_id: maker.user_id.clone() };
    let run = s.tasks.run(&owner, running).await?;
    let running_job = job(&maker, running, &run.job_id);
    if !s.tasks.start(&running_job, 60_000).await? {
        return Err("did not start".into());
    }

    let farm = data(s.call(Method::POST, "/maintain/farm/maintenance", &admin).json(&json!({"maintenance": true}))).await?;
    assert_eq!((farm["maintenance"].as_bool(), farm["running"].as_u64(), farm["queued"].as_u64()), (Some(true), Some(1), Some(0)), "{farm}");
    assert!(farm["version"].as_str().is_some_and(|v| v.starts_with(env!("CARGO_PKG_VERSION"))), "{farm}");
    let refused = envelope(s.call(Method::POST, "/videotask/runtask", &maker).json(&json!({"taskId": later}))).await?;
    assert!(refused["code"] == 3000 && desc(&refused).contains("maintenance"), "{refused}");
    let state = data(s.call(Method::GET, &format!("/videotask/ofone/{later}"), &maker)).await?;
    assert_eq!(state["status"], -1, "nothing queued: {state}");

    // The running render finishes (drains); the page sees the farm empty.
    let (video, _) = reelforge_task::render_keys("qs", running, &run.job_id);
    s.blobs.put(&video, common::ring_clip()?.to_vec()).await?;
    let done = FinishOutcome::Done { video_key: video, cover_key: String::new(), loudness: None };
    assert!(s.tasks.finish(&running_job, false, done).await?, "a running render finishes in maintenance");
    let farm = data(s.call(Method::GET, "/maintain/farm", &admin)).await?;
    assert_eq!((farm["maintenance"].as_bool(), farm["running"].as_u64()), (Some(true), Some(0)), "{farm}");

    // The upgrade page lists every service's migrations, all applied (the system migrated them),
    // each service's in the order it applies them.
    let listed = data(s.call(Method::GET, "/maintain/migrations", &admin)).await?;
    let listed = listed.as_array().ok_or("migrations")?;
    let mut services: Vec<&str> = listed.iter().filter_map(|m| m["service"].as_str()).collect();
    services.dedup();
    assert_eq!(services, ["auth", "material", "category", "favourite", "font", "task", "ring"], "{listed:?}");
    assert!(listed.iter().all(|m| m["applied"] == true && m["known"] == true && m["appliedTime"].as_str().is_some_and(|t| !t.is_empty())), "{listed:?}");
    let task: Vec<&str> = listed.iter().filter(|m| m["service"] == "task").filter_map(|m| m["name"].as_str()).collect();
    assert!(task.len() >= 14 && task.windows(2).all(|w| w[0] < w[1]), "{task:?}");
    assert_eq!((task.first(), task.contains(&"m20261128_000014_market")), (Some(&"m20250101_000001_create_video_task"), true), "{task:?}");

    // Stored in the tenant's row, which the task service reads on every run. Off resumes.
    assert!(s.tasks.in_maintenance("qs").await?, "stored");
    assert!(!s.tasks.in_maintenance("cc").await?, "another tenant is not in maintenance");
    data(s.call(Method::POST, "/maintain/farm/maintenance", &admin).json(&json!({"maintenance": false}))).await?;
    data(s.call(Method::POST, "/videotask/runtask", &maker).json(&json!({"taskId": later}))).await?;
    let trail = data(s.call(Method::GET, "/maintain/audit?item=farm:maintenance", &admin)).await?;
    let changes: Vec<(&str, &str)> = trail.as_array().ok_or("trail")?.iter().filter_map(|e| Some((e["before"].as_str()?, e["after"].as_str()?))).collect();
    assert_eq!(changes, vec![("true", "false"), ("false", "true")], "{trail}");
    Ok(())
}

async fn settings_are_checked_audited_and_read_at_once(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let admin = s.user("qs", "admin", 0).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let material = common::upload(&s, &ann, "clip.mp4", common::ring_clip()?).await?;
    let speed = json!({"type": "VIDEO_SPEEDUP", "materialIds": [material], "params": {"speed": 2}});

    let list = data(s.call(Method::GET, "/maintain/config", &admin)).await?;
    let of = |list: &Value, key: &str| list.as_array().and_then(|l| l.iter().find(|x| x["key"] == key).cloned()).unwrap_or_default();
    let limit = of(&list, "toolbox.maxActivePerUser");
    assert_eq!((limit["value"].as_str(), limit["min"].as_i64(), limit["max"].as_i64(), limit["kind"].as_str()), (Some("20"), Some(1), Some(50), Some("number")), "{list}");
    assert_eq!(of(&list, "toolbox.enabled")["value"], "true", "{list}");

    // Out of range or unknown: refused, naming the key; nothing changes.
    for (key, value, says) in [("toolbox.maxActivePerUser", json!(0), "out of range 1–50"), ("toolbox.maxActivePerUser", json!("x"), "not a whole number"), ("toolbox.enabled", json!("maybe"), "true or false"), ("nope", json!(1), "no such setting")] {
        let r = envelope(s.call(Method::POST, "/maintain/config", &admin).json(&json!({"key": key, "value": value}))).await?;
        assert!(r["code"] == 3000 && desc(&r).starts_with(key) && desc(&r).contains(says), "{key}: {r}");
    }
    assert_eq!(of(&data(s.call(Method::GET, "/maintain/config", &admin)).await?, "toolbox.maxActivePerUser")["value"], "20");

    // One tool run at a time: the second waits for the first; raising the limit lets it go at once.
    data(s.call(Method::POST, "/maintain/config", &admin).json(&json!({"key": "toolbox.maxActivePerUser", "value": 1}))).await?;
    data(s.call(Method::POST, "/toolbox/run", &ann).json(&speed)).await?;
    let r = envelope(s.call(Method::POST, "/toolbox/run", &ann).json(&speed)).await?;
    assert!(r["code"] == 3000 && desc(&r).starts_with("toolbox.maxActivePerUser"), "{r}");
    data(s.call(Method::POST, "/maintain/config", &admin).json(&json!({"key": "toolbox.maxActivePerUser", "value": "2"}))).await?;
    data(s.call(Method::POST, "/toolbox/run", &ann).json(&speed)).await?;

    // Tool runs off: refused, naming the key; another tenant's setting is its own.
    data(s.call(Method::POST, "/maintain/config", &admin).json(&json!({"key": "toolbox.enabled", "value": false}))).await?;
    data(s.call(Method::POST, "/maintain/config", &admin).json(&json!({"key": "toolbox.maxActivePerUser", "value": 50}))).await?;
    let r = envelope(s.call(Method::POST, "/toolbox/run", &ann).json(&speed)).await?;
    assert!(r["code"] == 3000 && desc(&r).starts_with("toolbox.enabled"), "{r}");
    let other = s.user("cc", "admin", 0).await?;
    assert_eq!(of(&data(s.call(Method::GET, "/maintain/config", &other)).await?, "toolbox.enabled")["value"], "true");
    assert_eq!(data(s.call(Method::GET, "/toolbox/mine", &ann)).await?["total"], 2, "two runs queued, none refused ones");

    let trail = data(s.call(Method::GET, "/maintain/audit?item=config:toolbox.maxActivePerUser", &admin)).await?;
    let changes: Vec<(&str, &str)> = trail.as_array().ok_or("trail")?.iter().filter_map(|e| Some((e["before"].as_str()?, e["after"].as_str()?))).collect();
    assert_eq!(changes, vec![("2", "50"), ("1", "2"), ("20", "1")], "{trail}");
    Ok(())
}

/// The keys of an offer's items in order, and the hidden ones.
fn keys(offer: &Value) -> (Vec<String>, Vec<String>) {
    let items = offer["items"].as_array().cloned().unwrap_or_default();
    let key = |i: &Value| i["key"].as_str().unwrap_or_default().to_owned();
    (items.iter().map(key).collect(), items.iter().filter(|i| i["offered"] == false).map(key).collect())
}

async fn catalogue_offers_are_checked_audited_and_per_tenant(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let admin = s.user("qs", "admin", 0).await?;
    let ann = s.user("qs", "ann", 8).await?;

    // With no choice made every style is offered in the catalogue's order, to any user.
    let first = data(s.call(Method::GET, "/catalogue/offer/artWord", &ann)).await?;
    let (order, hidden) = keys(&first);
    let catalogue: Vec<&str> = reelforge_timeline::catalogue::art_words::ART_WORDS.iter().map(|a| a.key).collect();
    assert_eq!((order.iter().map(String::as_str).collect::<Vec<_>>(), hidden.len()), (catalogue.clone(), 0), "{first}");
    let r = envelope(s.call(Method::GET, "/catalogue/offer/font", &ann)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("`font` is not animation or artWord"), "{r}");

    // Ice first and hidden, neon hidden: every user of the tenant sees it at once.
    let mut items: Vec<Value> = catalogue.iter().rev().map(|k| json!({"key": k, "offered": *k != "ice" && *k != "neon"})).collect();
    let set = data(s.call(Method::POST, "/maintain/catalogue/offer", &admin).json(&json!({"catalogue": "artWord", "items": items}))).await?;
    let seen = data(s.call(Method::GET, "/catalogue/offer/artWord", &ann)).await?;
    assert_eq!(keys(&set), keys(&seen));
    assert_eq!(keys(&seen).0.first().map(String::as_str), Some("ice"), "{seen}");
    assert_eq!(keys(&seen).1, vec!["ice".to_owned(), "neon".to_owned()], "{seen}");

    // Refusals name what is wrong and change nothing.
    let all_hidden: Vec<Value> = catalogue.iter().map(|k| json!({"key": k, "offered": false})).collect();
    let mut twice = items.clone();
    twice.push(json!({"key": "gold", "offered": true}));
    let mut unknown = items.clone();
    unknown.push(json!({"key": "FADE_IN", "offered": true}));
    items.pop();
    for (body, says) in [
        (json!({"catalogue": "artWord", "items": all_hidden}), "at least one entry must stay offered"),
        (json!({"catalogue": "artWord", "items": twice}), "`gold` is named twice"),
        (json!({"catalogue": "artWord", "items": unknown}), "`FADE_IN` is not an entry of artWord"),
        (json!({"catalogue": "artWord", "items": items}), "`gold` is missing"),
        (json!({"catalogue": "music", "items": []}), "`music` is not animation or artWord"),
    ] {
        let r = envelope(s.call(Method::POST, "/maintain/catalogue/offer", &admin).json(&body)).await?;
        assert!(r["code"] == 3000 && desc(&r).contains(says), "{says}: {r}");
    }
    assert_eq!(keys(&data(s.call(Method::GET, "/catalogue/offer/artWord", &ann)).await?), keys(&seen), "nothing changed");

    // Another tenant keeps its own (everything); a non-administrator may read but not set.
    let other = s.user("cc", "bob", 8).await?;
    assert!(keys(&data(s.call(Method::GET, "/catalogue/offer/artWord", &other)).await?).1.is_empty());
    let r = envelope(s.call(Method::POST, "/maintain/catalogue/offer", &ann).json(&json!({"catalogue": "artWord", "items": []}))).await?;
    assert_eq!(r["code"], 4001, "{r}");

    // Animations too: the fade-in hidden; the trail shows the hidden keys before and after.
    let animations: Vec<Value> = reelforge_timeline::catalogue::animations::ANIMATIONS.iter().map(|a| json!({"key": a.key, "offered": a.key != "MOTIONIN_OPACITY"})).collect();
    data(s.call(Method::POST, "/maintain/catalogue/offer", &admin).json(&json!({"catalogue": "animation", "items": animations}))).await?;
    assert_eq!(keys(&data(s.call(Method::GET, "/catalogue/offer/animation", &ann)).await?).1, vec!["MOTIONIN_OPACITY".to_owned()]);
    let trail = data(s.call(Method::GET, "/maintain/audit?item=catalogue:artWord", &admin)).await?;
    let changes: Vec<(&str, &str, &str)> = trail.as_array().ok_or("trail")?.iter().filter_map(|e| Some((e["action"].as_str()?, e["before"].as_str()?, e["after"].as_str()?))).collect();
    assert_eq!(changes, vec![("catalogue", "", "ice,neon")], "{trail}");
    Ok(())
}

common::on_both_backends!(
    a_failed_render_is_requeued_and_renders,
    maintenance_refuses_new_renders_and_drains,
    settings_are_checked_audited_and_read_at_once,
    catalogue_offers_are_checked_audited_and_per_tenant
);
