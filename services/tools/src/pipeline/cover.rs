//! VIDEO_COVER (`cover-generation`, docs/ai.md): the video's best frames as cover pictures, no model.
//!
//! One decode samples the pictures (`videorate`: 4 a second, fewer in a clip over a minute, so that
//! at most 240 are scored) as RGB at the source's size, and scores each:
//!
//! - **sharpness**: the variance of the luma's Laplacian (on every other pixel of every other row,
//!   neighbours two pixels away, so a frame's size matters little), `v / (v + 400)`: a blurred or
//!   flat frame scores near 0;
//! - **colourfulness**: Hasler and Süsstrunk's `√(σ_rg² + σ_yb²) + 0.3·√(μ_rg² + μ_yb²)` with
//!   `rg = R − G`, `yb = (R + G)/2 − B`, `c / (c + 30)`;
//! - **exposure**: `1 − |Y − 118| / 118` of the mean luma `Y`.
//!
//! The score is `sharpness × (0.3 + 0.7·colourfulness) × (0.5 + 0.5·exposure)`: a frame must be sharp,
//! colour and exposure weigh it. Frames that are nearly all black or all white (mean luma under 20
//! or over 240, or nine tenths of the pixels under 24) are never chosen. Near duplicates (a 16×9
//! thumbnail whose mean absolute difference from a kept frame is under 12 levels) keep only the
//! better of the two, so the pictures show different moments. The best `count` are written, best
//! first, as `cover-1.jpg` (JPEG quality 92) or `.png`, each with its frame's time as its range.

use std::path::Path;

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_video as gst_video;

use super::{DECODE, Job, Output, OutputKind, Progress};
use crate::ai_params::Covers;
use crate::error::{ParamError, ToolError};
use crate::gst_run::{PICTURES, app_sink, launch, pull};
use crate::params::MsRange;

/// Most frames scored in one clip.
const MAX_SAMPLES: u64 = 240;
/// Frames scored a second in a short clip.
const SAMPLES_PER_SECOND: u64 = 4;
/// The thumbnail near duplicates are told by.
const THUMB: (usize, usize) = (16, 9);
/// Below this mean absolute difference of thumbnails (0–255), two frames are near duplicates.
const DUPLICATE: f64 = 12.0;
/// JPEG quality.
const QUALITY: u8 = 92;

/// Whether the elements the cover decode needs are installed.
pub(crate) fn installed() -> bool {
    gst::init().is_ok() && ["decodebin", "videoconvert", "videorate"].iter().all(|e| gst::ElementFactory::find(e).is_some())
}

/// What one frame is worth as a cover, and what tells it from the others.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Look {
    /// The whole score (0: never a cover).
    pub score: f64,
    thumb: Vec<f64>,
}

/// The variance of the luma's Laplacian of packed RGB (`stride` bytes a row), on every other pixel
/// of every other row with neighbours two pixels away.
fn sharpness(rgb: &[u8], width: usize, height: usize, stride: usize) -> f64 {
    let luma = |x: usize, y: usize| -> f64 {
        let i = y * stride + x * 3;
        rgb.get(i..i + 3).map_or(0.0, |p| 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]))
    };
    let (mut sum, mut sq, mut n) = (0.0, 0.0, 0f64);
    for y in (2..height.saturating_sub(2)).step_by(2) {
        for x in (2..width.saturating_sub(2)).step_by(2) {
            let l = 4.0 * luma(x, y) - luma(x - 2, y) - luma(x + 2, y) - luma(x, y - 2) - luma(x, y + 2);
            sum += l;
            sq += l * l;
            n += 1.0;
        }
    }
    if n == 0.0 { 0.0 } else { (sq / n - (sum / n).powi(2)).max(0.0) }
}

