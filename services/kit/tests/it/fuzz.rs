//! Fuzz harnesses of kit's parsers of untrusted input (see `testing::fuzz`): OOXML packages (a
//! real deck mutated as bytes, and its parts mutated inside a well-formed zip) and token
//! verification (a real token mutated as text, and mutated headers and claims signed with the key).

use std::io::{Cursor, Write};

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hmac::{Hmac, Mac};
use reelforge_kit::config::SigningKeyConfig;
use reelforge_kit::identity::{Keyring, OperatorLevel, TokenKind};
use reelforge_kit::ooxml::{Limits, OoxmlError, Package, check};
use reelforge_kit::testing::fuzz::{Counting, Fuzz};

#[global_allocator]
static ALLOC: Counting = Counting;

const LIMITS: Limits = Limits { max_entries: 16, max_total_bytes: 256 * 1024, max_xml_depth: 32 };
/// Separates the parts of a structured input.
const PART: &[u8] = b"\0\0";
const PARTS: [&str; 4] = ["[Content_Types].xml", "_rels/.rels", "ppt/presentation.xml", "ppt/slides/slide1.xml"];
const TYPES: &[u8] = br#"<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/></Types>"#;
const RELS: &[u8] = br#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="x" Target="ppt/presentation.xml"/></Relationships>"#;
const MAIN: &[u8] = br#"<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst></p:presentation>"#;
const SLIDE: &[u8] = br#"<p:sld xmlns:p="x" xmlns:a="y"><p:cSld><p:spTree><p:sp><a:t>Hello &amp; &#x4F60;</a:t></p:sp></p:spTree></p:cSld></p:sld>"#;
const XML_WORDS: &[&[u8]] = &[b"<", b">", b"</", b"/>", b"<![CDATA[", b"]]>", b"<!DOCTYPE x>", b"<?xml ?>", b"&amp;", b"&#", b"&#x", b"=\"", b"xmlns:", b"Override", b"PartName=\"/", b"ContentType=\"", b"<a><a><a><a><a><a><a><a>", b"<!--", b"-->"];

fn zip_of(parts: &[(&str, &[u8])], method: zip::CompressionMethod) -> Result<Vec<u8>, zip::result::ZipError> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let options = zip::write::SimpleFileOptions::default().compression_method(method);
    for (name, data) in parts {
        w.start_file(*name, options)?;
        w.write_all(data)?;
    }
    Ok(w.finish()?.into_inner())
}

fn deck(method: zip::CompressionMethod) -> Result<Vec<u8>, zip::result::ZipError> {
    zip_of(&PARTS.iter().copied().zip([TYPES, RELS, MAIN, SLIDE]).collect::<Vec<_>>(), method)
}

/// The contract of `check` on any input: an answer, never a panic; a refusal with a message.
fn checked(bytes: &[u8], package: Package) -> Result<Result<(), OoxmlError>, String> {
    let result = check(Cursor::new(bytes), package, &LIMITS);
    match &result {
        Err(e) if e.to_string().is_empty() => Err(format!("a refusal without a message: {e:?}")),
        _ => Ok(result),
    }
}

#[test]
fn ooxml_bytes() -> Result<(), Box<dyn std::error::Error>> {
    let seeds = vec![deck(zip::CompressionMethod::Deflated)?, deck(zip::CompressionMethod::Stored)?];
    Fuzz::new("ooxml-bytes", seeds)
        .dictionary(&[b"PK\x03\x04", b"PK\x01\x02", b"PK\x05\x06", b"PK\x06\x06", b"PK\x06\x07", b"../", b"/"])
        .cases(2000)
        .memory(64 << 20)
        .run(|bytes| checked(bytes, Package::Presentation).map(drop))?;
    Ok(())
}

#[test]
fn ooxml_parts() -> Result<(), Box<dyn std::error::Error>> {
    let seed = [TYPES, RELS, MAIN, SLIDE].join(PART);
    Fuzz::new("ooxml-parts", vec![seed])
        .dictionary(XML_WORDS)
        .dictionary(&[PART])
        .cases(1000)
        .memory(64 << 20)
        .run(|bytes| {
            let parts: Vec<(&str, &[u8])> = PARTS.iter().copied().zip(split(bytes, PART)).collect();
            let total: usize = parts.iter().map(|(_, p)| p.len()).sum();
            let zipped = zip_of(&parts, zip::CompressionMethod::Deflated).map_err(|e| e.to_string())?;
            let result = checked(&zipped, Package::Presentation)?;
            if total as u64 > LIMITS.max_total_bytes && result.is_ok() {
                return Err(format!("{total} bytes passed the limit of {}", LIMITS.max_total_bytes));
            }
            Ok(())
        })?;
    Ok(())
}

