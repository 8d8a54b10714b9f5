//! `/healthz`, `/readyz` and `/metrics` for targets that are not the gateway.

use actix_web::{App, HttpResponse, HttpServer, web};

/// Starts the admin endpoint on `addr`.
pub fn serve(addr: &str, target: &'static str) -> Result<actix_web::dev::Server, String> {
    let server = HttpServer::new(move || {
        App::new()
            .route(
                "/healthz",
                web::get().to(|| async { HttpResponse::Ok().body("ok\n") }),
            )
            .route(
                "/readyz",
                web::get().to(move || async move {
                    HttpResponse::Ok().body(format!("ready: {target}\n"))
                }),
            )
            .route(
                "/metrics",
                web::get().to(|| async {
                    HttpResponse::Ok()
                        .content_type("text/plain; version=0.0.4")
                        .body(reelforge_kit::metrics::render())
                }),
            )
    })
    .workers(1)
    .disable_signals()
    .bind(addr)
    .map_err(|e| format!("admin endpoint {addr}: {e}"))?
    .run();
    Ok(server)
}
