//! A look at an ISO base media file's top-level boxes before GStreamer opens it. A file cut before
//! its index (the `moov` box) is not media, and saying so here is instant, where decodebin can
//! swallow the demuxer's error and leave the passes waiting for their time limit.

use std::fs::File;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// Returns false for an ISO file (`ftyp` first) whose top-level boxes hold no whole `moov` box;
/// true for one that does, and for any other format (GStreamer's to judge).
pub fn index_present(path: &Path) -> Result<bool, std::io::Error> {
    let file = File::open(path)?;
    let len = file.metadata()?.len();
    let mut at = 0u64;
    while at + 8 <= len {
        let mut h = [0u8; 16];
        // At most 16 bytes, so the cast cannot truncate.
        let want = (len - at).min(16) as usize;
        file.read_exact_at(&mut h[..want], at)?;
        if at == 0 && &h[4..8] != b"ftyp" {
            return Ok(true);
        }
        let size = match u32::from_be_bytes([h[0], h[1], h[2], h[3]]) {
            1 if want == 16 => {
                u64::from_be_bytes([h[8], h[9], h[10], h[11], h[12], h[13], h[14], h[15]])
            }
            0 => len - at,
            s => u64::from(s),
        };
        if size < 8 || at.saturating_add(size) > len {
            return Ok(false);
        }
        if &h[4..8] == b"moov" {
            return Ok(true);
        }
        at += size;
    }
    // Only a file too short for one box header gets here without a verdict: GStreamer's to judge.
    Ok(at == 0)
}
