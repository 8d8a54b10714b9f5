//! The service marketplace (issue 30): a user the auth service knows as a provider (an approved
//! application) publishes a service with samples of their rendered works; other users of the tenant
//! see it, play its samples and place requests; the requester withdraws, the provider declines with a
//! reason or delivers a work, which becomes the requester's own. Every refusal names what was wrong
//! and changes nothing; nobody else reaches a draft or someone else's request.

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reqwest::Method;
use serde_json::{Value, json};

fn desc(v: &Value) -> &str {
    v["desc"].as_str().unwrap_or_default()
}

async fn rendered(s: &System, u: &User, name: &str) -> Fallible<i64> {
    let body = json!({"taskInfo": common::rule().to_string(), "name": name});
    let id = data(s.call(Method::POST, "/videotask/save", u).json(&body)).await?.as_i64().ok_or("task id")?;
    common::finish_task(s, u, id).await?;
    Ok(id)
}

async fn refused(s: &System, u: &User, path: &str, body: Value, says: &str) -> Fallible<()> {
    let r = envelope(s.call(Method::POST, path, u).json(&body)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains(says), "{path} {body}: expected `{says}`: {r}");
    Ok(())
}

/// Makes `u` a provider: an application a template manager approves.
async fn approved(s: &System, u: &User, manager: &User) -> Fallible<()> {
    let applied = data(s.call(Method::POST, "/service/apply", u).json(&json!({"name": "光影工作室", "contact": "13800138000", "intro": "拜年视频"}))).await?;
    data(s.call(Method::POST, "/manage/service/decide", manager).json(&json!({"id": applied["id"], "approve": true}))).await?;
    Ok(())
}

