//! Catalogue previews: `GET /catalogue/preview/{kind}/{key}`, a transition's or a filter's PNG drawn
//! by the render engine (`crate::preview`). The same for every tenant and user, so it is served to
//! any caller of a known variant and cached by the browser. And the tenant's offer of the editor's
//! animations and art-word styles (`/catalogue/offer/{catalogue}`, set by administrators through
//! `/maintain/catalogue/offer`), which the task service keeps.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::task as pb;
use serde::{Deserialize, Serialize};

use crate::preview::{self, Kind};
use crate::{ApiError, AppState, body, caller, envelope};

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

/// One entry of a catalogue offer.
#[derive(Serialize, Deserialize, utoipa::ToSchema)]
pub struct OfferItemDto {
    /// The catalogue key (an animation's `FADE_IN`, an art-word style's `gold`).
    key: String,
    /// Whether the editor offers it for new picks.
    offered: bool,
}

/// A tenant's offer of an editor catalogue: every entry once, in the tenant's order.
#[derive(Serialize, Deserialize, utoipa::ToSchema)]
pub struct OfferDto {
    /// `animation` or `artWord`.
    catalogue: String,
    items: Vec<OfferItemDto>,
}

fn offer_dto(o: pb::Offer) -> OfferDto {
    OfferDto { catalogue: o.catalogue, items: o.items.into_iter().map(|i| OfferItemDto { key: i.key, offered: i.offered }).collect() }
}

/// The tenant's offer of the editor's animations (`animation`) or art-word styles (`artWord`).
#[utoipa::path(get, path = "/diyvrbt/catalogue/offer/{catalogue}", params(("catalogue" = String, Path, description = "animation or artWord")), responses((status = 200, body = OfferDto)))]
pub async fn offer(req: HttpRequest, catalogue: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = pb::OfferRequest { catalogue: catalogue.into_inner() };
    let o = state.clients.task.clone().catalogue_offer(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok(offer_dto(o)))
}

/// Sets the tenant's offer (administrators): `items` names every entry of the catalogue once, in
/// the new order, one offered at least; otherwise nothing changes and `desc` says what is wrong.
/// Audited under `catalogue:{catalogue}`.
#[utoipa::path(post, path = "/diyvrbt/maintain/catalogue/offer", request_body = OfferDto, responses((status = 200, body = OfferDto)))]
pub async fn set_offer(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: OfferDto = body::parse(&req, &bytes)?;
    let r = pb::Offer { catalogue: b.catalogue, items: b.items.into_iter().map(|i| pb::OfferItem { key: i.key, offered: i.offered }).collect() };
    let caller = caller::caller(&req, &state).await?;
    let o = state.clients.task.clone().set_catalogue_offer(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(offer_dto(o), "修改成功"))
}
