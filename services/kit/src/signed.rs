//! Signed storage URLs: a stored object (a rendered video, its cover) that someone outside, with no
//! sign-in, must fetch, such as a carrier's ring platform: the URL names the storage key and an
//! expiry and carries a MAC of both under the signing key, which the gateway checks before it
//! serves the object. Every replica holding the key ring agrees; a key rotation ends the URLs.

use crate::identity::{IdentityError, Keyring};

/// The gateway's path that serves signed storage URLs.
pub const PATH: &str = "/diyvrbt/ring/file";

const PURPOSE: &str = "signed-storage-url";

fn mac(keys: &Keyring, key: &str, expires: u64) -> Result<String, IdentityError> {
    keys.mac(PURPOSE, format!("{key}\n{expires}").as_bytes())
}

/// Percent-encodes `s` for a query value (everything but RFC 3986's unreserved characters).
fn encode(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

/// The URL under `base` (`https://ring.example.com`, or empty for a path) that serves `key` until
/// `expires` (seconds since the epoch).
pub fn url(keys: &Keyring, base: &str, key: &str, expires: u64) -> Result<String, IdentityError> {
    let sig = mac(keys, key, expires)?;
    Ok(format!(
        "{}{PATH}?key={}&exp={expires}&sig={sig}",
        base.trim_end_matches('/'),
        encode(key)
    ))
}

/// Whether `sig` signs `key` until `expires` and `now` (seconds since the epoch) is before it.
pub fn verify(keys: &Keyring, key: &str, expires: u64, sig: &str, now: u64) -> bool {
    let Ok(expected) = mac(keys, key, expires) else {
        return false;
    };
    // Compared in constant time: the signature is a secret until it is right.
    let same = expected.len() == sig.len()
        && expected
            .bytes()
            .zip(sig.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    same && now < expires
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SigningKeyConfig;

    #[test]
    fn a_signed_url_names_its_key_and_expires() -> Result<(), IdentityError> {
        let keys = Keyring::new(&[SigningKeyConfig {
            id: "k".into(),
            secret: "0123456789abcdef0123456789abcdef".into(),
        }])?;
        let u = url(
            &keys,
            "https://ring.example/",
            "t/qs/tasks/1/renders/a b.mp4",
            100,
        )?;
        assert!(u.starts_with("https://ring.example/diyvrbt/ring/file?key=t%2Fqs%2Ftasks%2F1%2Frenders%2Fa%20b.mp4&exp=100&sig="), "{u}");
        let sig = u.rsplit("sig=").next().unwrap_or_default();
        assert!(verify(&keys, "t/qs/tasks/1/renders/a b.mp4", 100, sig, 99));
        assert!(
            !verify(&keys, "t/qs/tasks/1/renders/a b.mp4", 100, sig, 100),
            "expired"
        );
        assert!(
            !verify(&keys, "t/qs/tasks/2/renders/a b.mp4", 100, sig, 99),
            "another key"
        );
        assert!(
            !verify(&keys, "t/qs/tasks/1/renders/a b.mp4", 101, sig, 99),
            "another expiry"
        );
        Ok(())
    }
}
