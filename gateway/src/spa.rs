//! Serves the built SPA at `/`: files from the build directory, `index.html` for everything else
//! outside the API (the router uses hashes, so this is only the entry point and its assets). Source
//! maps are never served, even when a build left some in the directory. The entry page names the
//! variant its host selects, so a carrier's own host shows that carrier's pages without a
//! `?variant=` in the address.

use std::path::{Path, PathBuf};

use actix_web::http::header::{self, EntityTag};
use actix_web::{HttpRequest, HttpResponse, web};
use std::hash::{Hash, Hasher};

use crate::{ApiError, caller};

/// The meta tag the front end reads the host's variant from (`frontend/src/app/variant.ts`).
const VARIANT_META: &str = "reelforge-variant";

/// Registers the static routes, or a plain page saying the front end is not built.
pub fn routes(cfg: &mut web::ServiceConfig, dir: &Path) {
    let index = dir.join("index.html");
    if index.is_file() {
        let index = web::Data::new(Index(index));
        cfg.app_data(index)
            .route(r"/{file:.*\.map}", web::route().to(not_found))
            .route("/", web::get().to(entry))
            .route("/index.html", web::get().to(entry))
            .service(actix_files::Files::new("/", dir).default_handler(web::to(entry)));
    } else {
        let shown = dir.display().to_string();
        cfg.default_service(web::to(move || {
            let shown = shown.clone();
            async move {
                HttpResponse::NotFound()
                    .content_type("text/plain; charset=utf-8")
                    .body(format!("Reelforge: the web front end is not built ({shown}/index.html is missing); run `make run`.\n"))
            }
        }));
    }
}

/// Where the built entry page is; read on each request, so a rebuilt front end is served at once.
struct Index(PathBuf);

/// The entry page with the request's variant in its head, revalidated by an ETag of what is sent.
async fn entry(req: HttpRequest, index: web::Data<Index>) -> Result<HttpResponse, ApiError> {
    let variant = caller::tenant(&req)?;
    let page = tokio::fs::read_to_string(&index.0).await.map_err(|e| {
        tracing::warn!(path = %index.0.display(), error = %e, "the front end's entry page cannot be read");
        ApiError::NotFound
    })?;
    let body = with_variant(&page, &variant);
    // Only a change of the page must change the tag: a fixed-key hash of what is sent does.
    let mut hash = std::collections::hash_map::DefaultHasher::new();
    body.hash(&mut hash);
    let tag = EntityTag::new_strong(format!("{:016x}", hash.finish()));
    let unchanged = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim().parse::<EntityTag>().is_ok_and(|t| t.weak_eq(&tag))));
    let mut res = if unchanged { HttpResponse::NotModified() } else { HttpResponse::Ok() };
    res.insert_header(header::ETag(tag));
    Ok(if unchanged { res.finish() } else { res.content_type("text/html; charset=utf-8").body(body) })
}

/// `page` with a meta tag naming `variant` before its `</head>`. Variant keys come from the
/// configuration; one that is not a plain word is left out rather than written into the page.
fn with_variant(page: &str, variant: &str) -> String {
    let plain = !variant.is_empty() && variant.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    match page.find("</head>") {
        Some(at) if plain => format!("{}<meta name=\"{VARIANT_META}\" content=\"{variant}\" />{}", &page[..at], &page[at..]),
        _ => page.to_owned(),
    }
}

async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_variant_is_named_in_the_head_only_when_it_is_a_plain_word() {
        let page = "<html><head><title>x</title></head><body></body></html>";
        assert_eq!(
            with_variant(page, "cc"),
            "<html><head><title>x</title><meta name=\"reelforge-variant\" content=\"cc\" /></head><body></body></html>"
        );
        assert_eq!(with_variant(page, "c\"c><script>"), page);
        assert_eq!(with_variant("<p>no head</p>", "cc"), "<p>no head</p>");
    }
}
