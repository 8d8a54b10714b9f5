//! The maintenance area's system library (administrators, operator level 0):
//! `POST /maintain/material/list`, `/maintain/material/upload` and `/maintain/material/update`.
//! The material service decides who may; the gateway only refuses a non-administrator before it
//! stores a file for nothing.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::material as pb;
use serde::Serialize;

use crate::caller::Caller;
use crate::upload::{self, Rules, SystemCategory, UploadError};
use crate::{ApiError, AppState, body, caller, envelope};

/// Refuses anyone but an administrator, as the services do (envelope 4001).
fn administrator(caller: &Caller) -> Result<(), ApiError> {
    if caller.user()?.operator_level == 0 {
        Ok(())
    } else {
        Err(ApiError::Service(tonic::Status::permission_denied("role administrator (operator level 0) required")))
    }
}

/// The tenant's system materials in every open state (1 offered, 0 retired), with the filters of
/// `/material/ofdefault` (`categoryId`, `type`, `styleId`, `openState`, `pageNum`, `pageSize`).
#[utoipa::path(post, path = "/diyvrbt/maintain/material/list", request_body = crate::routes::material::MaterialBody, responses((status = 200, body = crate::routes::material::MaterialPage)))]
pub async fn list(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    crate::routes::material::page(req, bytes, &state, true, true).await
}

/// The answer of a system upload.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SystemUploaded {
    /// The new material's id.
    id: String,
}

/// Uploads one system material (multipart: `categoryId` of a starter category, optional
/// `styleId` and `materialName`, then `uploadFile` last). It is offered to every user of the
/// tenant at once and probed as uploads are; `data` is `{id}`.
#[utoipa::path(post, path = "/diyvrbt/maintain/material/upload", responses((status = 200, body = SystemUploaded), (status = 413, description = "the announced body is larger than any upload")))]
pub async fn upload(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let limits = upload::limits(&req);
    upload::within(&req, upload::single_limit(&limits))?;
    let caller = caller::caller(&req, &state).await?;
    administrator(&caller)?;
    let rules = Rules { limits: &limits, kinds: &[], announced: upload::announced(&req) };
    let id = upload::system_material(&req, payload, &state, &caller, &rules, SystemCategory::FromForm, "upload").await?;
    Ok(envelope::ok_with(SystemUploaded { id }, "素材添加成功"))
}

/// Answer of the update: how many materials changed.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Changed {
    changed: u64,
}

/// Changes system materials `materialIds` ("a,b" or a list): `materialName`, `categoryId` (a
/// starter category listing the same kind), `styleId` (-1 or 1–8), `openState` (1 offers, 0
/// retires); a field left out stays as it is. All of them are the tenant's, or nothing changes.
#[utoipa::path(post, path = "/diyvrbt/maintain/material/update", request_body = crate::routes::material::MaterialBody, responses((status = 200, body = Changed)))]
pub async fn update(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let number = |name: &str| crate::routes::material::int(&f, name);
    let open_state = number("openState")?
        .map(|v| i32::try_from(v).map_err(|_| ApiError::BadRequest(format!("openState: `{v}` is out of range"))))
        .transpose()?;
    let r = pb::UpdateSystemRequest {
        ids: crate::routes::material::id_list(&f, "materialIds"),
        name: crate::routes::material::text(&f, "materialName"),
        category_id: number("categoryId")?,
        style_id: number("styleId")?,
        open_state,
    };
    let caller = caller::caller(&req, &state).await?;
    let ids = r.ids.clone();
    let after = serde_json::json!({"materialName": r.name, "categoryId": r.category_id, "styleId": r.style_id, "openState": r.open_state});
    let r = state.clients.material.clone().update_system(caller.request(r)?).await?.into_inner();
    for id in ids {
        crate::routes::maintain_task::record(&state, &caller, "material.update", format!("material:{id}"), String::new(), after.to_string()).await;
    }
    Ok(envelope::ok_with(Changed { changed: r.changed }, "修改成功"))
}
