//! Videos imported by address (`POST /material/v2/batchUrlVideoAddResult`, docs/toolbox.md "URL
//! import"): fetched only from the hosts the tenant's configuration lists (`tenants.{t}.import_hosts`),
//! every redirect checked against the list again, a private, loopback or link-local address only
//! when it is listed itself, and the connection pinned to the address checked (a name cannot resolve
//! elsewhere between the check and the fetch). Each file is stored as an upload is (its kind sniffed
//! from its first bytes, the video size limit, the quota) and recorded as the caller's material; a
//! refusal of any address names it (`urls[i]`) and nothing is stored.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::material as pb;
use serde::{Deserialize, Serialize};

use crate::caller::{self, Edge};
use crate::upload::{self, Rules, UploadError};
use crate::{ApiError, AppState, body, envelope};

/// Most addresses one call imports.
pub const MAX_URLS: usize = 10;
/// Most redirects followed from one address.
const MAX_REDIRECTS: usize = 3;

/// Body of the import.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportBody {
    /// The videos' addresses (http or https), 1–10.
    #[serde(default)]
    urls: Vec<String>,
}

/// Answer of the import.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportAnswer {
    /// The caller's materials, in the addresses' order (one the caller already had answers that material).
    material_ids: Vec<String>,
}

/// Why an address is refused; the message names nothing of the server.
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error("not an http or https address")]
    NotHttp,
    #[error("the host {0} is not one videos may be imported from")]
    HostNotListed(String),
    #[error("{0} is a private address, and it is not listed for imports")]
    Private(IpAddr),
    #[error("the host {0} could not be resolved")]
    Unresolved(String),
    #[error("more than {MAX_REDIRECTS} redirects")]
    TooManyRedirects,
    #[error("the server answered {0}")]
    Status(u16),
    #[error("the download failed: {0}")]
    Fetch(String),
    #[error("the download took longer than {0} s")]
    TooSlow(u64),
}

/// One entry of the allowlist: a host (a name or an IP address) and, when given, its port.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Allowed {
    host: String,
    port: Option<u16>,
}

impl Allowed {
    fn parse(entry: &str) -> Option<Self> {
        let entry = entry.trim().to_ascii_lowercase();
        let url = reqwest::Url::parse(&format!("http://{entry}/")).ok()?;
        let host = url.host_str()?.trim_start_matches('[').trim_end_matches(']').to_owned();
        Some(Self { host, port: url.port() })
    }
}

/// The tenant's allowlist.
struct Allowlist(Vec<Allowed>);

impl Allowlist {
    fn new(entries: &[String]) -> Self {
        Self(entries.iter().filter_map(|e| Allowed::parse(e)).collect())
    }

    /// Whether `url`'s host (and port, where the entry names one) is listed.
    fn lists(&self, host: &str, port: u16) -> bool {
        self.0.iter().any(|a| a.host == host && a.port.is_none_or(|p| p == port))
    }

    /// Whether the address itself is listed (a private one must be).
    fn lists_address(&self, ip: IpAddr) -> bool {
        self.0.iter().any(|a| a.host.parse::<IpAddr>().is_ok_and(|listed| listed == ip))
    }
}

/// An address no import reaches unless it is listed itself: loopback, private, link-local,
/// unspecified, carrier-grade NAT, unique-local and the like.
fn private(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback() || v4.is_private() || v4.is_link_local() || v4.is_unspecified() || v4.is_broadcast() || v4.is_multicast() || v4.is_documentation() || (a == 100 && (64..128).contains(&b)) || a == 0
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return private(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            v6.is_loopback() || v6.is_unspecified() || v6.is_multicast() || (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80
        }
    }
}

/// Checks `url` against the allowlist and resolves its host to an address it may be fetched from.
async fn check(url: &reqwest::Url, list: &Allowlist) -> Result<(String, SocketAddr), Refused> {
    if !matches!(url.scheme(), "http" | "https") {
        return Err(Refused::NotHttp);
    }
    let host = url.host_str().ok_or(Refused::NotHttp)?.trim_start_matches('[').trim_end_matches(']').to_ascii_lowercase();
    let port = url.port_or_known_default().ok_or(Refused::NotHttp)?;
    if !list.lists(&host, port) {
        return Err(Refused::HostNotListed(host));
    }
    let addresses: Vec<SocketAddr> = match host.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => tokio::net::lookup_host((host.as_str(), port)).await.map_err(|_| Refused::Unresolved(host.clone()))?.collect(),
    };
    // Every address the name has must pass, so which one a connection would take does not matter.
    if let Some(bad) = addresses.iter().find(|a| private(a.ip()) && !list.lists_address(a.ip())) {
        return Err(Refused::Private(bad.ip()));
    }
    let first = *addresses.first().ok_or_else(|| Refused::Unresolved(host.clone()))?;
    Ok((host, first))
}

