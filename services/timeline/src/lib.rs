//! The video document (the rule saved as `taskInfo`): its types, catalogues, validation, and the
//! animation, transition, volume, time and colour readings that the renderer and the browser share.
//! Pure: no I/O beyond reading one environment variable in [`ValidateOptions::from_env`].

pub mod animation;
pub mod arrange;
pub mod audio;
pub mod catalogue;
pub mod colour;
pub mod id;
pub mod layer;
pub mod layout;
mod lenient;
pub mod library;
pub mod normalise;
pub mod rule;
pub mod scene;
pub mod shape;
pub mod source;
pub mod svg;
pub mod task;
pub mod time;
pub mod transition;
pub mod typescript;
pub mod validate;
pub mod volume;
pub mod warnings;

pub use animation::{LayerState, LayerTiming, layer_state};
pub use id::Id;
pub use layer::{Layer, LayerCommon};
pub use rule::{ResolutionRatio, Rule, RuleType};
pub use scene::Scene;
pub use time::{FrameRate, FrameSource, Timeline};
pub use transition::{Composite, Mask, Plane, composite};
pub use validate::{
    MaterialRef, MaterialRefKind, Problem, ProblemCode, Report, RuleError, Severity, ValidateOptions, check, material_refs,
    source_keys, validate, validate_with,
};
pub use warnings::warnings;
