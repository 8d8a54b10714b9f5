//! Refuses requests for a host no variant claims once any variant names its hosts: such a request
//! would otherwise be served as the default variant. The probes answer on any host (kubelets and
//! load balancers call them by address).

use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::ResponseError;
use actix_web::middleware::Next;

use crate::{ApiError, caller};

/// Paths answered whatever the host.
const PROBES: [&str; 2] = ["/healthz", "/readyz"];

/// Answers 404 in the envelope for a host the gateway does not serve (see `Edge::serves_host`).
pub async fn served_hosts<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
    if PROBES.contains(&req.path()) || caller::serves_host(req.request()) {
        return Ok(next.call(req).await?.map_into_left_body());
    }
    tracing::debug!(host = %req.connection_info().host(), "request for a host no variant names");
    Ok(req.into_response(ApiError::NotFound.error_response()).map_into_right_body())
}