/// `bytes` cut at each `sep`.
fn split<'a>(bytes: &'a [u8], sep: &[u8]) -> Vec<&'a [u8]> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while let Some(i) = rest.windows(sep.len()).position(|w| w == sep) {
        out.push(&rest[..i]);
        rest = &rest[i + sep.len()..];
    }
    out.push(rest);
    out
}

const SECRET: &str = "fuzzing-secret-of-at-least-thirty-two-bytes";

fn keyring() -> Result<Keyring, Box<dyn std::error::Error>> {
    Ok(Keyring::new(&[SigningKeyConfig { id: "k1".into(), secret: SECRET.into() }])?)
}

#[test]
fn jwt_text() -> Result<(), Box<dyn std::error::Error>> {
    let keys = keyring()?;
    let (user, _) = keys.issue_user("t1", "u1", OperatorLevel::TemplateManager, 3600)?;
    let service = keys.service_token("t1", None, 60)?;
    let seeds = vec![user.clone().into_bytes(), service.clone().into_bytes()];
    Fuzz::new("jwt-text", seeds)
        .dictionary(&[b".", b"eyJ", b"=", b"+", b"/", b"eyJhbGciOiJub25lIn0", b"eyJhbGciOiJIUzI1NiIsImtpZCI6ImsxIn0"])
        .cases(2000)
        .run(|bytes| {
            let token = String::from_utf8_lossy(bytes);
            // Only the tokens issued verify: a changed one is refused.
            match keys.verify(&token) {
                Ok(_) if token != user && token != service => Err(format!("a changed token verified: {token}")),
                _ => Ok(()),
            }
        })?;
    Ok(())
}

#[test]
fn jwt_claims() -> Result<(), Box<dyn std::error::Error>> {
    let keys = keyring()?;
    let (user, _) = keys.issue_user("t1", "u1", OperatorLevel::TemplateManager, 3600)?;
    let service = keys.service_token("t1", Some("u1"), 60)?;
    // The decoded header and claims of each token, mutated as JSON and signed again with the key.
    let mut seeds = Vec::new();
    for token in [&user, &service] {
        let parts: Vec<Vec<u8>> = token.split('.').take(2).map(|p| URL_SAFE_NO_PAD.decode(p)).collect::<Result<_, _>>()?;
        seeds.push(parts.join(PART));
    }
    Fuzz::new("jwt-claims", seeds)
        .dictionary(&[b"\"alg\"", b"\"HS256\"", b"\"none\"", b"\"kid\"", b"\"k1\"", b"\"typ\"", b"\"user\"", b"\"service\"", b"\"level\"", b"\"exp\"", b"\"nbf\"", b"\"aud\"", b"null", b"-1", b"18446744073709551615", b"1e400", b"[]", b"{}", PART])
        .cases(2000)
        .run(|bytes| {
            let mut parts = split(bytes, PART).into_iter().map(|p| URL_SAFE_NO_PAD.encode(p));
            let signed = format!("{}.{}", parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
            let mut mac = Hmac::<sha2::Sha256>::new_from_slice(SECRET.as_bytes()).map_err(|e| e.to_string())?;
            mac.update(signed.as_bytes());
            let token = format!("{signed}.{}", URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes()));
            // A verified identity is whole: a tenant and an id, a user token's user and level.
            match keys.verify(&token) {
                Ok(id) if id.tenant.is_empty() || id.jti.is_empty() => Err(format!("verified without tenant or id: {id:?}")),
                Ok(id) if id.kind == TokenKind::User && (id.user_id.as_deref().unwrap_or_default().is_empty() || id.level.is_none()) => {
                    Err(format!("a user token verified without its user: {id:?}"))
                }
                _ => Ok(()),
            }
        })?;
    Ok(())
}
