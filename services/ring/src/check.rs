//! Checking a video against the caller's delivery profile. This build has no measuring checker
//! (the `reelforge-conform` crate is not part of it): the profile checks answer "not available",
//! and an order is taken without one.

use reelforge_kit::config::DeliveryProfile;

use crate::domain::RingError;

/// What the profile checks need.
#[derive(Clone, Default)]
pub struct Checker;

const UNAVAILABLE: &str = "the delivery-profile check";

impl Checker {
    /// The rules a document decides (size, orientation, duration).
    pub fn precheck(
        &self,
        _profile: &DeliveryProfile,
        _width: u32,
        _height: u32,
        _seconds: f64,
    ) -> Result<serde_json::Value, RingError> {
        Err(RingError::Unavailable(UNAVAILABLE))
    }

    /// The report of the finished video under `video_key`.
    pub async fn check(
        &self,
        _tenant: &str,
        _profile: &DeliveryProfile,
        _video_key: &str,
    ) -> Result<serde_json::Value, RingError> {
        Err(RingError::Unavailable(UNAVAILABLE))
    }

    /// Refuses a video that breaks the profile; without a checker every video is taken.
    pub async fn require_conforming(
        &self,
        _tenant: &str,
        _profile: &DeliveryProfile,
        _video_key: &str,
    ) -> Result<(), RingError> {
        Ok(())
    }
}
