//! Reverse playback: the range a reversed clip plays is decoded forwards once into an unnamed
//! temporary file of raw frames, then read back from its end. The file has no name from the
//! start, so nothing is left behind on a crash, and memory holds one frame, not the range.

use crate::decode::{VideoDecoder, VideoRequest};
use crate::error::MediaError;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::os::unix::fs::FileExt;
use std::path::Path;

/// Raw RGBA frames of a clip range on disk.
pub struct Spool {
    file: File,
    size: (u32, u32),
    frames: i64,
}

impl Spool {
    /// Decodes up to `frames` frames of `path` as `req` asks.
    pub fn fill(path: &Path, req: &VideoRequest, frames: i64) -> Result<Self, MediaError> {
        let mut dec = VideoDecoder::open(path, req)?;
        let file = tempfile::tempfile()?;
        let mut out = BufWriter::with_capacity(1 << 20, file.try_clone()?);
        let (mut n, mut px) = (0, Vec::new());
        while n < frames {
            let Some(f) = dec.next_frame()? else { break };
            f.copy_packed_into(&mut px);
            out.write_all(&px)?;
            n += 1;
        }
        out.flush()?;
        if n == 0 {
            return Err(MediaError::NoStream("video"));
        }
        Ok(Self {
            file,
            size: (req.width, req.height),
            frames: n,
        })
    }

    /// Returns the number of frames held.
    pub fn frames(&self) -> i64 {
        self.frames
    }

    /// Returns frame `i` counted from the end of the range (0 is the last frame decoded).
    pub fn backwards(&self, i: i64) -> Result<Vec<u8>, MediaError> {
        let k = (self.frames - 1 - i).clamp(0, self.frames - 1);
        let len = self.size.0 as usize * self.size.1 as usize * 4;
        let mut px = vec![0; len];
        self.file.read_exact_at(&mut px, k as u64 * len as u64)?;
        Ok(px)
    }

    /// Returns the frame size.
    pub fn size(&self) -> (u32, u32) {
        self.size
    }
}
