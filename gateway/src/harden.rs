//! Browser hardening on every answer: a Content-Security-Policy whose `frame-ancestors` names the hosts
//! allowed to embed the request's variant (the micro-frontend hosts), `X-Content-Type-Options:
//! nosniff`, and a Referrer-Policy that keeps paths and queries inside the origin. API answers are
//! `Cache-Control: no-store`.

use std::collections::HashMap;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::middleware::Next;
use actix_web::web;

use crate::caller;

/// The policies, one per variant that names embedding hosts.
pub struct Hardening {
    by_variant: HashMap<String, HeaderValue>,
    fallback: HeaderValue,
}

/// Whether `source` is a CSP host source we can write safely (scheme://host[:port], optionally `*.`).
fn is_host_source(source: &str) -> bool {
    let rest = source.strip_prefix("https://").or_else(|| source.strip_prefix("http://"));
    rest.is_some_and(|r| {
        !r.is_empty() && r.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'*'))
    })
}

/// The policy text for a page that `ancestors` may frame (besides the origin itself).
pub fn content_security_policy(ancestors: &[String]) -> String {
    let mut frame = String::from("'self'");
    for a in ancestors.iter().map(|a| a.trim().trim_end_matches('/')).filter(|a| is_host_source(a)) {
        frame.push(' ');
        frame.push_str(a);
    }
    // antd writes its styles at run time (CSS-in-JS), hence inline styles; scripts stay same-origin.
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; \
         media-src 'self' blob:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; \
         form-action 'self'; frame-ancestors {frame}"
    )
}

impl Hardening {
    /// Policies from each variant's embedding hosts; variants not named may be framed by the origin only.
    pub fn new(embedders: &HashMap<String, Vec<String>>) -> Self {
        let value = |ancestors: &[String]| {
            HeaderValue::from_str(&content_security_policy(ancestors))
                .unwrap_or_else(|_| HeaderValue::from_static("frame-ancestors 'self'"))
        };
        Self {
            by_variant: embedders.iter().map(|(v, hosts)| (v.clone(), value(hosts))).collect(),
            fallback: value(&[]),
        }
    }

    fn policy(&self, variant: &str) -> HeaderValue {
        self.by_variant.get(variant).unwrap_or(&self.fallback).clone()
    }
}

/// Adds the hardening headers to every answer that does not set its own.
pub async fn harden(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let csp = req.app_data::<web::Data<Hardening>>().map(|h| {
        let variant = caller::tenant(req.request()).unwrap_or_else(|_| caller::DEFAULT_VARIANT.to_owned());
        h.policy(&variant)
    });
    let mut res = next.call(req).await?;
    let headers = res.headers_mut();
    if let Some(csp) = csp
        && !headers.contains_key(header::CONTENT_SECURITY_POLICY)
    {
        headers.insert(header::CONTENT_SECURITY_POLICY, csp);
    }
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    Ok(res)
}

/// Marks API answers `Cache-Control: no-store`: they carry tokens and people's data, which no browser
/// or shared cache should keep. An answer whose handler lets it be kept (`max-age`: fonts and
/// catalogue previews, which never change under their address) keeps its own caching.
pub async fn no_store(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let mut res = next.call(req).await?;
    let kept = res
        .headers()
        .get(header::CACHE_CONTROL)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("max-age"));
    if !kept {
        res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    Ok(res)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_ancestors_keep_only_host_sources() {
        let csp = content_security_policy(&[
            "https://corp.example.cn/".into(),
            "https://*.migu.cn".into(),
            "javascript:alert(1)".into(),
            "https://evil.cn; script-src *".into(),
            "http://".into(),
        ]);
        assert!(csp.ends_with("frame-ancestors 'self' https://corp.example.cn https://*.migu.cn"), "{csp}");
        assert!(csp.contains("object-src 'none'"));
    }
}
