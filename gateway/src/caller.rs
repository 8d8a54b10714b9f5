//! Who is calling. The tenant comes from `X-Variant` or the host (the configured variants); the user
//! from the token in `Authorization`, checked by the auth service (signature, key, expiry, deny-list,
//! disabled users). Every service call then carries that token in its metadata, or, for the public
//! reads and the sign-in calls, a service token for the tenant minted here.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};

use actix_web::HttpRequest;
use reelforge_kit::config::{TenantConfig, TrustedProxy};
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
    /// Header the trusted proxies put the browser's address in; empty uses the peer address.
    pub client_ip_header: String,
    /// Proxies whose header is believed: the peer must be one, and they are skipped in the header.
    pub trusted_proxies: Vec<TrustedProxy>,
}

impl Edge {
    /// Reads the edge settings from the configuration.
    pub fn from_config(config: &reelforge_kit::Config) -> Self {
        let edge = Self {
            variants: config.tenants.clone(),
            client_ip_header: config.http.client_ip_header.to_lowercase(),
            trusted_proxies: config.http.trusted_proxies.clone(),
        };
        if !edge.client_ip_header.is_empty() && edge.trusted_proxies.is_empty() {
            tracing::warn!(header = %edge.client_ip_header, "http.client_ip_header is ignored: http.trusted_proxies names no proxy");
        }
        edge
    }

    /// Whether any variant names its hosts: then only those hosts are served.
    fn names_hosts(&self) -> bool {
        self.variants.values().any(|t| !t.hosts.is_empty())
    }

    /// Whether a request for `host` is served: always when no variant names hosts (development, where
    /// a variant key as the first label selects it), else only when a variant names that host.
    pub fn serves_host(&self, host: &str) -> bool {
        !self.names_hosts() || self.variant_of_configured_host(host).is_some()
    }

    fn is_trusted(&self, ip: IpAddr) -> bool {
        self.trusted_proxies.iter().any(|p| p.contains(ip))
    }

