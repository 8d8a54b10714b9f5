//! Hides the AAC encoder's priming behind the audio track's edit list, as ffmpeg does.
//!
//! An AAC encoder emits `priming` samples of delay before the first real one; mp4mux keeps
//! them in the track and starts the edit at 0, so players start the sound about 21 ms late and
//! a segment rendered on its own would carry that delay into every join. After muxing, the
//! audio track's `elst` is rewritten in place (same sizes) to start at the first real sample
//! and to last exactly the samples pushed; `tkhd` and `mvhd` durations follow.

use crate::error::MediaError;
use std::fs::OpenOptions;
use std::os::unix::fs::FileExt;
use std::path::Path;

/// The largest priming we accept as such (AAC encoders use 1024 or 2048).
const MAX_PRIMING: u64 = 2048;

struct Atom {
    body: usize,
    end: usize,
    kind: [u8; 4],
}

fn boxes(d: &[u8], from: usize, to: usize) -> Vec<Atom> {
    let mut out = Vec::new();
    let mut at = from;
    while at + 8 <= to {
        let size32 = u32::from_be_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]]) as usize;
        let kind = [d[at + 4], d[at + 5], d[at + 6], d[at + 7]];
        let (size, header) = match size32 {
            1 if at + 16 <= to => {
                let mut b = [0u8; 8];
                b.copy_from_slice(&d[at + 8..at + 16]);
                (u64::from_be_bytes(b) as usize, 16)
            }
            0 => (to - at, 8),
            s => (s, 8),
        };
        if size < header || at + size > to {
            break;
        }
        out.push(Atom {
            body: at + header,
            end: at + size,
            kind,
        });
        at += size;
    }
    out
}

fn child<'a>(list: &'a [Atom], kind: &[u8; 4]) -> Option<&'a Atom> {
    list.iter().find(|b| &b.kind == kind)
}

fn be32(d: &[u8], at: usize) -> u64 {
    u64::from(u32::from_be_bytes([d[at], d[at + 1], d[at + 2], d[at + 3]]))
}

fn be64(d: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&d[at..at + 8]);
    u64::from_be_bytes(b)
}

/// Writes `v` as a 32-bit or (version 1) 64-bit field.
fn put(d: &mut [u8], at: usize, wide: bool, v: u64) {
    if wide {
        d[at..at + 8].copy_from_slice(&v.to_be_bytes());
    } else {
        d[at..at + 4].copy_from_slice(&(v.min(u64::from(u32::MAX)) as u32).to_be_bytes());
    }
}

/// Rewrites the sound track's edit list of the MP4 at `path` so playback starts after the
/// encoder's priming and lasts `samples` samples at `rate`. Returns the priming found (0 when
/// there was none to hide or the layout was not the expected one; the file is then unchanged).
pub fn hide_priming(path: &Path, samples: u64, rate: u64) -> Result<u64, MediaError> {
    let file = OpenOptions::new().read(true).write(true).open(path)?;
    let Some((moov_at, moov_len)) = find_moov(&file)? else {
        return Ok(0);
    };
    // The moov box alone (faststart puts it first): kilobytes for a short render, a few
    // megabytes for hours of sample tables.
    let mut head = vec![0u8; moov_len];
    file.read_exact_at(&mut head, moov_at)?;
    let top = boxes(&head, 0, head.len());
    let Some(moov) = child(&top, b"moov") else {
        return Ok(0);
    };
    let inside = boxes(&head, moov.body, moov.end);
    let Some(mvhd) = child(&inside, b"mvhd") else {
        return Ok(0);
    };
    let mv_wide = head[mvhd.body] == 1;
    let movie_scale = if mv_wide {
        be32(&head, mvhd.body + 20)
    } else {
        be32(&head, mvhd.body + 12)
    };
    let mut edits = Vec::new();
    let mut longest = 0u64;
    for trak in inside.iter().filter(|b| &b.kind == b"trak") {
        let parts = boxes(&head, trak.body, trak.end);
        let (Some(tkhd), Some(mdia)) = (child(&parts, b"tkhd"), child(&parts, b"mdia")) else {
            continue;
        };
        let tk_wide = head[tkhd.body] == 1;
        let tk_duration_at = tkhd.body + if tk_wide { 28 } else { 20 };
        let track_duration = if tk_wide {
            be64(&head, tk_duration_at)
        } else {
            be32(&head, tk_duration_at)
        };
        let media = boxes(&head, mdia.body, mdia.end);
        let is_sound = child(&media, b"hdlr")
            .is_some_and(|h| head.get(h.body + 8..h.body + 12) == Some(b"soun"));
        if !is_sound {
            longest = longest.max(track_duration);
            continue;
        }
        let Some(mdhd) = child(&media, b"mdhd") else {
            return Ok(0);
        };
        let md_wide = head[mdhd.body] == 1;
        let (scale, media_duration) = if md_wide {
            (be32(&head, mdhd.body + 20), be64(&head, mdhd.body + 24))
        } else {
            (be32(&head, mdhd.body + 12), be32(&head, mdhd.body + 16))
        };
        if scale != rate || movie_scale == 0 {
            return Ok(0);
        }
        let priming = media_duration.saturating_sub(samples);
        let Some(edts) = child(&parts, b"edts") else {
            return Ok(0);
        };
        let Some(elst) =
            child(&boxes(&head, edts.body, edts.end), b"elst").map(|b| (b.body, b.end))
        else {
            return Ok(0);
        };
        let (elst_body, elst_end) = elst;
        let el_wide = head[elst_body] == 1;
        let entry = elst_body + 8;
        // One edit: segment duration, media time, rate.
        if be32(&head, elst_body + 4) != 1 || entry + if el_wide { 20 } else { 12 } > elst_end {
            return Ok(0);
        }
        if priming == 0 || priming > MAX_PRIMING {
            return Ok(0);
        }
        let shown = samples * movie_scale / rate;
        edits.push((entry, el_wide, shown, priming, tk_duration_at, tk_wide));
        longest = longest.max(shown);
    }
    let Some(&(entry, el_wide, shown, priming, tk_at, tk_wide)) = edits.first() else {
        return Ok(0);
    };
    put(&mut head, entry, el_wide, shown);
    put(
        &mut head,
        entry + if el_wide { 8 } else { 4 },
        el_wide,
        priming,
    );
    put(&mut head, tk_at, tk_wide, shown);
    put(
        &mut head,
        mvhd.body + if mv_wide { 24 } else { 16 },
        mv_wide,
        longest,
    );
    file.write_all_at(&head[..moov.end], moov_at)?;
    Ok(priming)
}

