//! Media types by lowercased file extension (platform §5).

use serde::Serialize;
use ts_rs::TS;

/// A media type and its extensions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[ts(export_to = "MediaExtensions.ts")]
pub struct MediaExtensions {
    /// picture, video, audio, gif or pptx.
    pub kind: &'static str,
    /// Lowercase extensions without the dot.
    pub extensions: &'static [&'static str],
}

/// The media types.
pub static MEDIA_TYPES: &[MediaExtensions] = &[
    MediaExtensions {
        kind: "picture",
        extensions: &["jpg", "jpeg", "bmp", "png"],
    },
    MediaExtensions {
        kind: "video",
        extensions: &[
            "mp4", "mpeg", "vob", "avi", "mpg", "wmv", "mov", "3gp", "webm",
        ],
    },
    MediaExtensions {
        kind: "audio",
        extensions: &["mp3", "aac", "wav", "wma", "m4a"],
    },
    MediaExtensions {
        kind: "gif",
        extensions: &["gif"],
    },
    MediaExtensions {
        kind: "pptx",
        extensions: &["pptx"],
    },
];

/// The error for a file of no known type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unsupported file type")]
pub struct UnsupportedFileType;

/// Returns the media type of a file name by its lowercased extension.
pub fn media_type(file_name: &str) -> Result<&'static str, UnsupportedFileType> {
    let ext = file_name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .ok_or(UnsupportedFileType)?;
    MEDIA_TYPES
        .iter()
        .find(|m| m.extensions.contains(&ext.as_str()))
        .map(|m| m.kind)
        .ok_or(UnsupportedFileType)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extension_decides_type() {
        assert_eq!(media_type("A.JPG"), Ok("picture"));
        assert_eq!(media_type("clip.final.webm"), Ok("video"));
        assert_eq!(media_type("deck.pptx"), Ok("pptx"));
        assert_eq!(media_type("notes.txt"), Err(UnsupportedFileType));
        assert_eq!(media_type("noext"), Err(UnsupportedFileType));
    }
}
