//! Checks a finished MP4 against a carrier's delivery profile (docs/ringtone.md) by measuring it:
//! container, codecs, H.264 profile and level, size, frame rate, bitrate, duration, loudness and
//! true peak (EBU R128), file size, and the loop seam between the last and the first moment.
//! `climax` finds a song's strongest section, for cutting music to a ringtone's length
//! (`climax_of_file` on a music file).

mod climax;
mod cover;
mod error;
mod frames;
mod gst_util;
mod index;
mod loudness;
mod measure;
mod probe;
mod rules;
mod track;

pub use climax::climax;
pub use cover::check_cover;
pub use error::ConformError;
pub use measure::{Measurement, Seam, measure};
pub use rules::{Limit, Report, Rule, Violation, check, precheck};
pub use track::{ClimaxCut, climax_of_file};
