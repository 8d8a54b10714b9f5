//! Errors of the engine: what went wrong (`MediaError`) and where (`RenderError`: scene, layer,
//! material, stage), so a failed job reads 'scene 3 / layer logo / decode: unsupported codec'.

use std::fmt;

/// A stage of a render, as reported to progress callbacks and in errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Reading the rule and locating its materials.
    Fetch,
    /// Decoding pictures, clips and audio.
    Decode,
    /// Drawing frames.
    Compose,
    /// Encoding video and audio.
    Encode,
    /// Finishing the MP4 file.
    Mux,
    /// Handing the output over (the worker uploads; the library renames into place).
    Upload,
}

impl Stage {
    /// Returns the stage's lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Fetch => "fetch",
            Stage::Decode => "decode",
            Stage::Compose => "compose",
            Stage::Encode => "encode",
            Stage::Mux => "mux",
            Stage::Upload => "upload",
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What went wrong in a media operation, without the document context.
#[derive(Debug, thiserror::Error)]
pub enum MediaError {
    /// The material file does not exist.
    #[error("material not found: {0}")]
    Missing(String),
    /// GStreamer could not be initialised or an element is missing.
    #[error("gstreamer: {0}")]
    Gst(String),
    /// The pipeline reported an error on its bus.
    #[error("{0}")]
    Pipeline(String),
    /// The pipeline made no progress within the watchdog's limit.
    #[error("no progress for {0} s (watchdog)")]
    Timeout(u64),
    /// The file holds no stream of the wanted kind.
    #[error("no {0} stream")]
    NoStream(&'static str),
    /// A picture could not be decoded.
    #[error("picture: {0}")]
    Image(String),
    /// Text, shape or font rasterisation failed.
    #[error("{0}")]
    Draw(String),
    /// The document asks for something that cannot be rendered.
    #[error("{0}")]
    Invalid(String),
    /// A file could not be read or written.
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

impl From<gstreamer::glib::Error> for MediaError {
    fn from(e: gstreamer::glib::Error) -> Self {
        MediaError::Gst(e.to_string())
    }
}

impl From<gstreamer::glib::BoolError> for MediaError {
    fn from(e: gstreamer::glib::BoolError) -> Self {
        MediaError::Gst(e.to_string())
    }
}

impl From<gstreamer::StateChangeError> for MediaError {
    fn from(_: gstreamer::StateChangeError) -> Self {
        MediaError::Pipeline("state change failed".to_owned())
    }
}

/// A failed render: the cause with the scene, layer, material and stage it happened in.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// The render was cancelled through its cancel token.
    #[error("cancelled")]
    Cancelled,
    /// The rule could not be parsed or fails validation.
    #[error("invalid rule: {0}")]
    Rule(String),
    /// A failure located in the document.
    #[error("{}{stage}: {source}", located(*.scene, .layer.as_deref(), .material.as_deref()))]
    At {
        /// Scene index, 1-based as a user counts.
        scene: Option<usize>,
        /// Layer id.
        layer: Option<String>,
        /// Material path.
        material: Option<String>,
        /// The stage.
        stage: Stage,
        /// The cause.
        #[source]
        source: MediaError,
    },
}

fn located(scene: Option<usize>, layer: Option<&str>, material: Option<&str>) -> String {
    let mut s = String::new();
    if let Some(n) = scene {
        s.push_str(&format!("scene {n} / "));
    }
    if let Some(l) = layer {
        s.push_str(&format!("layer {l} / "));
    }
    if let Some(m) = material {
        // A material's address may carry its media ticket in the query: the message is stored, logged
        // and shown, and must not hand out a credential.
        let path = m.split_once('?').map_or(m, |(path, _)| path);
        s.push_str(&format!("material {path} / "));
    }
    s
}

impl RenderError {
    /// Returns an error at a stage with no document location.
    pub fn stage(stage: Stage, source: MediaError) -> Self {
        RenderError::At {
            scene: None,
            layer: None,
            material: None,
            stage,
            source,
        }
    }

    /// Returns the stage the error happened in, if any.
    pub fn stage_of(&self) -> Option<Stage> {
        match self {
            RenderError::At { stage, .. } => Some(*stage),
            _ => None,
        }
    }
}

/// Where in the document an operation runs, to turn a `MediaError` into a `RenderError`.
#[derive(Debug, Clone, Default)]
pub struct Place {
    /// Scene index, 0-based.
    pub scene: Option<usize>,
    /// Layer id.
    pub layer: Option<String>,
    /// Material path.
    pub material: Option<String>,
}

impl Place {
    /// Returns the error `source` located here at `stage`.
    pub fn err(&self, stage: Stage, source: MediaError) -> RenderError {
        RenderError::At {
            scene: self.scene.map(|s| s + 1),
            layer: self.layer.clone(),
            material: self.material.clone(),
            stage,
            source,
        }
    }
}
