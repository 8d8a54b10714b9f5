//! The inside trusts nothing: a gRPC call straight to each service without a valid token is refused,
//! and a valid token of one tenant never reaches another tenant's rows.

use crate::common;

use common::{Fallible, System};
use reelforge_kit::identity::{self, Claims, OperatorLevel, TokenKind};
use reelforge_proto::category::category_service_client::CategoryServiceClient;
use reelforge_proto::category::{CreateCategoryRequest, DeleteCategoryRequest, ListCategoriesRequest, RenameCategoryRequest};
use reelforge_proto::favourite::favourite_service_client::FavouriteServiceClient;
use reelforge_proto::favourite::{FavouriteRequest, ListFavouritesRequest};
use reelforge_proto::material::material_service_client::MaterialServiceClient;
use reelforge_proto::material::{GetMaterialRequest, ListMaterialsRequest};
use reelforge_proto::task::task_service_client::TaskServiceClient;
use reelforge_proto::task::{FinishRenderRequest, GetTaskRequest, RunTaskRequest, SaveTaskRequest};
use reelforge_proto::{ai, auth, common::Empty};
use tonic::Code;
use tonic::transport::Channel;

fn b64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Tokens no service may accept, by what is wrong with them.
fn bad_tokens(s: &System) -> Fallible<Vec<(&'static str, Option<String>)>> {
    let (good, claims) = s.keys.issue_user("qs", "ann@example.cn", OperatorLevel::Admin, 3600)?;
    let parts: Vec<&str> = good.split('.').collect();
    let forged_claims = serde_json::json!({"sub":"bob@example.cn","tenant":"cc","role":"CREATE_VIDEO","level":8,"typ":"user",
        "kid":"k1","jti":"x","iat":claims.iat,"nbf":claims.nbf,"exp":claims.exp,"aud":"reelforge"});
    let tampered = format!("{}.{}.{}", parts[0], b64(forged_claims.to_string().as_bytes()), parts[2]);
    let none = format!("{}.{}.", b64(br#"{"alg":"none","typ":"JWT","kid":"k1"}"#), parts[1]);
    let expired = s.keys.sign(&Claims { iat: claims.iat - 7200, nbf: claims.iat - 7200, exp: claims.iat - 3600, ..claims.clone() })?;
    let other = reelforge_kit::Keyring::new(&[reelforge_kit::config::SigningKeyConfig {
        id: "k1".into(),
        secret: "another-secret-another-secret-another".into(),
    }])?;
    let (wrong_key, _) = other.issue_user("qs", "ann@example.cn", OperatorLevel::Admin, 3600)?;
    let long_service = s.keys.sign(&Claims { typ: TokenKind::Service, level: -1, role: String::new(), ..claims })?;
    Ok(vec![
        ("none", None),
        ("forged", Some("not-a-token".into())),
        ("tampered", Some(tampered)),
        ("alg none", Some(none)),
        ("expired", Some(expired)),
        ("wrong key", Some(wrong_key)),
        ("service token living an hour", Some(long_service)),
    ])
}

fn req<T>(msg: T, token: Option<&str>) -> Fallible<tonic::Request<T>> {
    Ok(match token {
        Some(t) => identity::request(msg, t)?,
        None => tonic::Request::new(msg),
    })
}

fn code<T>(r: Result<tonic::Response<T>, tonic::Status>) -> Code {
    r.map_or_else(|s| s.code(), |_| Code::Ok)
}

async fn every_service_refuses_calls_without_a_valid_token(backends: common::Backends) -> TestResult {
    let s = common::start_in(backends).await?;
    let ch = Channel::from_shared(format!("http://{}", s.grpc))?.connect().await?;
    for (what, token) in bad_tokens(&s)? {
        let t = token.as_deref();
        let answers = [
            ("auth.Verify", code(auth::auth_service_client::AuthServiceClient::new(ch.clone()).verify(req(Empty {}, t)?).await)),
            ("auth.SendCode", code(auth::auth_service_client::AuthServiceClient::new(ch.clone()).send_code(req(auth::SendCodeRequest { mail: "a@x.cn".into(), ..Default::default() }, t)?).await)),
            ("auth.ListUsers", code(auth::auth_service_client::AuthServiceClient::new(ch.clone()).list_users(req(auth::ListUsersRequest::default(), t)?).await)),
            ("category.List", code(CategoryServiceClient::new(ch.clone()).list(req(ListCategoriesRequest::default(), t)?).await)),
            ("favourite.List", code(FavouriteServiceClient::new(ch.clone()).list(req(ListFavouritesRequest::default(), t)?).await)),
            ("material.List", code(MaterialServiceClient::new(ch.clone()).list(req(ListMaterialsRequest::default(), t)?).await)),
            ("task.Get", code(TaskServiceClient::new(ch.clone()).get(req(GetTaskRequest { task_id: 1 }, t)?).await)),
            ("ai.ListAbilities", code(ai::ai_service_client::AiServiceClient::new(ch.clone()).list_abilities(req(ai::ListAbilitiesRequest {}, t)?).await)),
        ];
        for (call, c) in answers {
            assert_eq!(c, Code::Unauthenticated, "{call} with {what} token");
        }
    }
    Ok(())
}

type TestResult = Fallible<()>;

async fn a_token_of_one_tenant_never_reaches_another_tenants_rows(backends: common::Backends) -> TestResult {
    let s = common::start_in(backends).await?;
    let ch = Channel::from_shared(format!("http://{}", s.grpc))?.connect().await?;
    let a = s.user("qs", "a", 3).await?;
    let b = s.user("cc", "b", 3).await?;
    let (ta, tb) = (Some(a.token.as_str()), Some(b.token.as_str()));

    let mut cat = CategoryServiceClient::new(ch.clone());
    let create = CreateCategoryRequest { category_name: "B's".into(), dimension: "industry".into(), higher_up_id: -1 };
    let b_cat = cat.create(req(create.clone(), tb)?).await?.into_inner().category_id;
    assert!(cat.list(req(ListCategoriesRequest::default(), ta)?).await?.into_inner().data_list.is_empty());
    let rename = RenameCategoryRequest { category_id: b_cat, category_name: "mine".into() };
    assert_eq!(code(cat.rename(req(rename, ta)?).await), Code::NotFound);
    assert_eq!(code(cat.delete(req(DeleteCategoryRequest { category_id: b_cat }, ta)?).await), Code::NotFound);
    assert_eq!(cat.list(req(ListCategoriesRequest::default(), tb)?).await?.into_inner().data_list.len(), 1);
    let video_maker = s.user("cc", "v", 8).await?;
    assert_eq!(code(cat.create(req(create, Some(&video_maker.token))?).await), Code::PermissionDenied, "role rule in the service");

    let mut tasks = TaskServiceClient::new(ch.clone());
    let save = |task_id: i64| SaveTaskRequest {
        task_id,
        task_name: "t".into(),
        task_info: common::rule().to_string(),
        size_category_id: 41,
        used_for: String::new(),
        version: 0,
    };
    let b_task = tasks.save(req(save(-1), tb)?).await?.into_inner().task_id;
    assert_eq!(code(tasks.get(req(GetTaskRequest { task_id: b_task }, ta)?).await), Code::NotFound);
    assert_eq!(code(tasks.state(req(GetTaskRequest { task_id: b_task }, ta)?).await), Code::NotFound);
    assert_eq!(code(tasks.run(req(RunTaskRequest { task_id: b_task }, ta)?).await), Code::NotFound);
    assert_eq!(code(tasks.save(req(save(b_task), ta)?).await), Code::NotFound);
    let finish = FinishRenderRequest { task_id: b_task, job_id: "j".into(), ok: true, video_key: "x.mp4".into(), ..Default::default() };
    assert_eq!(code(tasks.finish(req(finish.clone(), tb)?).await), Code::Unauthenticated, "only a worker reports renders");
    let a_worker = s.keys.service_token("qs", None, 60)?;
    let _ = tasks.finish(req(finish, Some(&a_worker))?).await;
    let still = tasks.get(req(GetTaskRequest { task_id: b_task }, tb)?).await?.into_inner();
    assert_eq!((still.status, still.video_relative_path.as_str()), (-1, ""), "another tenant's worker changed nothing");

    let mut fav = FavouriteServiceClient::new(ch.clone());
    fav.add(req(FavouriteRequest { id: "m1".into(), r#type: "picture".into() }, tb)?).await?;
    assert!(fav.list(req(ListFavouritesRequest::default(), ta)?).await?.into_inner().items.is_empty());
    let _ = fav.remove(req(FavouriteRequest { id: "m1".into(), r#type: "picture".into() }, ta)?).await;
    assert_eq!(fav.list(req(ListFavouritesRequest::default(), tb)?).await?.into_inner().items.len(), 1);

    let owner = reelforge_material::Owner { tenant: "cc".into(), user_id: b.user_id.clone() };
    let new = reelforge_material::NewMaterial {
        name: "b.png".into(),
        kind: reelforge_material::MaterialKind::parse("picture")?,
        category_id: 0,
        open_state: 0,
        picture_path: String::new(),
        time_length: 0.0,
        size: "10x10".into(),
        material_state: 0,
        system: false,
    };
    let b_material = s.materials.insert(&owner, new).await?.id;
    let mut mat = MaterialServiceClient::new(ch.clone());
    assert_eq!(code(mat.get(req(GetMaterialRequest { material_id: b_material.clone() }, ta)?).await), Code::NotFound);
    let b_worker = s.keys.service_token("cc", None, 60)?;
    assert_eq!(code(mat.get(req(GetMaterialRequest { material_id: b_material.clone() }, Some(&b_worker))?).await), Code::NotFound, "a worker acting for no user sees system materials only");
    let for_b = s.keys.service_token("cc", Some(&b.user_id), 60)?;
    assert_eq!(code(mat.get(req(GetMaterialRequest { material_id: b_material }, Some(&for_b))?).await), Code::Ok);
    Ok(())
}

common::on_both_backends!(
    every_service_refuses_calls_without_a_valid_token,
    a_token_of_one_tenant_never_reaches_another_tenants_rows,
);
