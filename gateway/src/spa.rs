//! Serves the built SPA at `/`: files from the build directory, `index.html` for everything else
//! outside the API (the router uses hashes, so this is only the entry point and its assets). Source
//! maps are never served, even when a build left some in the directory.

use std::path::{Path, PathBuf};

use actix_web::{HttpResponse, web};

use crate::ApiError;

/// Registers the static routes, or a plain page saying the front end is not built.
pub fn routes(cfg: &mut web::ServiceConfig, dir: &Path) {
    let index = dir.join("index.html");
    if index.is_file() {
        let index: PathBuf = index;
        cfg.route(r"/{file:.*\.map}", web::route().to(not_found)).service(
            actix_files::Files::new("/", dir)
                .index_file("index.html")
                .default_handler(web::to(move || {
                    let index = index.clone();
                    async move { actix_files::NamedFile::open_async(index).await }
                })),
        );
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

async fn not_found() -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound)
}