/// Scores packed RGB of `width`×`height` (`stride` bytes a row).
pub(crate) fn look(rgb: &[u8], width: usize, height: usize, stride: usize) -> Look {
    let sharp = sharpness(rgb, width, height, stride);
    // Every other pixel of every other row is enough for the means.
    let (mut n, mut dark) = (0f64, 0f64);
    let (mut sum_rg, mut sum_yb, mut sq_rg, mut sq_yb, mut sum_y) = (0f64, 0f64, 0f64, 0f64, 0f64);
    let mut thumb = vec![0f64; THUMB.0 * THUMB.1];
    let mut thumb_n = vec![0f64; THUMB.0 * THUMB.1];
    for y in (0..height).step_by(2) {
        for x in (0..width).step_by(2) {
            let i = y * stride + x * 3;
            let Some(p) = rgb.get(i..i + 3) else { continue };
            let (r, g, b) = (f64::from(p[0]), f64::from(p[1]), f64::from(p[2]));
            let (rg, yb) = (r - g, (r + g) / 2.0 - b);
            let luma = 0.299 * r + 0.587 * g + 0.114 * b;
            sum_rg += rg;
            sum_yb += yb;
            sq_rg += rg * rg;
            sq_yb += yb * yb;
            sum_y += luma;
            if luma < 24.0 {
                dark += 1.0;
            }
            n += 1.0;
            let cell = (y * THUMB.1 / height.max(1)) * THUMB.0 + x * THUMB.0 / width.max(1);
            thumb[cell] += luma;
            thumb_n[cell] += 1.0;
        }
    }
    let n = n.max(1.0);
    let (m_rg, m_yb) = (sum_rg / n, sum_yb / n);
    let (v_rg, v_yb) = ((sq_rg / n - m_rg * m_rg).max(0.0), (sq_yb / n - m_yb * m_yb).max(0.0));
    let colourfulness = (v_rg + v_yb).sqrt() + 0.3 * (m_rg * m_rg + m_yb * m_yb).sqrt();
    let luma = sum_y / n;
    for (t, c) in thumb.iter_mut().zip(&thumb_n) {
        *t /= c.max(1.0);
    }
    let blank = !(20.0..=240.0).contains(&luma) || dark / n > 0.9;
    let score = if blank {
        0.0
    } else {
        let s = sharp / (sharp + 400.0);
        let c = colourfulness / (colourfulness + 30.0);
        let e = (1.0 - (luma - 118.0).abs() / 118.0).max(0.0);
        s * (0.3 + 0.7 * c) * (0.5 + 0.5 * e)
    };
    Look { score, thumb }
}

impl Look {
    fn like(&self, other: &Self) -> bool {
        let d: f64 = self.thumb.iter().zip(&other.thumb).map(|(a, b)| (a - b).abs()).sum::<f64>() / self.thumb.len().max(1) as f64;
        d < DUPLICATE
    }
}

/// A frame kept as a candidate: its look, time and tightly packed RGB.
struct Kept {
    look: Look,
    range: MsRange,
    rgb: Vec<u8>,
    size: (usize, usize),
}

