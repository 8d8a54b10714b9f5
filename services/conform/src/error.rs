//! Why a file could not be measured. A file that is measured but breaks the profile is not an
//! error: it is a report with violations.

/// A failure to measure a file.
#[derive(Debug, thiserror::Error)]
pub enum ConformError {
    /// The file is missing or cannot be read.
    #[error("cannot read {path}: {source}")]
    Unreadable {
        /// The path asked for.
        path: String,
        /// The operating system's reason.
        source: std::io::Error,
    },
    /// The file is empty, or GStreamer finds no media in it (garbage, a truncated container).
    #[error("not a media file: {0}")]
    NotMedia(String),
    /// GStreamer could not start, or an element it needs is missing.
    #[error("gstreamer: {0}")]
    Gst(String),
    /// Decoding failed part way through the file.
    #[error("decode: {0}")]
    Decode(String),
    /// A pipeline made no progress within its time limit.
    #[error("no progress for {0} s")]
    Timeout(u64),
}

impl From<gstreamer::glib::BoolError> for ConformError {
    fn from(e: gstreamer::glib::BoolError) -> Self {
        Self::Gst(e.to_string())
    }
}
