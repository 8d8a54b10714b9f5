//! The AI abilities that run on the render farm as tool runs of the toolbox's job model (docs/ai.md,
//! "Media abilities"): each ability's tool type, and whether its tool can run on this machine
//! (the GStreamer elements it needs are installed), which is what its local provider answers.

use reelforge_tools::ToolType;

use crate::provider::Unavailable;

/// Each media ability's key and the tool type its runs are. Highlight extraction is the toolbox's
/// INTELLIGENT_TASK itself (one scene ranking), with the ability page as another front.
pub const ABILITIES: [(&str, ToolType); 5] = [
    ("video-highlight-extraction", ToolType::IntelligentTask),
    ("cover-generation", ToolType::VideoCover),
    ("audio-noise-reduction", ToolType::AudioDenoise),
    ("echo-cancellation", ToolType::AudioEchoCancel),
    ("gain-control", ToolType::AudioGainControl),
];

/// The tool type of the media ability `ability`.
pub fn tool_of(ability: &str) -> Option<ToolType> {
    ABILITIES.iter().find(|(key, _)| *key == ability).map(|(_, t)| *t)
}

/// The ability whose runs only it asks for: the tool types the toolbox does not offer itself
/// (highlight extraction's INTELLIGENT_TASK is also the toolbox's ai-video-cut, so it has none).
pub fn ability_of(tool_type: &str) -> Option<&'static str> {
    ABILITIES.iter().find(|(_, t)| t.name() == tool_type && t.path().is_empty()).map(|(key, _)| *key)
}

/// Whether the local tool of `ability` runs here; its reason (the missing GStreamer element and
/// the Debian package that has it) when not.
pub fn local_status(ability: &str) -> Result<(), Unavailable> {
    let tool = tool_of(ability).ok_or(Unavailable { code: "no-local-implementation", words: format!("{ability} is not a media ability") })?;
    match tool.unavailable() {
        None => Ok(()),
        Some(why) => Err(Unavailable { code: "not-configured", words: why.to_owned() }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_media_abilities_are_catalogued_and_only_the_ais_own_types_are_kept_from_the_toolbox() {
        let catalogue = crate::catalogue("qs");
        for (key, tool) in ABILITIES {
            assert!(catalogue.iter().any(|a| a.key == key && a.has_page), "{key}");
            assert!(tool.runs(), "{key}");
        }
        assert_eq!(ability_of("AUDIO_DENOISE"), Some("audio-noise-reduction"));
        assert_eq!(ability_of("INTELLIGENT_TASK"), None, "the toolbox's ai-video-cut runs it too");
        assert_eq!(tool_of("gain-control"), Some(ToolType::AudioGainControl));
        // Computed from the machine: webrtcdsp found or not, never listed by hand.
        let dsp = gstreamer::init().is_ok() && gstreamer::ElementFactory::find("webrtcdsp").is_some();
        assert_eq!(local_status("audio-noise-reduction").is_ok(), dsp);
    }
}
