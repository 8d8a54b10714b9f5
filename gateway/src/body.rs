//! Request bodies: the spec's client sends form-encoded bodies for most calls and JSON for some, so
//! every route accepts both, chosen by the content type.

use actix_web::HttpRequest;
use actix_web::http::header::CONTENT_TYPE;
use serde::de::DeserializeOwned;

use crate::ApiError;

/// Parses `bytes` as JSON or as a form, by the request's content type; an empty body reads as `{}`.
pub fn parse<T: DeserializeOwned>(req: &HttpRequest, bytes: &[u8]) -> Result<T, ApiError> {
    let ct = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if ct.starts_with("application/json") {
        let bytes = if bytes.iter().all(u8::is_ascii_whitespace) { b"{}".as_slice() } else { bytes };
        serde_json::from_slice(bytes).map_err(|e| ApiError::BadRequest(format!("body: {e}")))
    } else {
        serde_urlencoded::from_bytes(bytes).map_err(|e| ApiError::BadRequest(format!("body: {e}")))
    }
}

/// A body's fields as sent, for routes that read them one by one: a JSON object as it is, a form
/// with a repeated field (`ids=a&ids=b`, how the spec's client sends a list) as an array of its
/// values, so no value is silently dropped.
pub fn fields(req: &HttpRequest, bytes: &[u8]) -> Result<serde_json::Map<String, serde_json::Value>, ApiError> {
    let ct = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if ct.starts_with("application/json") {
        return parse(req, bytes);
    }
    let pairs: Vec<(String, String)> =
        serde_urlencoded::from_bytes(bytes).map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
    let mut map = serde_json::Map::new();
    for (k, v) in pairs {
        match map.get_mut(&k) {
            None => {
                map.insert(k, serde_json::Value::String(v));
            }
            Some(serde_json::Value::Array(items)) => items.push(serde_json::Value::String(v)),
            Some(slot) => {
                let first = slot.take();
                *slot = serde_json::Value::Array(vec![first, serde_json::Value::String(v)]);
            }
        }
    }
    Ok(map)
}
