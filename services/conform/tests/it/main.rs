//! The conform crate's integration tests, one binary: each file a module (one link instead of one
//! per file). The media are made here by GStreamer, small (180×320, two seconds) so each encodes in
//! a fraction of a second.

mod climax;
mod faults;
mod loop_render;
mod measure;
mod media;
mod rules;
mod seam;

/// What every test returns: `?` instead of unwrap.
pub type R = Result<(), Box<dyn std::error::Error>>;