async fn providers_publish_users_request_and_receive_works(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let manager = s.user("qs", "manager", 3).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let bob = s.user("qs", "bob", 8).await?;
    let carol = s.user("qs", "carol", 8).await?;
    let sample = rendered(&s, &ann, "样片一").await?;
    let service = json!({"title": " 拜年视频定制 ", "kind": "video", "description": "三天交付", "price": "99 元起", "deliveryDays": 3, "sampleTaskIds": [sample]});

    // Not a provider yet: the service's save is a role refusal; approved, it goes through.
    let r = envelope(s.call(Method::POST, "/market/service/save", &ann).json(&service)).await?;
    assert_eq!(r["code"], 4001, "{r}");
    approved(&s, &ann, &manager).await?;
    let bobs = rendered(&s, &bob, "鲍勃的").await?;
    for (patch, says) in [
        (json!({"title": ""}), "title: required".to_owned()),
        (json!({"kind": "gig"}), "kind: `gig` is not template or video".to_owned()),
        (json!({"deliveryDays": 0}), "deliveryDays: 0 is out of range 1–60".to_owned()),
        (json!({"sampleTaskIds": [bobs]}), format!("sampleTaskIds: task {bobs} does not exist")),
    ] {
        let mut body = service.clone();
        body.as_object_mut().ok_or("body")?.extend(patch.as_object().cloned().unwrap_or_default());
        refused(&s, &ann, "/market/service/save", body, &says).await?;
    }
    let saved = data(s.call(Method::POST, "/market/service/save", &ann).json(&service)).await?;
    let id = saved["id"].as_i64().ok_or("service id")?;
    assert_eq!((saved["title"].as_str(), saved["published"].as_bool(), saved["mine"].as_bool()), (Some("拜年视频定制"), Some(false), Some(true)), "{saved}");

    // A draft is its provider's only; published, every user of the tenant sees it and its samples.
    assert_eq!(data(s.call(Method::GET, "/market/services", &bob)).await?, json!([]));
    let r = envelope(s.call(Method::GET, &format!("/market/service/{id}"), &bob)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains(&format!("service {id} does not exist")), "{r}");
    data(s.call(Method::POST, "/market/service/publish", &ann).json(&json!({"id": id, "published": true}))).await?;
    let listed = data(s.call(Method::GET, "/market/services?kind=video", &bob)).await?;
    assert_eq!((listed[0]["id"].as_i64(), listed[0]["mine"].as_bool()), (Some(id), Some(false)), "{listed}");
    assert!(listed[0]["coverUrl"].as_str().is_some_and(|u| u.starts_with(&format!("/diyvrbt/market/media/{sample}/cover?ticket="))), "{listed}");
    assert_eq!(data(s.call(Method::GET, "/market/services?kind=template", &bob)).await?, json!([]));
    let detail = data(s.call(Method::GET, &format!("/market/service/{id}"), &bob)).await?;
    let video = detail["samples"][0]["videoUrl"].as_str().ok_or("sample video")?.to_owned();
    let origin = s.base.trim_end_matches("/diyvrbt");
    let played = reqwest::Client::new().get(format!("{origin}{video}")).header("X-Variant", "qs").send().await?.bytes().await?;
    assert_eq!(played.to_vec(), common::ring_clip()?.to_vec(), "the sample plays");
    let stranger = s.user("cc", "stranger", 8).await?;
    let r = envelope(s.call(Method::GET, &format!("/market/service/{id}"), &stranger)).await?;
    assert!(r["code"] == 3000 && desc(&r).contains("does not exist"), "another tenant: {r}");

    // Requests: not one's own service, a note required, one open at a time.
    refused(&s, &ann, "/market/request", json!({"serviceId": id, "note": "给自己"}), &format!("service {id} is your own")).await?;
    refused(&s, &bob, "/market/request", json!({"serviceId": id, "note": " "}), "note: required").await?;
    let first = data(s.call(Method::POST, "/market/request", &bob).json(&json!({"serviceId": id, "note": "给爸妈拜年，带全家福"}))).await?;
    let first = first["id"].as_i64().ok_or("request id")?;
    refused(&s, &bob, "/market/request", json!({"serviceId": id, "note": "再来一个"}), &format!("you already have an open request ({first})")).await?;

    // Withdrawn: not withdrawn again, nor delivered; nobody else may touch a request.
    refused(&s, &carol, "/market/request/withdraw", json!({"requestId": first}), &format!("request {first} does not exist")).await?;
    data(s.call(Method::POST, "/market/request/withdraw", &bob).json(&json!({"requestId": first}))).await?;
    refused(&s, &bob, "/market/request/withdraw", json!({"requestId": first}), "is withdrawn, only an open request is withdrawn").await?;
    refused(&s, &ann, "/market/request/deliver", json!({"requestId": first, "taskId": sample}), "is withdrawn, only an open request is delivered").await?;

    // Declined with a reason the requester reads; delivered: the work is the requester's own.
    let carols = data(s.call(Method::POST, "/market/request", &carol).json(&json!({"serviceId": id, "note": "公司年会"}))).await?["id"].as_i64().ok_or("request id")?;
    refused(&s, &ann, "/market/request/decline", json!({"requestId": carols, "reason": ""}), "reason: required").await?;
    refused(&s, &bob, "/market/request/decline", json!({"requestId": carols, "reason": "不做"}), &format!("request {carols} does not exist")).await?;
    data(s.call(Method::POST, "/market/request/decline", &ann).json(&json!({"requestId": carols, "reason": "档期已满"}))).await?;
    let sent = data(s.call(Method::GET, "/market/mine", &carol)).await?["sent"].clone();
    assert_eq!((sent[0]["state"].as_str(), sent[0]["reason"].as_str()), (Some("declined"), Some("档期已满")), "{sent}");

    let second = data(s.call(Method::POST, "/market/request", &bob).json(&json!({"serviceId": id, "note": "再拍一次"}))).await?["id"].as_i64().ok_or("request id")?;
    let mine = data(s.call(Method::GET, "/market/mine", &ann)).await?;
    assert_eq!((mine["services"][0]["openRequests"].as_i64(), mine["received"].as_array().map(Vec::len)), (Some(1), Some(3)), "{mine}");
    refused(&s, &ann, "/market/request/deliver", json!({"requestId": second, "taskId": bobs}), &format!("taskId: task {bobs} does not exist")).await?;
    let delivered = data(s.call(Method::POST, "/market/request/deliver", &ann).json(&json!({"requestId": second, "taskId": sample}))).await?;
    let new_task = delivered["deliveredTaskId"].as_i64().ok_or("delivered task")?;
    assert_eq!(delivered["state"], "delivered", "{delivered}");
    let work = data(s.call(Method::GET, &format!("/videotask/ofone/{new_task}"), &bob)).await?;
    assert_eq!((work["taskName"].as_str(), work["status"].as_i64()), (Some("样片一"), Some(10)), "{work}");
    let ticket = data(s.call(Method::POST, "/videotask/mediaTicket", &bob).json(&json!({"taskId": new_task}))).await?["ticket"].as_str().ok_or("ticket")?.to_owned();
    let got = s.call(Method::GET, &format!("/videotask/download?taskId={new_task}&ticket={ticket}"), &bob).send().await?.bytes().await?;
    assert_eq!(got.to_vec(), common::ring_clip()?.to_vec(), "the delivered video is the requester's to download");
    let sample_still = data(s.call(Method::GET, &format!("/videotask/ofone/{sample}"), &ann)).await?;
    assert_eq!(sample_still["status"], 10, "the provider keeps their work: {sample_still}");
    refused(&s, &ann, "/market/request/decline", json!({"requestId": second, "reason": "晚了"}), "is delivered, only an open request is declined").await?;
    Ok(())
}

common::on_both_backends!(providers_publish_users_request_and_receive_works);
