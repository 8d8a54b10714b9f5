//! Who is calling. The tenant comes from `X-Variant` or the host (the configured variants); the user
//! from the token in `Authorization`, checked by the auth service (signature, key, expiry, deny-list,
//! disabled users). Every service call then carries that token in its metadata, or, for the public
//! reads and the sign-in calls, a service token for the tenant minted here.

use std::collections::BTreeMap;

use actix_web::HttpRequest;
use reelforge_kit::config::TenantConfig;
use reelforge_kit::identity::{self, CLIENT_IP};
use reelforge_proto::auth::UserInfo;
use reelforge_proto::common::Empty;

use crate::{ApiError, AppState};

/// The variant that serves a host no variant claims.
pub const DEFAULT_VARIANT: &str = "qs";
/// The variant whose browsers send `Authorization: Bearer <token>` and no `userId` header.
pub const BEARER_VARIANT: &str = "cc";
/// Seconds a gateway-minted service token lives: one call.
const SERVICE_TOKEN_SECONDS: u64 = 60;

/// What the gateway knows about the edge: the variants and where the browser's address is.
#[derive(Debug, Clone, Default)]
pub struct Edge {
    /// The configured variants by key.
    pub variants: BTreeMap<String, TenantConfig>,
    /// Header a trusted proxy puts the browser's address in; empty uses the peer address.
    pub client_ip_header: String,
}

impl Edge {
    /// Reads the edge settings from the configuration.
    pub fn from_config(config: &reelforge_kit::Config) -> Self {
        Self { variants: config.tenants.clone(), client_ip_header: config.http.client_ip_header.to_lowercase() }
    }

    /// The variant a host name belongs to: a configured host, else a variant key as its first label.
    fn variant_of_host(&self, host: &str) -> Option<&str> {
        let host = host_without_port(host);
        self.variants
            .iter()
            .find(|(_, t)| t.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)))
            .or_else(|| self.variants.get_key_value(host.split('.').next().unwrap_or_default()))
            .map(|(k, _)| k.as_str())
    }

    /// Whether `url` is an http(s) address on one of `tenant`'s configured hosts.
    pub fn is_own_url(&self, tenant: &str, url: &str) -> bool {
        let Some(rest) = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://")) else { return false };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        if authority.contains(['@', '\\']) || url.chars().any(char::is_control) {
            return false;
        }
        let host = host_without_port(authority);
        self.variants.get(tenant).is_some_and(|t| t.hosts.iter().any(|h| h.eq_ignore_ascii_case(host)))
    }
}

fn host_without_port(host: &str) -> &str {
    if let Some(end) = host.strip_prefix('[').and_then(|h| h.find(']')) {
        return &host[..end + 2];
    }
    match host.rsplit_once(':') {
        Some((h, port)) if port.bytes().all(|b| b.is_ascii_digit()) => h,
        _ => host,
    }
}

/// Whether `url` is on one of `tenant`'s configured hosts.
pub fn is_own_url(req: &HttpRequest, tenant: &str, url: &str) -> bool {
    edge(req).is_own_url(tenant, url)
}

/// What a gateway started without edge settings knows: nothing configured.
static NO_EDGE: std::sync::LazyLock<Edge> = std::sync::LazyLock::new(Edge::default);

// Borrowed, not cloned: every request reads it, some several times.
fn edge(req: &HttpRequest) -> &Edge {
    req.app_data::<actix_web::web::Data<Edge>>().map_or(&NO_EDGE, |e| e.get_ref())
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers().get(name).and_then(|v| v.to_str().ok()).map(str::trim).filter(|v| !v.is_empty())
}

/// The tenant of a request: `X-Variant` (a configured variant, else an error naming it), else the
/// variant of the host, else the default variant.
pub fn tenant(req: &HttpRequest) -> Result<String, ApiError> {
    let edge = edge(req);
    if let Some(v) = header(req, "x-variant") {
        return if edge.variants.contains_key(v) {
            Ok(v.to_owned())
        } else {
            let known: Vec<&str> = edge.variants.keys().map(String::as_str).collect();
            Err(ApiError::BadRequest(format!("X-Variant: unknown variant `{v}` (known: {})", known.join(", "))))
        };
    }
    let host = req.connection_info().host().to_owned();
    Ok(edge.variant_of_host(&host).unwrap_or(DEFAULT_VARIANT).to_owned())
}

/// The keys of the variants served.
pub fn variants(req: &HttpRequest) -> Vec<String> {
    edge(req).variants.keys().cloned().collect()
}

/// The browser's address: the trusted proxy's header when configured, else the peer.
pub fn client_ip(req: &HttpRequest) -> String {
    let edge = edge(req);
    if !edge.client_ip_header.is_empty()
        && let Some(first) = header(req, &edge.client_ip_header).and_then(|v| v.split(',').next())
    {
        return first.trim().to_owned();
    }
    req.peer_addr().map(|a| a.ip().to_string()).unwrap_or_default()
}

