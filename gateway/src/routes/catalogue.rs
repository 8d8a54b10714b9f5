//! Catalogue previews: `GET /catalogue/preview/{kind}/{key}`, a transition's or a filter's PNG drawn
//! by the render engine (`crate::preview`). The same for every tenant and user, so it is served to
//! any caller of a known variant and cached by the browser.

use actix_web::{HttpRequest, HttpResponse, web};

use crate::preview::{self, Kind};
use crate::{ApiError, AppState, caller};

/// A transition's or a filter's preview, drawn by the renderer.
#[utoipa::path(get, path = "/diyvrbt/catalogue/preview/{kind}/{key}", params(("kind" = String, Path, description = "transition or filter"), ("key" = String, Path, description = "the catalogue key, e.g. MOVE_LEFT or blackWhite")), responses((status = 200, content_type = "image/png", body = Vec<u8>)))]
pub async fn preview(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    // The tenant must be known even though every tenant gets the same catalogue.
    caller::anonymous(&req, &state)?;
    let (kind, key) = path.into_inner();
    let png = preview::png(Kind::parse(&kind)?, &key).await?;
    Ok(HttpResponse::Ok()
        .content_type("image/png")
        .insert_header(("Cache-Control", "public, max-age=86400"))
        .body(png.as_ref().clone()))
}
