//! `/healthz`, `/readyz` and `/metrics` of every target on the admin address (`admin.addr`): the
//! only place metrics are served, kept off the gateway's public port.

use actix_web::{App, HttpResponse, HttpServer, web};

use crate::backends::Backends;

/// Starts the admin endpoint on `addr`; `/readyz` answers 503 naming the first backend of the
/// target that does not answer.
pub fn serve(
    addr: &str,
    target: &'static str,
    backends: Backends,
) -> Result<actix_web::dev::Server, String> {
    let server = HttpServer::new(move || {
        let backends = backends.clone();
        App::new()
            .route(
                "/healthz",
                web::get().to(|| async { HttpResponse::Ok().body("ok\n") }),
            )
            .route(
                "/readyz",
                web::get().to(move || {
                    let backends = backends.clone();
                    async move {
                        match backends.check().await {
                            Ok(()) => HttpResponse::Ok().body(format!("ready: {target}\n")),
                            Err(why) => HttpResponse::ServiceUnavailable()
                                .body(format!("not ready: {target}: {why}\n")),
                        }
                    }
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
