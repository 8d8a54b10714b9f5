//! Shapes: `GET /shape/{uuid}`, the SVG of a catalogue shape.
//!
//! The 24 catalogue kinds are drawn by the project (`reelforge_timeline::catalogue::shapes::svg`)
//! and are the same for every tenant; their uuid is the catalogue key. The SVG goes out through
//! the sanitiser, so what the browser inserts and the renderer draws is the allow-listed tree.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_timeline::catalogue::shapes;
use reelforge_timeline::svg;
use serde::Serialize;

use crate::{ApiError, AppState, caller, envelope};

/// A shape as the editor reads it.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShapeDto {
    /// The sanitised SVG (100×100 viewBox, painted `currentColor`).
    shape_code: String,
    uuid: String,
    /// Chinese name.
    name: String,
}

/// The shape named `uuid`, or 3000 naming it.
fn shape(uuid: &str) -> Result<ShapeDto, ApiError> {
    let missing = || ApiError::BadRequest(format!("shape {uuid} does not exist"));
    let kind = shapes::get(uuid).ok_or_else(missing)?;
    let code = shapes::svg(kind.key).ok_or_else(missing)?;
    let shape_code = svg::sanitise(&code).map_err(|e| ApiError::BadRequest(format!("shape {uuid}: {e}")))?;
    Ok(ShapeDto { shape_code, uuid: kind.key.to_owned(), name: kind.name_zh.to_owned() })
}

/// A catalogue shape's SVG.
#[utoipa::path(get, path = "/diyvrbt/shape/{uuid}", params(("uuid" = String, Path, description = "the catalogue key: rect, circle, … complex-snow")), responses((status = 200, body = ShapeDto)))]
pub async fn get(req: HttpRequest, uuid: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    // The tenant must be known even though every tenant gets the same catalogue.
    caller::anonymous(&req, &state)?;
    Ok(envelope::ok(shape(&uuid)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalogue_shapes_answer_sanitised_svg_and_unknown_names_fail() {
        for kind in shapes::SHAPES {
            let s = shape(kind.key).unwrap_or_else(|e| panic!("{}: {e}", kind.key));
            svg::check(&s.shape_code).unwrap_or_else(|e| panic!("{}: {e}", kind.key));
            assert!(s.shape_code.contains("viewBox=\"0 0 100 100\""), "{}", s.shape_code);
            assert_eq!(s.name, kind.name_zh);
        }
        let answer = shape("../etc").map(|s| s.uuid).map_err(|e| (e.code(), e.to_string()));
        assert_eq!(answer, Err((3000, "shape ../etc does not exist".to_owned())));
    }
}
