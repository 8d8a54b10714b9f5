//! The toolbox's input limits from configuration (`[tools]`), checked before a tool starts.

use reelforge_kit::config::{ToolLimitConfig, ToolsConfig};

use crate::error::ParamError;
use crate::kind::ToolType;
use crate::probe::Facts;

/// What one tool takes at most.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limit {
    /// Largest input, bytes.
    pub max_input_bytes: u64,
    /// Longest input, seconds.
    pub max_input_seconds: u64,
}

impl From<&ToolLimitConfig> for Limit {
    fn from(c: &ToolLimitConfig) -> Self {
        Self { max_input_bytes: c.max_input_mb.saturating_mul(1024 * 1024), max_input_seconds: c.max_input_seconds }
    }
}

/// Every tool's limits and which hidden types are shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    config: ToolsConfig,
}

impl Limits {
    /// The limits of the `[tools]` section.
    pub fn new(config: &ToolsConfig) -> Self {
        Self { config: config.clone() }
    }

    /// The limit of `tool` (the section's default for a tool without its own).
    pub fn of(&self, tool: ToolType) -> Limit {
        let c = &self.config;
        let own = match tool {
            ToolType::ExtractAudio => &c.extract_audio,
            ToolType::VideoToGif => &c.video_to_gif,
            ToolType::VideoCompress => &c.video_compress,
            ToolType::VideoSpeedup => &c.video_speedup,
            ToolType::QuickCutVideo => &c.quick_cut_video,
            ToolType::QuickCutAudio => &c.quick_cut_audio,
            _ => &c.default,
        };
        own.into()
    }

    /// Whether `tool` is shown in the catalogue: §9's shown types, and hidden ones the
    /// configuration names.
    pub fn shown(&self, tool: ToolType) -> bool {
        !tool.hidden() || self.config.show_hidden.iter().any(|n| n == tool.name())
    }

    /// Refuses an input over the tool's limits, naming `materialIds`.
    pub fn check(&self, tool: ToolType, input: &Facts) -> Result<(), ParamError> {
        let limit = self.of(tool);
        if input.bytes > limit.max_input_bytes {
            return Err(ParamError::new(
                "materialIds",
                format!("the input is {} MiB; {} takes at most {} MiB", input.bytes / (1024 * 1024), tool.name(), limit.max_input_bytes / (1024 * 1024)),
            ));
        }
        if input.duration_ms > limit.max_input_seconds.saturating_mul(1000) {
            return Err(ParamError::new(
                "materialIds",
                format!("the input lasts {} s; {} takes at most {} s", input.duration_ms / 1000, tool.name(), limit.max_input_seconds),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_over_its_tools_limit_is_refused_and_hidden_types_show_by_configuration() {
        let mut config = ToolsConfig::default();
        config.video_to_gif.max_input_seconds = 10;
        config.show_hidden = vec!["VIDEO_CROP".to_owned()];
        let limits = Limits::new(&config);
        let clip = Facts { duration_ms: 12_000, bytes: 1000, audio: true, video: Some((320, 180, 25.0)), orientation: Default::default(), coding: Default::default() };
        assert_eq!(limits.check(ToolType::VideoToGif, &clip).err().map(|e| e.field), Some("materialIds".to_owned()));
        assert!(limits.check(ToolType::VideoCompress, &clip).is_ok());
        assert!(limits.shown(ToolType::VideoCrop) && !limits.shown(ToolType::VideoHToV) && limits.shown(ToolType::ExtractAudio));
    }
}
