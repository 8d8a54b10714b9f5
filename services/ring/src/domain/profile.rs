//! The caller's delivery profile as `/ring/profile` shows it, and which profile a variant uses.

use std::collections::BTreeMap;

use reelforge_kit::config::DeliveryProfile;
use serde::Serialize;

/// The profile of `variant`: its own when configured, else qs's, else the built-in one.
pub fn profile_of<'a>(
    profiles: &'a BTreeMap<String, DeliveryProfile>,
    variant: &str,
) -> std::borrow::Cow<'a, DeliveryProfile> {
    match profiles.get(variant).or_else(|| profiles.get("qs")) {
        Some(p) => std::borrow::Cow::Borrowed(p),
        None => std::borrow::Cow::Owned(DeliveryProfile::for_variant("qs")),
    }
}

/// A frame size.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Size {
    /// Pixels.
    pub width: u32,
    /// Pixels.
    pub height: u32,
}

/// The profile in the wire shape of docs/ringtone.md.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProfileView {
    variant: String,
    container: String,
    video_codec: String,
    h264_profiles: Vec<String>,
    h264_max_level: String,
    sizes: Vec<Size>,
    orientations: Vec<String>,
    min_fps: f64,
    max_fps: f64,
    max_video_kbps: u32,
    min_seconds: f64,
    max_seconds: f64,
    audio_codec: String,
    loudness_lufs: f64,
    loudness_tolerance_lu: f64,
    true_peak_dbtp: f64,
    max_file_mb: u32,
    cover_formats: Vec<String>,
    cover_max_kb: u32,
    safe_top_percent: u32,
    safe_bottom_percent: u32,
}

/// Parses a `WIDTHxHEIGHT` size; `None` for anything else.
pub fn parse_size(s: &str) -> Option<Size> {
    let (w, h) = s.trim().split_once(['x', 'X', '×'])?;
    Some(Size {
        width: w.trim().parse().ok()?,
        height: h.trim().parse().ok()?,
    })
}

impl ProfileView {
    /// The view of `profile` for `variant` (sizes that do not parse are left out).
    pub fn new(variant: &str, p: &DeliveryProfile) -> Self {
        Self {
            variant: variant.to_owned(),
            container: p.container.clone(),
            video_codec: p.video_codec.clone(),
            h264_profiles: p.h264_profiles.clone(),
            h264_max_level: p.h264_max_level.clone(),
            sizes: p.sizes.iter().filter_map(|s| parse_size(s)).collect(),
            orientations: p.orientations.clone(),
            min_fps: p.min_fps,
            max_fps: p.max_fps,
            max_video_kbps: p.max_video_kbps,
            min_seconds: p.min_seconds,
            max_seconds: p.max_seconds,
            audio_codec: p.audio_codec.clone(),
            loudness_lufs: p.loudness_lufs,
            loudness_tolerance_lu: p.loudness_tolerance_lu,
            true_peak_dbtp: p.true_peak_dbtp,
            max_file_mb: p.max_file_mb,
            cover_formats: p.cover_formats.clone(),
            cover_max_kb: p.cover_max_kb,
            safe_top_percent: p.safe_top_percent,
            safe_bottom_percent: p.safe_bottom_percent,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_without_a_profile_uses_qs() {
        let mut profiles = BTreeMap::new();
        profiles.insert("qs".to_owned(), DeliveryProfile::for_variant("qs"));
        profiles.insert("cu".to_owned(), DeliveryProfile::for_variant("cu"));
        assert_eq!(profile_of(&profiles, "cu").max_seconds, 30.0);
        assert_eq!(profile_of(&profiles, "zz").max_seconds, 60.0);
        assert_eq!(profile_of(&BTreeMap::new(), "cu").max_seconds, 60.0);
        let view =
            serde_json::to_value(ProfileView::new("cu", &profiles["cu"])).unwrap_or_default();
        assert_eq!(
            view["sizes"],
            serde_json::json!([{"width": 720, "height": 1280}])
        );
        assert_eq!(view["maxFileMb"], 15);
    }
}