/// The largest moov box read into memory (hours of sample tables take a few megabytes).
const MAX_MOOV: u64 = 256 << 20;

/// Returns the offset and size of the file's top-level `moov` box, walking the box headers.
fn find_moov(file: &std::fs::File) -> Result<Option<(u64, usize)>, MediaError> {
    let len = file.metadata()?.len();
    let mut at = 0u64;
    while at + 8 <= len {
        let mut h = [0u8; 16];
        let want = (len - at).min(16) as usize;
        file.read_exact_at(&mut h[..want], at)?;
        let size = match u32::from_be_bytes([h[0], h[1], h[2], h[3]]) {
            1 if want == 16 => {
                let mut b = [0u8; 8];
                b.copy_from_slice(&h[8..16]);
                u64::from_be_bytes(b)
            }
            0 => len - at,
            s => u64::from(s),
        };
        if size < 8 || at + size > len {
            return Ok(None);
        }
        if &h[4..8] == b"moov" {
            return Ok((size <= MAX_MOOV).then_some((at, size as usize)));
        }
        at += size;
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::encode::{EncodeSettings, Encoder};

    #[test]
    fn finds_the_moov_after_megabytes_of_other_boxes() -> Result<(), MediaError> {
        let dir = tempfile::tempdir()?;
        let src = dir.path().join("a.mp4");
        let mut enc = Encoder::create(&src, EncodeSettings::tiny(28))?;
        for _ in 0..15 {
            enc.push_frame(&vec![128u8; 64 * 36 * 4])?;
        }
        enc.push_audio(&vec![0.0; 24_000 * 2])?;
        enc.finish()?;
        // The same moov behind 3 MiB of free space (where a long render's sample tables push it).
        let d = std::fs::read(&src)?;
        let top = boxes(&d, 0, d.len());
        let (Some(ftyp), Some(moov)) = (child(&top, b"ftyp"), child(&top, b"moov")) else {
            panic!(
                "no ftyp or moov in {top:?}",
                top = top.iter().map(|b| b.kind).collect::<Vec<_>>()
            );
        };
        let mut moved = d[ftyp.body - 8..ftyp.end].to_vec();
        let free = 3u32 << 20;
        moved.extend_from_slice(&free.to_be_bytes());
        moved.extend_from_slice(b"free");
        moved.resize(moved.len() + free as usize - 8, 0);
        moved.extend_from_slice(&d[moov.body - 8..moov.end]);
        let p = dir.path().join("moved.mp4");
        std::fs::write(&p, &moved)?;
        assert_eq!(hide_priming(&p, 24_000, 48_000)?, 1024);
        Ok(())
    }

    #[test]
    fn leaves_other_files_alone() -> Result<(), MediaError> {
        let dir = tempfile::tempdir()?;
        let p = dir.path().join("x.mp4");
        std::fs::write(&p, b"\0\0\0\x10ftypisom\0\0\0\0junk")?;
        assert_eq!(hide_priming(&p, 48_000, 48_000)?, 0);
        assert_eq!(std::fs::read(&p)?, b"\0\0\0\x10ftypisom\0\0\0\0junk");
        Ok(())
    }
}
