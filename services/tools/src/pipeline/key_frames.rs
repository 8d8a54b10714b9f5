//! VIDEO_KEY_FRAMES (`ai-frame-cut`): frames of a video as JPEG pictures, at the source's size.
//!
//! - By scenes: the scenes are found first ([`crate::scene`], the first 30 % of the progress), then
//!   one decode (`decodebin → videoconvert → RGB appsink`) keeps, per scene, its frame of the best
//!   score: the sharpness (the mean absolute Laplacian of the luma, on every other pixel) weighted
//!   down by up to a fifth towards the scene's edges, so that of equally sharp frames the middle
//!   one wins and a blurred frame of a transition at an edge loses. A still scene gives its middle
//!   frame.
//! - By interval: the first frame at or after 0, `everyMs`, 2 × `everyMs`, … in the same decode.
//!
//! Each picture is `frame-{i}.jpg` (JPEG quality 90), its `ranges` the stretch it stands for: the
//! scene, or the interval up to the next picture.

use std::path::Path;

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_video as gst_video;

use super::{DECODE, DETECT_SHARE, Job, Output, OutputKind, Progress};
use crate::error::{ParamError, ToolError};
use crate::frame_params::{KeyFrames, MAX_PICTURES};
use crate::gst_run::{PICTURES, app_sink, launch, pull};
use crate::params::MsRange;

/// JPEG quality of the pictures.
const QUALITY: u8 = 90;
/// How much a frame at a scene's edge is weighted down against one in its middle.
const EDGE_PENALTY: f64 = 0.2;

/// A decoded frame kept as a candidate: tightly packed RGB.
struct Kept {
    score: f64,
    rgb: Vec<u8>,
}

/// The mean absolute Laplacian of the luma of packed RGB (`stride` bytes a row), on every other
/// pixel of every other row with neighbours two pixels away: how much fine detail the frame has.
pub(crate) fn sharpness(rgb: &[u8], width: usize, height: usize, stride: usize) -> f64 {
    let luma = |x: usize, y: usize| -> f64 {
        let i = y * stride + x * 3;
        rgb.get(i..i + 3).map_or(0.0, |p| 0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]))
    };
    let (mut sum, mut n) = (0.0, 0u64);
    for y in (2..height.saturating_sub(2)).step_by(2) {
        for x in (2..width.saturating_sub(2)).step_by(2) {
            let c = luma(x, y);
            sum += (4.0 * c - luma(x - 2, y) - luma(x + 2, y) - luma(x, y - 2) - luma(x, y + 2)).abs();
            n += 1;
        }
    }
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// The weight of a frame at `at_ms` in the stretch `range`: 1 in its middle, 1 − [`EDGE_PENALTY`] at its edges.
fn centre_weight(at_ms: u64, range: MsRange) -> f64 {
    let half = (range.end_ms.saturating_sub(range.start_ms) as f64 / 2.0).max(1.0);
    let mid = range.start_ms as f64 + half;
    1.0 - EDGE_PENALTY * ((at_ms as f64 - mid).abs() / half).min(1.0)
}

