//! How a file says its pictures are to be shown. A phone stores a portrait clip on its side and
//! writes, in the MP4's track header, the matrix that turns it upright; players (the browser, the
//! editor's preview) obey it, so every tool decodes the pictures upright (`videoflip
//! video-direction=auto`, see `gst_run::PICTURES`) and every box a user draws is on the upright
//! pictures. A tool that copies the stream as it is (the smart cut) writes the same matrix on its
//! output ([`set_turn`]).

use std::path::Path;

use crate::error::ToolError;

/// The orientation of a file's pictures, from GStreamer's `image-orientation` tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Orientation {
    /// Clockwise degrees the stored pictures are turned by to be shown: 0, 90, 180 or 270.
    pub turn: u16,
    /// Whether they are also mirrored (`flip-rotate-*`): no tag an MP4 writer here keeps.
    pub mirrored: bool,
}

impl Orientation {
    /// Reads the `image-orientation` tag's value (`rotate-90`, `flip-rotate-270`, …); an unknown
    /// value counts as upright, as GStreamer's `videoflip` treats it.
    pub fn from_tag(tag: &str) -> Orientation {
        let turn = reelforge_render::probe::turn_of(tag);
        let mirrored = matches!(tag, "flip-rotate-0" | "flip-rotate-90" | "flip-rotate-180" | "flip-rotate-270");
        Orientation { turn, mirrored }
    }

    /// Whether the shown pictures are the stored ones on their side (width and height swap).
    pub fn on_side(self) -> bool {
        self.turn % 180 == 90
    }
}

/// Writes the turn into the MP4 at `path` (`reelforge_render::mp4edit::set_turn`): the output of
/// a tool that copied pictures stored on their side.
pub fn set_turn(path: &Path, turn: u16) -> Result<(), ToolError> {
    reelforge_render::mp4edit::set_turn(path, turn).map_err(|e| ToolError::Failed(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_read_as_turns() {
        assert_eq!(Orientation::from_tag("rotate-90"), Orientation { turn: 90, mirrored: false });
        assert_eq!(Orientation::from_tag("flip-rotate-270"), Orientation { turn: 270, mirrored: true });
        assert_eq!(Orientation::from_tag("rotate-0"), Orientation::default());
        assert_eq!(Orientation::from_tag("rotate-45"), Orientation::default());
        assert!(Orientation::from_tag("rotate-270").on_side());
        assert!(!Orientation::from_tag("rotate-180").on_side());
    }
}
