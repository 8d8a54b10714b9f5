//! Categories: `GET/POST /category/taskvideo`, `/category/taskvideo/delete`, `/category/updatename`,
//! `/category/setPush` and the audio library's `GET /category/audio`.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::category as pb;
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

/// A category as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryDto {
    category_id: i64,
    category_name: String,
    dimension: String,
    higher_up_id: i64,
    push: bool,
    #[schema(no_recursion)]
    children: Vec<CategoryDto>,
}

/// A category of the service as the browser reads it.
pub(crate) fn dto(c: pb::Category) -> CategoryDto {
    CategoryDto {
        category_id: c.category_id,
        category_name: c.category_name,
        dimension: c.dimension,
        higher_up_id: c.higher_up_id,
        push: c.push,
        children: c.children.into_iter().map(dto).collect(),
    }
}

/// The list answer: `data.dataList`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryList {
    data_list: Vec<CategoryDto>,
}

/// Query of the list.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct ListQuery {
    dimension: Option<String>,
}

/// The tenant's category tree.
#[utoipa::path(get, path = "/diyvrbt/category/taskvideo", params(ListQuery), responses((status = 200, body = CategoryList)))]
pub async fn list(req: HttpRequest, q: web::Query<ListQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::anonymous(&req, &state)?;
    let tree = state
        .clients
        .category
        .clone()
        .list(caller.request(pb::ListCategoriesRequest { dimension: q.into_inner().dimension.unwrap_or_default() })?)
        .await?
        .into_inner();
    Ok(envelope::ok(CategoryList { data_list: tree.data_list.into_iter().map(dto).collect() }))
}

/// Body of create.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreateBody {
    category_name: String,
    dimension: String,
    #[serde(default = "first_level")]
    higher_up_id: i64,
}

fn first_level() -> i64 {
    -1
}

/// Creates a category (template managers).
#[utoipa::path(post, path = "/diyvrbt/category/taskvideo", request_body = CreateBody, responses((status = 200, body = CategoryDto)))]
pub async fn create(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: CreateBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let c = state
        .clients
        .category
        .clone()
        .create(caller.request(pb::CreateCategoryRequest {
            category_name: b.category_name,
            dimension: b.dimension,
            higher_up_id: b.higher_up_id,
        })?)
        .await?
        .into_inner();
    Ok(envelope::ok(dto(c)))
}

/// Body of delete.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteBody {
    category_id: i64,
}

/// Deletes a category and its children (template managers).
#[utoipa::path(post, path = "/diyvrbt/category/taskvideo/delete", request_body = DeleteBody, responses((status = 200)))]
pub async fn delete(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: DeleteBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.category.clone().delete(caller.request(pb::DeleteCategoryRequest { category_id: b.category_id })?).await?;
    Ok(envelope::ok(serde_json::Value::Null))
}

/// Body of rename.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RenameBody {
    category_id: i64,
    category_name: String,
}

/// Renames a category (template managers).
#[utoipa::path(post, path = "/diyvrbt/category/updatename", request_body = RenameBody, responses((status = 200, body = CategoryDto)))]
pub async fn rename(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RenameBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let c = state
        .clients
        .category
        .clone()
        .rename(caller.request(pb::RenameCategoryRequest { category_id: b.category_id, category_name: b.category_name })?)
        .await?
        .into_inner();
    Ok(envelope::ok(dto(c)))
}


/// The audio library's categories: `data.dataList`.
#[utoipa::path(get, path = "/diyvrbt/category/audio", responses((status = 200, body = CategoryList)))]
pub async fn audio(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::anonymous(&req, &state)?;
    let tree = state.clients.category.clone().list(caller.request(pb::ListCategoriesRequest { dimension: "audio".into() })?).await?.into_inner();
    Ok(envelope::ok(CategoryList { data_list: tree.data_list.into_iter().map(dto).collect() }))
}

/// Body of setPush: the ids as a JSON array, or a form's comma-separated list.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct SetPushBody {
    #[serde(deserialize_with = "ids")]
    #[schema(value_type = Vec<i64>)]
    ids: Vec<i64>,
    #[serde(deserialize_with = "flag")]
    #[schema(value_type = bool)]
    push: bool,
}

fn ids<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<i64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Ids {
        List(Vec<i64>),
        Text(String),
    }
    match Ids::deserialize(d)? {
        Ids::List(v) => Ok(v),
        Ids::Text(t) => t
            .split(',')
            .filter(|p| !p.trim().is_empty())
            .map(|p| p.trim().parse().map_err(|_| serde::de::Error::custom(format!("ids: `{p}` is not a category id"))))
            .collect(),
    }
}

fn flag<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Flag {
        Bool(bool),
        Number(i64),
        Text(String),
    }
    match Flag::deserialize(d)? {
        Flag::Bool(b) => Ok(b),
        Flag::Number(n) => Ok(n != 0),
        Flag::Text(t) => match t.as_str() {
            "true" | "1" => Ok(true),
            "false" | "0" => Ok(false),
            other => Err(serde::de::Error::custom(format!("push: `{other}` is not true or false"))),
        },
    }
}

/// Sets the push flag of categories (template managers).
#[utoipa::path(post, path = "/diyvrbt/category/setPush", request_body = SetPushBody, responses((status = 200)))]
pub async fn set_push(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SetPushBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.category.clone().set_push(caller.request(pb::SetPushRequest { ids: b.ids, push: b.push })?).await?;
    Ok(envelope::ok(serde_json::Value::Null))
}