impl Job<'_> {
    pub(super) fn key_frames(&mut self, k: &KeyFrames) -> Result<Vec<Output>, ToolError> {
        let duration = self.facts.duration_ms;
        let (ranges, from, by_scene) = match k {
            KeyFrames::Scenes(detect) => {
                let scenes = self.scenes(detect, DETECT_SHARE)?;
                if scenes.len() > MAX_PICTURES {
                    let why = format!("{} scenes were found, more than {MAX_PICTURES}: lower the sensitivity or lengthen minSceneMs", scenes.len());
                    return Err(ParamError::new("params.sensitivity", why).into());
                }
                let mut ranges: Vec<MsRange> = scenes.iter().map(|s| MsRange { start_ms: s.start_ms, end_ms: s.end_ms }).collect();
                if let Some(first) = ranges.first_mut() {
                    first.start_ms = 0;
                }
                (ranges, DETECT_SHARE, true)
            }
            KeyFrames::Interval { every_ms } => {
                let times = KeyFrames::interval_times(*every_ms, duration);
                (times.into_iter().map(|(start_ms, end_ms)| MsRange { start_ms, end_ms }).collect(), 0.0, false)
            }
        };
        let description = format!(
            "{DECODE} {PICTURES} ! queue ! videoconvert ! video/x-raw,format=RGB ! appsink name=sink sync=false max-buffers=4{}",
            self.drain_sound()
        );
        let running = launch(&description, Some(self.input), None)?;
        let sink = app_sink(&running.0, "sink")?;
        let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        running.0.set_state(gst::State::Playing)?;
        let mut best: Vec<Option<Kept>> = ranges.iter().map(|_| None).collect();
        let mut size = (0usize, 0usize);
        let total = duration.max(1);
        while let Some(sample) = pull(&bus, &sink, self.cancel)? {
            let (Some(buffer), Some(caps)) = (sample.buffer(), sample.caps()) else { continue };
            let Some(pts) = buffer.pts() else { continue };
            // The clip's own timeline, as scene detection reads it.
            let at = sample.segment().and_then(|s| s.downcast_ref::<gst::ClockTime>()).and_then(|s| s.to_stream_time(pts)).unwrap_or(pts).mseconds();
            (self.progress)(Progress { done_ms: ((from + (1.0 - from) * at.min(total) as f64 / total as f64) * total as f64) as u64, total_ms: total });
            // The last stretch holds the frames past its end too (the sound may outlast the pictures).
            let Some(i) = ranges.iter().position(|r| at >= r.start_ms && at < r.end_ms).or_else(|| (at >= duration).then(|| ranges.len().saturating_sub(1))) else {
                continue;
            };
            if !by_scene && best[i].is_some() {
                continue;
            }
            let info = gst_video::VideoInfo::from_caps(caps).map_err(|e| ToolError::Failed(e.to_string()))?;
            let (w, h) = (info.width() as usize, info.height() as usize);
            let stride = usize::try_from(info.stride()[0]).unwrap_or(w * 3);
            let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
            let score = if by_scene { sharpness(&map, w, h, stride) * centre_weight(at, ranges[i]) } else { 0.0 };
            if best[i].as_ref().is_some_and(|b| b.score >= score) {
                continue;
            }
            let mut rgb = Vec::with_capacity(w * h * 3);
            for row in 0..h {
                let line = map.get(row * stride..row * stride + w * 3).ok_or_else(|| ToolError::Failed("a frame shorter than its caps".to_owned()))?;
                rgb.extend_from_slice(line);
            }
            size = (w, h);
            best[i] = Some(Kept { score, rgb });
        }
        drop(running);
        let mut outputs = Vec::with_capacity(ranges.len());
        for (kept, range) in best.into_iter().zip(&ranges) {
            // An interval past the last decoded frame has no picture.
            let Some(kept) = kept else { continue };
            let name = format!("frame-{}.jpg", outputs.len() + 1);
            let path = self.partial(&name);
            write_jpeg(&path, &kept.rgb, size)?;
            let (width, height) = (u32::try_from(size.0).unwrap_or(0), u32::try_from(size.1).unwrap_or(0));
            outputs.push(Output { path, kind: OutputKind::Picture, name, size: 0, duration_ms: 0, width, height, ranges: vec![*range] });
        }
        if outputs.is_empty() {
            return Err(ParamError::new("materialIds", "no frame of the video could be decoded").into());
        }
        Ok(outputs)
    }
}

/// Writes packed RGB of `(width, height)` as a JPEG.
fn write_jpeg(path: &Path, rgb: &[u8], (width, height): (usize, usize)) -> Result<(), ToolError> {
    let file = std::io::BufWriter::new(std::fs::File::create(path)?);
    let (w, h) = (u32::try_from(width).unwrap_or(0), u32::try_from(height).unwrap_or(0));
    image::codecs::jpeg::JpegEncoder::new_with_quality(file, QUALITY)
        .encode(rgb, w, h, image::ExtendedColorType::Rgb8)
        .map_err(|e| ToolError::Failed(format!("writing a picture: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detail_is_sharper_than_flat_and_the_middle_weighs_most() {
        let (w, h) = (16, 12);
        let flat = vec![128u8; w * h * 3];
        let checks: Vec<u8> = (0..w * h).flat_map(|i| if (i % w / 2 + i / w / 2) % 2 == 0 { [0u8; 3] } else { [255u8; 3] }).collect();
        assert!(sharpness(&flat, w, h, w * 3) < 1e-9);
        assert!(sharpness(&checks, w, h, w * 3) > 100.0);
        let r = MsRange { start_ms: 1000, end_ms: 3000 };
        assert!((centre_weight(2000, r) - 1.0).abs() < 1e-9);
        assert!((centre_weight(1000, r) - 0.8).abs() < 1e-9 && (centre_weight(3000, r) - 0.8).abs() < 1e-9);
        assert!(centre_weight(1500, r) > centre_weight(1200, r));
    }
}