    /// The browser's address given the connection's `peer` and the values of the client address
    /// header: the right-most entry that is not a trusted proxy, each proxy having appended the
    /// address it was reached from. The header counts only when the peer is a trusted proxy, as
    /// anyone else may write anything there; an entry that is not an address ends the walk at the
    /// proxy that wrote it.
    fn client_address<'a>(&self, peer: Option<IpAddr>, header: impl DoubleEndedIterator<Item = &'a str>) -> Option<IpAddr> {
        let peer = peer?.to_canonical();
        if self.client_ip_header.is_empty() || !self.is_trusted(peer) {
            return Some(peer);
        }
        let mut client = peer;
        for entry in header.rev().flat_map(|v| v.rsplit(',')).map(str::trim) {
            let Some(ip) = parse_forwarded(entry) else { break };
            client = ip;
            if !self.is_trusted(ip) {
                break;
            }
        }
        Some(client)
    }

    /// The variant a host name belongs to: a configured host, else a variant key as its first label.
    fn variant_of_host(&self, host: &str) -> Option<&str> {
        self.variant_of_configured_host(host)
            .or_else(|| self.variants.get_key_value(host_without_port(host).split('.').next().unwrap_or_default()).map(|(k, _)| k.as_str()))
    }

    /// The variant whose configured hosts name `host`.
    fn variant_of_configured_host(&self, host: &str) -> Option<&str> {
        let host = host_without_port(host);
        self.variants.iter().find(|(_, t)| t.hosts.iter().any(|h| h.eq_ignore_ascii_case(host))).map(|(k, _)| k.as_str())
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

/// An address as proxies write it in `X-Forwarded-For`: `192.0.2.7`, `2001:db8::1`, or with a port
/// (`192.0.2.7:5000`, `[2001:db8::1]:5000`).
fn parse_forwarded(entry: &str) -> Option<IpAddr> {
    entry
        .parse::<IpAddr>()
        .or_else(|_| entry.parse::<SocketAddr>().map(|a| a.ip()))
        .ok()
        .map(|ip| ip.to_canonical())
}

/// The browser's address: from the client address header when the peer is a trusted proxy (see
/// [`Edge::client_address`]), else the peer.
pub fn client_ip(req: &HttpRequest) -> String {
    let edge = edge(req);
    let values = req.headers().get_all(edge.client_ip_header.as_str()).filter_map(|v| v.to_str().ok()).collect::<Vec<_>>();
    let peer = req.peer_addr().map(|a| a.ip());
    edge.client_address(peer, values.into_iter()).map(|ip| ip.to_string()).unwrap_or_default()
}

/// Whether the request's host is one the gateway serves (see [`Edge::serves_host`]).
pub fn serves_host(req: &HttpRequest) -> bool {
    edge(req).serves_host(req.connection_info().host())
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
            variants.insert(k.to_owned(), TenantConfig { hosts: hosts.into_iter().map(str::to_owned).collect(), handoff_secret: String::new(), import_hosts: Vec::new() });
        }
        Edge { variants, client_ip_header: String::new(), trusted_proxies: Vec::new() }
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
    fn unknown_hosts_are_not_served_once_a_variant_names_hosts() {
        let e = edge();
        assert!(e.serves_host("video.example.com:8080") && e.serves_host("CC.example.net"));
        for unknown in ["other.example.org", "127.0.0.1:8080", "[::1]:8080", "", "video.example.com.evil.org", "migu.localhost", "cc.evil.org"] {
            assert!(!e.serves_host(unknown), "{unknown}");
        }
        let open = Edge { variants: [("qs".to_owned(), TenantConfig::default())].into(), ..Edge::default() };
        assert!(open.serves_host("127.0.0.1:8080") && open.serves_host("qs.localhost"), "no variant names hosts: every host is served");
    }

    fn behind(proxies: &[&str]) -> Result<Edge, Box<dyn std::error::Error>> {
        let trusted_proxies = proxies.iter().map(|p| TrustedProxy::parse(p)).collect::<Result<_, _>>()?;
        Ok(Edge { client_ip_header: "x-forwarded-for".into(), trusted_proxies, ..edge() })
    }

    fn client(e: &Edge, peer: &str, forwarded: &[&str]) -> Result<String, Box<dyn std::error::Error>> {
        let peer: IpAddr = peer.parse()?;
        let mut req = actix_web::test::TestRequest::default().peer_addr(SocketAddr::new(peer, 40000));
        for value in forwarded {
            req = req.append_header(("X-Forwarded-For", *value));
        }
        let req = req.app_data(actix_web::web::Data::new(e.clone())).to_http_request();
        Ok(client_ip(&req))
    }

    #[test]
    fn the_client_is_the_right_most_address_no_trusted_proxy_wrote() -> Result<(), Box<dyn std::error::Error>> {
        let e = behind(&["10.0.0.0/8", "192.0.2.7"])?;
        assert_eq!(client(&e, "10.0.0.5", &["6.6.6.6, 203.0.113.9"])?, "203.0.113.9", "the first entry is the browser's to choose");
        assert_eq!(client(&e, "10.0.0.5", &["6.6.6.6, 203.0.113.9, 192.0.2.7, 10.1.2.3"])?, "203.0.113.9", "proxies are skipped");
        assert_eq!(client(&e, "10.0.0.5", &["6.6.6.6", "203.0.113.9:5123, 10.1.2.3"])?, "203.0.113.9", "header lines in order, ports dropped");
        assert_eq!(client(&e, "10.0.0.5", &["[2001:db8::9]:443"])?, "2001:db8::9");
        assert_eq!(client(&e, "10.0.0.5", &["10.9.9.9, 10.1.2.3"])?, "10.9.9.9", "only proxies: the left-most");
        assert_eq!(client(&e, "10.0.0.5", &["6.6.6.6, junk, 10.1.2.3"])?, "10.1.2.3", "garbage ends the walk at its writer");
        assert_eq!(client(&e, "10.0.0.5", &[])?, "10.0.0.5", "no header: the proxy itself");
        assert_eq!(client(&e, "::ffff:10.0.0.5", &["203.0.113.9"])?, "203.0.113.9", "a mapped IPv4 peer is the proxy");
        Ok(())
    }

    #[test]
    fn the_header_counts_only_from_a_trusted_proxy() -> Result<(), Box<dyn std::error::Error>> {
        let e = behind(&["10.0.0.0/8"])?;
        assert_eq!(client(&e, "203.0.113.50", &["6.6.6.6"])?, "203.0.113.50", "a browser speaking directly");
        let nobody = behind(&[])?;
        assert_eq!(client(&nobody, "10.0.0.5", &["6.6.6.6"])?, "10.0.0.5", "no trusted proxies: the header is ignored");
        let no_header = Edge { client_ip_header: String::new(), ..behind(&["10.0.0.0/8"])? };
        assert_eq!(client(&no_header, "10.0.0.5", &["6.6.6.6"])?, "10.0.0.5");
        Ok(())
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