impl Job<'_> {
    pub(super) fn covers(&mut self, c: Covers) -> Result<Vec<Output>, ToolError> {
        let duration = self.facts.duration_ms.max(1);
        // 4 a second up to a minute, then MAX_SAMPLES over the whole clip.
        let seconds = duration.div_ceil(1000).max(MAX_SAMPLES / SAMPLES_PER_SECOND);
        let description = format!(
            "{DECODE} {PICTURES} ! queue ! videorate ! video/x-raw,framerate={MAX_SAMPLES}/{seconds} ! videoconvert ! video/x-raw,format=RGB \
             ! appsink name=sink sync=false max-buffers=4{}",
            self.drain_sound()
        );
        let running = launch(&description, Some(self.input), None)?;
        let sink = app_sink(&running.0, "sink")?;
        let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        running.0.set_state(gst::State::Playing)?;
        let wanted = c.count as usize;
        let mut kept: Vec<Kept> = Vec::with_capacity(wanted + 1);
        let mut scored = 0u32;
        while let Some(sample) = pull(&bus, &sink, self.cancel)? {
            let (Some(buffer), Some(caps)) = (sample.buffer(), sample.caps()) else { continue };
            let Some(pts) = buffer.pts() else { continue };
            let at = sample.segment().and_then(|s| s.downcast_ref::<gst::ClockTime>()).and_then(|s| s.to_stream_time(pts)).unwrap_or(pts).mseconds();
            (self.progress)(Progress { done_ms: at.min(duration), total_ms: duration });
            let info = gst_video::VideoInfo::from_caps(caps).map_err(|e| ToolError::Failed(e.to_string()))?;
            let (w, h) = (info.width() as usize, info.height() as usize);
            let stride = usize::try_from(info.stride()[0]).unwrap_or(w * 3);
            let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
            scored += 1;
            let look = look(&map, w, h, stride);
            if look.score <= 0.0 {
                continue;
            }
            // A near duplicate of a kept frame replaces it only when better; the worst goes past `count`.
            let twin = kept.iter().position(|k| k.look.like(&look));
            if twin.is_some_and(|i| kept[i].look.score >= look.score) {
                continue;
            }
            let mut rgb = Vec::with_capacity(w * h * 3);
            for row in 0..h {
                let line = map.get(row * stride..row * stride + w * 3).ok_or_else(|| ToolError::Failed("a frame shorter than its caps".to_owned()))?;
                rgb.extend_from_slice(line);
            }
            let end = at + buffer.duration().map_or(1, |d| d.mseconds().max(1));
            let frame = Kept { look, range: MsRange { start_ms: at, end_ms: end.min(duration.max(at + 1)) }, rgb, size: (w, h) };
            match twin {
                Some(i) => kept[i] = frame,
                None => kept.push(frame),
            }
            kept.sort_by(|a, b| b.look.score.total_cmp(&a.look.score).then(a.range.start_ms.cmp(&b.range.start_ms)));
            kept.truncate(wanted);
        }
        drop(running);
        if kept.is_empty() {
            let why = format!("none of the {scored} frames looked at is usable as a cover: the video is black, blank or without detail");
            return Err(ParamError::new("materialIds", why).into());
        }
        let mut outputs = Vec::with_capacity(kept.len());
        for (i, k) in kept.into_iter().enumerate() {
            let name = format!("cover-{}.{}", i + 1, if c.png { "png" } else { "jpg" });
            let path = self.partial(&name);
            write_picture(&path, &k.rgb, k.size, c.png)?;
            let (width, height) = (u32::try_from(k.size.0).unwrap_or(0), u32::try_from(k.size.1).unwrap_or(0));
            outputs.push(Output { path, kind: OutputKind::Picture, name, size: 0, duration_ms: 0, width, height, ranges: vec![k.range] });
        }
        Ok(outputs)
    }
}

/// Writes packed RGB of `(width, height)` as a PNG or a JPEG.
fn write_picture(path: &Path, rgb: &[u8], (width, height): (usize, usize), png: bool) -> Result<(), ToolError> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let (w, h) = (u32::try_from(width).unwrap_or(0), u32::try_from(height).unwrap_or(0));
    let written = if png {
        image::ImageEncoder::write_image(image::codecs::png::PngEncoder::new(file), rgb, w, h, image::ExtendedColorType::Rgb8)
    } else {
        image::codecs::jpeg::JpegEncoder::new_with_quality(file, QUALITY).encode(rgb, w, h, image::ExtendedColorType::Rgb8)
    };
    written.map_err(|e| ToolError::Failed(format!("writing a picture: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(w: usize, h: usize, px: impl Fn(usize, usize) -> [u8; 3]) -> Vec<u8> {
        let mut out = Vec::with_capacity(w * h * 3);
        for y in 0..h {
            for x in 0..w {
                out.extend_from_slice(&px(x, y));
            }
        }
        out
    }

    #[test]
    fn sharp_colourful_frames_beat_blurred_grey_and_black_ones() {
        let (w, h) = (64, 36);
        let bars = |x: usize, _| [[255, 0, 0], [0, 200, 0], [0, 0, 255], [255, 255, 0]][(x / 4) % 4];
        let checks = |x: usize, y: usize| if (x / 2 + y / 2).is_multiple_of(2) { [40u8; 3] } else { [200u8; 3] };
        let sharp = look(&frame(w, h, bars), w, h, w * 3);
        let grey = look(&frame(w, h, checks), w, h, w * 3);
        let soft = look(&frame(w, h, |x, _| [(100 + x) as u8, 120, (160 - x) as u8]), w, h, w * 3);
        let black = look(&frame(w, h, |_, _| [3, 3, 3]), w, h, w * 3);
        assert_eq!(black.score, 0.0);
        assert!(sharp.score > grey.score && grey.score > soft.score, "{sharp:?} {grey:?} {soft:?}");
        assert!(sharp.like(&sharp.clone()) && !sharp.like(&grey));
    }
}
