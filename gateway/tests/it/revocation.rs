//! Ended sign-ins end everywhere at once (issue 24): a signed-out token, or a disabled user's, is
//! refused by the services' own gRPC ports, not only by the gateway; the media tickets given before
//! the sign-out or the disabling stop opening files. Another sign-in of the same user goes on.

use crate::common;

use common::{Fallible, System, User, data, envelope};
use reelforge_kit::identity;
use reelforge_proto::material::ListMaterialsRequest;
use reelforge_proto::material::material_service_client::MaterialServiceClient;
use reelforge_proto::task::SaveTaskRequest;
use reelforge_proto::task::task_service_client::TaskServiceClient;
use reqwest::Method;

/// Saves a task straight at the task service's gRPC port with `token`, past the gateway.
async fn save_at_the_service(s: &System, token: &str) -> Result<i64, tonic::Status> {
    let mut tasks = TaskServiceClient::connect(format!("http://{}", s.grpc)).await.map_err(|e| tonic::Status::unavailable(e.to_string()))?;
    let msg = SaveTaskRequest { task_id: -1, task_name: "直连".into(), task_info: common::rule().to_string(), size_category_id: 41, ..Default::default() };
    let req = identity::request(msg, token).map_err(|e| tonic::Status::internal(e.to_string()))?;
    Ok(tasks.save(req).await?.into_inner().task_id)
}

/// Lists materials straight at the material service's gRPC port with `token`.
async fn list_at_the_service(s: &System, token: &str) -> Result<u64, tonic::Status> {
    let mut materials = MaterialServiceClient::connect(format!("http://{}", s.grpc)).await.map_err(|e| tonic::Status::unavailable(e.to_string()))?;
    let req = identity::request(ListMaterialsRequest::default(), token).map_err(|e| tonic::Status::internal(e.to_string()))?;
    Ok(materials.list(req).await?.into_inner().total)
}

/// Another sign-in of `user`: a fresh token.
fn sign_in_again(s: &System, user: &User) -> Fallible<User> {
    let (token, _) = s.keys.issue_user(&user.tenant, &user.user_id, reelforge_kit::OperatorLevel::DEFAULT, 3600)?;
    Ok(User { token, ..user.clone() })
}

/// The signed address of `user`'s material `id` (its original), as a list answer gives it.
async fn material_url(s: &System, user: &User, id: &str) -> Fallible<String> {
    let m = data(s.call(Method::POST, &format!("/material/info/{id}"), user)).await?;
    let url = m["url"].as_str().ok_or("url")?.to_owned();
    assert!(url.contains("?ticket="), "{url}");
    Ok(url)
}

/// Opens a signed address without the auth headers, as an `<img src>` does: the status and, for a
/// refusal, the envelope's code.
async fn open(s: &System, url: &str) -> Fallible<(u16, i64)> {
    let origin = s.base.trim_end_matches("/diyvrbt");
    let res = reqwest::Client::new().get(format!("{origin}{url}")).header("X-Variant", "qs").send().await?;
    let status = res.status().as_u16();
    let code = if res.headers().get("content-type").is_some_and(|v| v.as_bytes().starts_with(b"application/json")) {
        res.json::<serde_json::Value>().await?["code"].as_i64().unwrap_or_default()
    } else {
        0
    };
    Ok((status, code))
}