/// Fetches `url` following at most [`MAX_REDIRECTS`] redirects, each checked as the first address;
/// answers the response whose body is the file and the name its last address gives it.
async fn open(url: &str, list: &Allowlist, deadline: Instant, seconds: u64) -> Result<(reqwest::Response, String), Refused> {
    let mut at = reqwest::Url::parse(url.trim()).map_err(|_| Refused::NotHttp)?;
    for _ in 0..=MAX_REDIRECTS {
        let (host, address) = check(&at, list).await?;
        let left = deadline.saturating_duration_since(Instant::now());
        let client = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            // A proxy of the environment would connect elsewhere than the address checked.
            .no_proxy()
            .resolve(&host, address)
            .connect_timeout(left.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| Refused::Fetch(e.to_string()))?;
        let answer = tokio::time::timeout(left, client.get(at.clone()).send())
            .await
            .map_err(|_| Refused::TooSlow(seconds))?
            .map_err(|e| Refused::Fetch(e.without_url().to_string()))?;
        let status = answer.status();
        if status.is_redirection() {
            let location = answer.headers().get(reqwest::header::LOCATION).and_then(|v| v.to_str().ok()).ok_or(Refused::Status(status.as_u16()))?;
            at = at.join(location).map_err(|_| Refused::NotHttp)?;
            continue;
        }
        if !status.is_success() {
            return Err(Refused::Status(status.as_u16()));
        }
        let name = at.path_segments().and_then(|mut s| s.next_back()).filter(|s| !s.is_empty()).unwrap_or("video").to_owned();
        let name = percent_decode(&name);
        return Ok((answer, name));
    }
    Err(Refused::TooManyRedirects)
}

/// The name of a path segment with its `%xx` escapes decoded (lossily).
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%'
            && let Some(v) = s.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Names `urls[i]` in a refusal of the upload's kind.
fn named(i: usize, e: UploadError) -> UploadError {
    match e {
        UploadError::Refused(r) => UploadError::Refused(Box::new(r.naming(&format!("urls[{i}]")))),
        UploadError::Api(e) => UploadError::Api(e),
    }
}

fn refused(field: &str, why: impl std::fmt::Display) -> HttpResponse {
    envelope::refused(StatusCode::OK, serde_json::json!({ "field": field }), &format!("{field}: {why}"))
}

