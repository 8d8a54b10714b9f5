//! The cover picture's rule: its format (by magic bytes, not by name) and its size cap.

use crate::rules::{Rule, Violation};
use reelforge_kit::config::DeliveryProfile;

/// Bytes in a KiB (the profile's cover size unit).
const KIB: usize = 1024;

/// Returns the cover's violation, if any: a format the profile does not list, or too many bytes.
pub fn check_cover(profile: &DeliveryProfile, bytes: &[u8]) -> Option<Violation> {
    let format = format(bytes);
    if !profile
        .cover_formats
        .iter()
        .any(|f| f.eq_ignore_ascii_case(format))
    {
        return Some(Violation::new(
            Rule::Cover,
            "cover format",
            format.to_owned(),
            profile.cover_formats.join(" or "),
            None,
        ));
    }
    let cap = profile.cover_max_kb as usize * KIB;
    (bytes.len() > cap).then(|| {
        Violation::new(
            Rule::Cover,
            "cover size",
            format!("{} KiB", bytes.len().div_ceil(KIB)),
            format!("{} KiB", profile.cover_max_kb),
            None,
        )
    })
}

/// Returns the picture format its first bytes name (`unknown` for none we know).
fn format(bytes: &[u8]) -> &'static str {
    match bytes {
        [0xFF, 0xD8, 0xFF, ..] => "jpeg",
        [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, ..] => "png",
        [b'G', b'I', b'F', b'8', ..] => "gif",
        [
            b'R',
            b'I',
            b'F',
            b'F',
            _,
            _,
            _,
            _,
            b'W',
            b'E',
            b'B',
            b'P',
            ..,
        ] => "webp",
        [b'B', b'M', ..] => "bmp",
        _ => "unknown",
    }
}
