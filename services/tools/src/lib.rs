//! The video toolbox's tools (docs/toolbox.md): the toolbox task types of spec platform §9, each
//! tool's parameters typed and validated once, the input limits from configuration, and the
//! GStreamer pipelines that run a tool on the render farm's worker. `lib.rs` wires; `kind` holds
//! the types, `params` the parameters, `limits` the limits, `pipeline` the tools' pipelines.

mod ai_params;
mod error;
pub mod frames;
mod frame_params;
mod gst_run;
mod kind;
mod limits;
pub mod orientation;
mod look_params;
mod params;
mod pipeline;
mod probe;
pub mod scene;
pub mod ring_fix;
pub mod speech_sound;
pub mod testing;

pub use ai_params::{AudioClean, Covers, Filter, MAX_COVERS};
pub use error::{ParamError, ToolError};
pub use frame_params::KeyFrames;
pub use kind::{ToolType, Unavailable};
pub use limits::{Limit, Limits};
pub use look_params::{Beautify, Slides, Upscale, UpscaleTarget};
pub use params::{
    Aspect, AudioFormat, Band, Captions, Compress, Crop, CutMode, Erase, Gif, HToV, Highlights, Input, MsRange, Params, PictureVideo, Quality, QuickCut,
    Reframe, ReplaceAudio, SceneDetect, SoundMode, Split, Visual, Vocals, Watermark,
};
pub use pipeline::{Output, OutputKind, Progress, REENCODE_TAG, SMART_TAG, cut_comment, detect_caption_band, pick, run, run_as};
pub use probe::{Coding, Facts, picture_size, probe};