/// Imports videos by address into the caller's library.
#[utoipa::path(post, path = "/diyvrbt/material/v2/batchUrlVideoAddResult", request_body = ImportBody, responses((status = 200, body = ImportAnswer)))]
pub async fn batch(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let b: ImportBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    if b.urls.is_empty() || b.urls.len() > MAX_URLS {
        return Ok(refused("urls", format!("give 1 to {MAX_URLS} addresses")));
    }
    let entries = req.app_data::<web::Data<Edge>>().and_then(|e| e.variants.get(&caller.tenant)).map(|t| t.import_hosts.clone()).unwrap_or_default();
    if entries.is_empty() {
        return Ok(refused("urls", "not configured: this site lists no host videos may be imported from"));
    }
    let list = Allowlist::new(&entries);
    let limits = upload::limits(&req);
    let media = state.media.as_ref().ok_or(ApiError::NotAvailable("storing imports"))?;
    let blob = media.blob().clone();
    let user = caller.user()?.user_id.clone();
    let usage = state.clients.material.clone().usage(caller.request(reelforge_proto::common::Empty {})?).await.map_err(ApiError::from)?;
    let quota: upload::Quota = usage.into_inner().into();
    let prefix = reelforge_kit::blob::user_material_prefix(&caller.tenant, &user);
    let rules = Rules { limits: &limits, kinds: &["video"], announced: None };
    let seconds = limits.import_seconds.max(1);
    // Every file is stored before any is recorded, as a multi-file upload is: a refused address
    // leaves nothing behind.
    let mut stored: Vec<upload::Stored> = Vec::new();
    let mut total = 0u64;
    let mut failure = None;
    for (i, url) in b.urls.iter().enumerate() {
        let deadline = Instant::now() + Duration::from_secs(seconds);
        let (answer, name) = match open(url, &list, deadline, seconds).await {
            Ok(opened) => opened,
            Err(e) => {
                failure = Some(Ok(refused(&format!("urls[{i}]"), e)));
                break;
            }
        };
        let left = deadline.saturating_duration_since(Instant::now());
        let chunks = futures::stream::unfold(answer, |mut answer| async move {
            match answer.chunk().await {
                Ok(Some(chunk)) => Some((Ok(chunk), answer)),
                Ok(None) => None,
                Err(e) => Some((Err(UploadError::from(ApiError::BadRequest(format!("the download failed: {}", e.without_url())))), answer)),
            }
        });
        let mut chunks = Box::pin(chunks);
        let dir = format!("{prefix}{}/", uuid::Uuid::new_v4());
        let file = tokio::time::timeout(left, upload::store_stream(&mut chunks, name, &blob, &dir, "original", &rules)).await;
        match file {
            Ok(Ok(file)) => {
                total += file.size;
                stored.push(file);
                if let Err(r) = upload::fits_quota(&quota, total) {
                    failure = Some(Err(named(i, r.into())));
                    break;
                }
            }
            Ok(Err(e)) => {
                failure = Some(Err(named(i, e)));
                break;
            }
            Err(_) => {
                // The writer was dropped mid-way: whatever it left under the file's directory goes.
                for key in blob.list(&dir).await.unwrap_or_default() {
                    let _ = blob.delete(&key).await;
                }
                failure = Some(Ok(refused(&format!("urls[{i}]"), Refused::TooSlow(seconds))));
                break;
            }
        }
    }
    if let Some(f) = failure {
        for file in &stored {
            let _ = blob.delete(&file.key).await;
        }
        return f;
    }
    let mut ids = Vec::with_capacity(stored.len());
    for (i, file) in stored.iter().enumerate() {
        let record = file.record(-1, -1, 0);
        match state.clients.material.clone().record(caller.request(record)?).await {
            Ok(r) => {
                let r = r.into_inner();
                ids.push((r.material.map(|m| m.material_id).unwrap_or_default(), r.duplicate));
            }
            Err(s) => {
                // The service removes the object it refuses; the rest are removed here, and the
                // materials this call made are deleted: nothing of the call stays.
                for rest in &stored[i + 1..] {
                    let _ = blob.delete(&rest.key).await;
                }
                let made: Vec<String> = ids.iter().filter(|(_, dup)| !dup).map(|(id, _)| id.clone()).collect();
                if !made.is_empty() {
                    let undo = pb::DeleteRequest { ids: made, soft: false };
                    if let Err(s) = state.clients.material.clone().delete(caller.request(undo)?).await {
                        tracing::error!(status = ?s.code(), message = %s.message(), "partial import not undone");
                    }
                }
                return Ok(refused(&format!("urls[{i}]"), s.message()));
            }
        }
    }
    Ok(envelope::ok(ImportAnswer { material_ids: ids.into_iter().map(|(id, _)| id).collect() }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_addresses_are_told_from_public_ones() {
        for ip in ["127.0.0.1", "10.1.2.3", "192.168.0.1", "172.16.5.5", "169.254.169.254", "100.64.0.1", "0.0.0.0", "::1", "fd00::1", "fe80::1", "::ffff:127.0.0.1"] {
            assert!(private(ip.parse().unwrap_or(IpAddr::from([8, 8, 8, 8]))), "{ip}");
        }
        for ip in ["8.8.8.8", "203.0.114.1", "2606:4700::1111"] {
            assert!(!private(ip.parse().unwrap_or(IpAddr::from([127, 0, 0, 1]))), "{ip}");
        }
    }

    #[test]
    fn the_allowlist_matches_host_and_port_and_names_addresses() {
        let list = Allowlist::new(&["Videos.Example.com".to_owned(), "127.0.0.1:8080".to_owned(), "[::1]".to_owned()]);
        assert!(list.lists("videos.example.com", 443) && list.lists("videos.example.com", 80));
        assert!(list.lists("127.0.0.1", 8080) && !list.lists("127.0.0.1", 8081));
        assert!(!list.lists("example.com", 80) && !list.lists("evil.videos.example.com", 80));
        assert!(list.lists_address("127.0.0.1".parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))));
        assert!(list.lists_address("::1".parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))));
        assert!(!list.lists_address("10.0.0.1".parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))));
        assert_eq!(percent_decode("%E8%A7%86%E9%A2%91.mp4"), "视频.mp4");
    }
}
