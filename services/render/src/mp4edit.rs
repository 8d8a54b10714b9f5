//! Edits of an MP4's header boxes in place (the same sizes, nothing else moved).
//!
//! The AAC priming: hidden behind the audio track's edit list, as ffmpeg does.
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

/// One box of an MP4 file: where its body starts and where the box ends (byte offsets), and its type.
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub struct Atom {
    pub body: usize,
    pub end: usize,
    pub kind: [u8; 4],
}

/// Returns the boxes laid one after another in `d[from..to]`, up to the first that does not fit.
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn boxes(d: &[u8], from: usize, to: usize) -> Vec<Atom> {
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

/// Returns the first box of type `kind` in `list`.
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn child<'a>(list: &'a [Atom], kind: &[u8; 4]) -> Option<&'a Atom> {
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

/// Writes into the MP4 at `path` the video track's header matrix that turns its pictures `turn`
/// degrees clockwise (0, 90, 180 or 270) to be shown, in place, as a phone writes it on a
/// portrait clip stored on its side. GStreamer reads it as the `image-orientation` tag.
pub fn set_turn(path: &Path, turn: u16) -> Result<(), MediaError> {
    let (a, b, c, d): (i64, i64, i64, i64) = match turn {
        0 => (1, 0, 0, 1),
        90 => (0, 1, -1, 0),
        180 => (-1, 0, 0, -1),
        270 => (0, -1, 1, 0),
        other => return Err(MediaError::Invalid(format!("a picture cannot be turned {other} degrees"))),
    };
    let not_turned = |why: &str| MediaError::Invalid(format!("the MP4's pictures cannot be turned: {why}"));
    let file = OpenOptions::new().read(true).write(true).open(path)?;
    let (moov_at, moov_len) = find_moov(&file)?.ok_or_else(|| not_turned("no moov box"))?;
    let mut head = vec![0u8; moov_len];
    file.read_exact_at(&mut head, moov_at)?;
    let top = boxes(&head, 0, head.len());
    let moov = child(&top, b"moov").ok_or_else(|| not_turned("no moov box"))?;
    for trak in boxes(&head, moov.body, moov.end).iter().filter(|b| &b.kind == b"trak") {
        let parts = boxes(&head, trak.body, trak.end);
        let (Some(tkhd), Some(mdia)) = (child(&parts, b"tkhd"), child(&parts, b"mdia")) else {
            continue;
        };
        let is_video = child(&boxes(&head, mdia.body, mdia.end), b"hdlr")
            .is_some_and(|h| head.get(h.body + 8..h.body + 12) == Some(b"vide"));
        if !is_video {
            continue;
        }
        // After version, flags, the times, the track id, the duration, layer, group and volume.
        let at = tkhd.body + if head[tkhd.body] == 1 { 52 } else { 40 };
        if at + 44 > tkhd.end {
            return Err(not_turned("a track header too short"));
        }
        // The track's width and height, 16.16 as the translation is: the turned pictures are
        // moved back to the origin, as cameras write it.
        let (w, h) = (be32(&head, at + 36) as i64, be32(&head, at + 40) as i64);
        let (x, y) = match turn {
            90 => (h, 0),
            180 => (w, h),
            270 => (0, w),
            _ => (0, 0),
        };
        let unit = 1i64 << 16;
        let matrix = [a * unit, b * unit, 0, c * unit, d * unit, 0, x, y, 1i64 << 30];
        let bytes: Vec<u8> = matrix.iter().flat_map(|&v| (v as i32).to_be_bytes()).collect();
        file.write_all_at(&bytes, moov_at + at as u64)?;
        return Ok(());
    }
    Err(not_turned("no video track"))
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
