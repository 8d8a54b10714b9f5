//! Why a tool refused its input or failed.

/// A refused parameter or input, naming its field (`params.speed`, `materialIds`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct ParamError {
    /// The field as the caller sent it (`params.ranges[1].endMs`).
    pub field: String,
    /// What is wrong with it, for the user.
    pub message: String,
}

impl ParamError {
    /// A refusal of `field`.
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self { field: field.into(), message: message.into() }
    }
}

/// Why a tool did not produce its outputs. Whatever it had written is removed first.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// The parameters do not fit the input (a range past the clip's end, no sound to extract).
    #[error("{0}")]
    Param(#[from] ParamError),
    /// The input is not media GStreamer can read.
    #[error("not a media file: {0}")]
    NotMedia(String),
    /// GStreamer could not start, or an element it needs is missing.
    #[error("gstreamer: {0}")]
    Gst(String),
    /// Decoding or encoding failed part way through.
    #[error("the tool failed: {0}")]
    Failed(String),
    /// The GIF encoder failed.
    #[error("gif: {0}")]
    Gif(#[from] gif::EncodingError),
    /// The scratch directory failed.
    #[error("scratch: {0}")]
    Io(#[from] std::io::Error),
    /// The run was cancelled.
    #[error("cancelled")]
    Cancelled,
}

impl From<gstreamer::glib::BoolError> for ToolError {
    fn from(e: gstreamer::glib::BoolError) -> Self {
        Self::Gst(e.to_string())
    }
}

impl From<gstreamer::glib::Error> for ToolError {
    fn from(e: gstreamer::glib::Error) -> Self {
        Self::Gst(e.to_string())
    }
}

impl From<gstreamer::StateChangeError> for ToolError {
    fn from(e: gstreamer::StateChangeError) -> Self {
        Self::Failed(e.to_string())
    }
}