#[tokio::test]
async fn a_signed_out_token_is_refused_by_the_services_and_its_tickets_stop() -> Fallible<()> {
    let s = common::start().await?;
    let ann = s.user("qs", "ann", 8).await?;
    let material = common::upload(&s, &ann, "ann.png", common::PNG).await?;
    let url = material_url(&s, &ann, &material).await?;
    assert_eq!(open(&s, &url).await?, (200, 0), "the ticket opens the file");
    save_at_the_service(&s, &ann.token).await?;
    let task = data(s.call(Method::POST, "/videotask/save", &ann).form(&[("taskInfo", common::rule().to_string()), ("name", "t".into())]))
        .await?
        .as_i64()
        .ok_or("task")?;
    let ticket = data(s.call(Method::POST, "/videotask/mediaTicket", &ann).json(&serde_json::json!({"taskId": task}))).await?["ticket"]
        .as_str()
        .ok_or("ticket")?
        .to_owned();
    let cover = format!("/diyvrbt/videotask/cover?taskId={task}&ticket={ticket}");
    assert_ne!(open(&s, &cover).await?.1, 4000, "the task's ticket is good (the task has no cover yet)");

    data(s.call(Method::POST, "/user/logout", &ann)).await?;
    assert_eq!(envelope(s.call(Method::GET, "/user/me", &ann)).await?["code"], 4000, "the gateway refuses it");
    let saved = save_at_the_service(&s, &ann.token).await;
    assert_eq!(saved.as_ref().map_err(tonic::Status::code), Err(tonic::Code::Unauthenticated), "the task service refuses it: {saved:?}");
    let listed = list_at_the_service(&s, &ann.token).await;
    assert_eq!(listed.as_ref().map_err(tonic::Status::code), Err(tonic::Code::Unauthenticated), "the material service too: {listed:?}");
    assert_eq!(open(&s, &url).await?, (200, 4000), "a material ticket given before the sign-out");
    assert_eq!(open(&s, &cover).await?, (200, 4000), "a task ticket given before the sign-out");

    // Another sign-in goes on: it sees one saved task (the one before the sign-out), and its own
    // tickets open the file.
    let again = sign_in_again(&s, &ann)?;
    let mine = data(s.call(Method::GET, "/videotask/mine", &again)).await?;
    assert_eq!(mine["total"], 2, "nothing was saved with the signed-out token: {mine}");
    assert!(save_at_the_service(&s, &again.token).await.is_ok());
    let fresh = material_url(&s, &again, &material).await?;
    assert_eq!(open(&s, &fresh).await?, (200, 0));
    Ok(())
}

#[tokio::test]
async fn a_disabled_users_tokens_and_tickets_stop_at_once() -> Fallible<()> {
    let s = common::start().await?;
    let admin = s.user("qs", "admin", 0).await?;
    let bob = s.user("qs", "bob", 8).await?;
    let material = common::upload(&s, &bob, "bob.png", common::PNG).await?;
    let url = material_url(&s, &bob, &material).await?;
    assert_eq!(open(&s, &url).await?, (200, 0));
    assert!(list_at_the_service(&s, &bob.token).await.is_ok());
    let me = data(s.call(Method::GET, "/user/me", &bob)).await?;
    assert_eq!(me["userId"], bob.user_id.as_str(), "the auth service keeps a copy of bob's row");

    data(s.call(Method::POST, "/manage/users/disable", &admin).json(&serde_json::json!({"userId": bob.user_id, "disabled": true}))).await?;
    assert_eq!(open(&s, &url).await?, (200, 4000), "the ticket stops with the user");
    let listed = list_at_the_service(&s, &bob.token).await;
    assert_eq!(listed.as_ref().map_err(tonic::Status::code), Err(tonic::Code::Unauthenticated), "{listed:?}");
    let saved = save_at_the_service(&s, &bob.token).await;
    assert_eq!(saved.as_ref().map_err(tonic::Status::code), Err(tonic::Code::Unauthenticated), "{saved:?}");
    assert_eq!(envelope(s.call(Method::GET, "/user/me", &bob)).await?["code"], 4000, "the gateway's check, at once");
    data(s.call(Method::POST, "/manage/users/disable", &admin).json(&serde_json::json!({"userId": bob.user_id, "disabled": false}))).await?;
    assert_eq!(data(s.call(Method::GET, "/user/me", &bob)).await?["userId"], bob.user_id.as_str(), "enabled again, at once");

    // A changed level: the services refuse the token of the old level, as the gateway does.
    let carol = s.user("qs", "carol", 8).await?;
    assert!(save_at_the_service(&s, &carol.token).await.is_ok());
    data(s.call(Method::POST, "/manage/users/level", &admin).json(&serde_json::json!({"userId": carol.user_id, "operatorLevel": 3}))).await?;
    let saved = save_at_the_service(&s, &carol.token).await;
    assert_eq!(saved.as_ref().map_err(tonic::Status::code), Err(tonic::Code::Unauthenticated), "{saved:?}");
    let (token, _) = s.keys.issue_user("qs", &carol.user_id, reelforge_kit::OperatorLevel::OperationsManager, 3600)?;
    assert!(save_at_the_service(&s, &token).await.is_ok(), "a token of the new level works");
    Ok(())
}
