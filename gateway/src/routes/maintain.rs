//! The maintenance area's system library (administrators, operator level 0):
//! `POST /maintain/material/list`, `/maintain/material/upload` and `/maintain/material/update`.
//! The material service decides who may; the gateway only refuses a non-administrator before it
//! stores a file for nothing.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::material as pb;
use serde::Serialize;

use crate::caller::Caller;
use crate::upload::{self, Rules, UploadError};
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

/// The fields sent before the file.
struct SystemForm {
    category_id: Option<i64>,
    style_id: i64,
    name: Option<String>,
}

impl SystemForm {
    fn set(&mut self, name: &str, value: &str) -> Result<(), ApiError> {
        let value = value.trim();
        let number = || value.parse::<i64>().map_err(|_| ApiError::BadRequest(format!("{name}: `{value}` is not a number")));
        match name {
            "categoryId" => self.category_id = Some(number()?),
            "styleId" if !value.is_empty() => self.style_id = number()?,
            "materialName" if !value.is_empty() => self.name = Some(value.to_owned()),
            _ => {}
        }
        Ok(())
    }
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
    let blob = state.media.as_ref().ok_or(ApiError::NotAvailable("material files from this gateway"))?.blob().clone();
    let rules = Rules { limits: &limits, kinds: &[], announced: upload::announced(&req) };
    let mut multipart = upload::form(&req, payload)?;
    let mut form = SystemForm { category_id: None, style_id: -1, name: None };
    let read = async {
        while let Some(field) = multipart.next().await {
            let mut field = field.map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
            if field.name() != Some("uploadFile") {
                let name = field.name().unwrap_or_default().to_owned();
                let value = upload::text(&mut field).await?;
                form.set(&name, &value)?;
                continue;
            }
            if form.category_id.is_none() {
                return Err(ApiError::BadRequest("categoryId: required before uploadFile".into()).into());
            }
            let dir = format!("{}{}/", reelforge_kit::blob::system_material_prefix(&caller.tenant), uuid::Uuid::new_v4());
            return upload::store(&mut field, &blob, &dir, "original", &rules).await;
        }
        Err(ApiError::BadRequest("uploadFile: no file sent".into()).into())
    }
    .await;
    let file = match read {
        Ok(file) => file,
        Err(e) => {
            multipart.drain().await;
            return Err(e);
        }
    };
    let display = form.name.clone().unwrap_or_else(|| if file.name.trim().is_empty() { format!("upload.{}", file.kind) } else { file.name.clone() });
    let record = pb::RecordMaterialRequest {
        key: file.key.clone(),
        r#type: file.kind.to_owned(),
        name: display,
        file_size: file.size,
        category_id: form.category_id.unwrap_or(-1),
        style_id: form.style_id,
        open_state: 1,
        system: true,
    };
    // The service removes the object when it refuses.
    let r = state.clients.material.clone().record(caller.request(record)?).await?.into_inner();
    let id = r.material.map(|m| m.material_id).unwrap_or_default();
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
    let r = state.clients.material.clone().update_system(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(Changed { changed: r.changed }, "修改成功"))
}