/// A caller the services will believe: a token and the browser's address.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The tenant of the request.
    pub tenant: String,
    /// The signed-in user, when the call needs one.
    pub user: Option<UserInfo>,
    token: String,
    client_ip: String,
}

impl Caller {
    /// A service request carrying `msg`, the caller's token and the browser's address.
    pub fn request<T>(&self, msg: T) -> Result<tonic::Request<T>, ApiError> {
        let mut req = identity::request(msg, &self.token).map_err(|_| ApiError::LoginExpired)?;
        if let Ok(ip) = self.client_ip.parse() {
            req.metadata_mut().insert(CLIENT_IP, ip);
        }
        Ok(req)
    }

    /// The signed-in user.
    pub fn user(&self) -> Result<&UserInfo, ApiError> {
        self.user.as_ref().ok_or(ApiError::LoginExpired)
    }
}

/// The token of a request: `Authorization: Bearer <token>` for the bearer variant, the bare token
/// (a `Bearer ` prefix tolerated) otherwise.
fn token(req: &HttpRequest, tenant: &str) -> Result<String, ApiError> {
    let value = header(req, "authorization").ok_or(ApiError::LoginExpired)?;
    let token = match value.strip_prefix("Bearer ") {
        Some(t) => t.trim(),
        None if tenant == BEARER_VARIANT => return Err(ApiError::LoginExpired),
        None => value,
    };
    if token.is_empty() { Err(ApiError::LoginExpired) } else { Ok(token.to_owned()) }
}

/// The signed-in caller; no, a bad, revoked or foreign-tenant token, or a `userId` header naming
/// someone else, is 'login expired'.
pub async fn caller(req: &HttpRequest, state: &AppState) -> Result<Caller, ApiError> {
    let tenant = tenant(req)?;
    let token = token(req, &tenant)?;
    let mut caller = Caller { tenant: tenant.clone(), user: None, token, client_ip: client_ip(req) };
    let user = state.clients.auth.clone().verify(caller.request(Empty {})?).await.map_err(|s| {
        if s.code() == tonic::Code::Unauthenticated { ApiError::LoginExpired } else { ApiError::Service(s) }
    })?;
    let user = user.into_inner();
    if user.tenant != tenant {
        return Err(ApiError::LoginExpired);
    }
    if tenant != BEARER_VARIANT && header(req, "userid") != Some(user.user_id.as_str()) {
        return Err(ApiError::LoginExpired);
    }
    caller.user = Some(user);
    Ok(caller)
}

/// A caller with only the tenant, for public reads and sign-in: a service token minted here.
pub fn anonymous(req: &HttpRequest, state: &AppState) -> Result<Caller, ApiError> {
    service_caller(req, state, None)
}

/// A caller acting for `user_id` of the request's tenant, whom the gateway itself has verified by
/// other means (a media ticket): a service token minted here.
pub fn acting_for(req: &HttpRequest, state: &AppState, user_id: &str) -> Result<Caller, ApiError> {
    service_caller(req, state, Some(user_id))
}

fn service_caller(req: &HttpRequest, state: &AppState, user_id: Option<&str>) -> Result<Caller, ApiError> {
    let tenant = tenant(req)?;
    let token = state.keys.service_token(&tenant, user_id, SERVICE_TOKEN_SECONDS).map_err(|e| {
        tracing::error!(error = %e, "service token");
        ApiError::Service(tonic::Status::internal("internal error, please retry later"))
    })?;
    Ok(Caller { tenant, user: None, token, client_ip: client_ip(req) })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge() -> Edge {
        let mut variants = BTreeMap::new();
        for (k, hosts) in [("qs", vec!["video.example.com"]), ("cc", vec!["cc.example.net", "app.cc.example.net"]), ("migu", vec![]), ("cu", vec![])] {
            variants.insert(k.to_owned(), TenantConfig { hosts: hosts.into_iter().map(str::to_owned).collect(), handoff_secret: String::new() });
        }
        Edge { variants, client_ip_header: String::new() }
    }

    #[test]
    fn hosts_choose_the_variant() {
        let e = edge();
        assert_eq!(e.variant_of_host("cc.example.net:8443"), Some("cc"));
        assert_eq!(e.variant_of_host("APP.cc.example.net"), Some("cc"));
        assert_eq!(e.variant_of_host("migu.localhost"), Some("migu"));
        assert_eq!(e.variant_of_host("other.example.org"), None);
    }

    #[test]
    fn back_addresses_only_to_the_variants_hosts() {
        let e = edge();
        assert!(e.is_own_url("cc", "https://cc.example.net/portal?x=1"));
        assert!(e.is_own_url("cc", "https://app.cc.example.net:8443/#/home"));
        for bad in [
            "https://evil.example.org/",
            "https://cc.example.net@evil.example.org/",
            "https://evil.example.org\\@cc.example.net/",
            "javascript:alert(1)",
            "//cc.example.net/",
            "https://cc.example.net.evil.org/",
            "https://video.example.com/",
        ] {
            assert!(!e.is_own_url("cc", bad), "{bad}");
        }
    }
}
