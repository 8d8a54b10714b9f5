//! Scene detection: the video decoded at 64×36 RGB, each frame's colour histograms (16 bins per
//! channel, each value shared between its two nearest bins so that noise at a bin's edge does not
//! count as change) against the frame before. A cut is where the largest of the three channels'
//! histogram distances (half the L1 distance: 0 for the same colours, 1 for none in common) reaches
//! the threshold `1 − sensitivity / 100`, at least `minSceneMs` after the previous cut and before
//! the end. Histograms ignore where colours are, so a moving picture of steady colours makes no
//! cut; a cut between two shots of the same colours is not seen.
//!
//! Each scene also gets the measures INTELLIGENT_TASK ranks it by: its motion (the mean absolute
//! luma change between its neighbouring frames, 0–255) and its contrast (the mean of its frames'
//! luma standard deviation, 0–255).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use gstreamer as gst;
use gstreamer::prelude::*;

use crate::error::ToolError;
use crate::gst_run::{PICTURES, app_sink, launch, pull};
use crate::params::SceneDetect;
use crate::probe::probe;

/// The size frames are analysed at.
const WIDTH: usize = 64;
const HEIGHT: usize = 36;
/// Histogram bins per channel.
const BINS: usize = 16;

/// One scene: a stretch of the video between two cuts (or its start or end).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scene {
    /// Start, milliseconds (the time of its first frame).
    pub start_ms: u64,
    /// End (excluded), milliseconds.
    pub end_ms: u64,
    /// Mean absolute luma change between its neighbouring frames, 0–255.
    pub motion: f64,
    /// Mean of its frames' luma standard deviation, 0–255.
    pub contrast: f64,
}

impl Scene {
    /// Its length, milliseconds.
    pub fn length_ms(&self) -> u64 {
        self.end_ms.saturating_sub(self.start_ms)
    }

    /// The score INTELLIGENT_TASK ranks scenes by: motion plus contrast.
    pub fn score(&self) -> f64 {
        self.motion + self.contrast
    }
}

/// One analysed frame.
struct Frame {
    hist: [[f64; BINS]; 3],
    luma: Vec<u8>,
}

impl Frame {
    /// Reads a packed RGB picture of `WIDTH`×`HEIGHT` (rows of `stride` bytes).
    fn of(rgb: &[u8], stride: usize) -> Self {
        let mut hist = [[0.0; BINS]; 3];
        let mut luma = Vec::with_capacity(WIDTH * HEIGHT);
        let scale = (BINS - 1) as f64 / 255.0;
        for y in 0..HEIGHT {
            let Some(row) = rgb.get(y * stride..y * stride + WIDTH * 3) else { break };
            for px in row.chunks_exact(3) {
                for (c, v) in px.iter().enumerate() {
                    let at = f64::from(*v) * scale;
                    let lo = at.floor() as usize;
                    let frac = at - lo as f64;
                    hist[c][lo] += 1.0 - frac;
                    if lo + 1 < BINS {
                        hist[c][lo + 1] += frac;
                    }
                }
                let (r, g, b) = (f64::from(px[0]), f64::from(px[1]), f64::from(px[2]));
                luma.push((0.299 * r + 0.587 * g + 0.114 * b).round().clamp(0.0, 255.0) as u8);
            }
        }
        let n = luma.len().max(1) as f64;
        for channel in &mut hist {
            for bin in channel.iter_mut() {
                *bin /= n;
            }
        }
        Self { hist, luma }
    }

    /// How far this frame's colours are from `other`'s: the largest channel's half L1 distance, 0–1.
    fn distance(&self, other: &Self) -> f64 {
        (0..3)
            .map(|c| self.hist[c].iter().zip(&other.hist[c]).map(|(a, b)| (a - b).abs()).sum::<f64>() / 2.0)
            .fold(0.0, f64::max)
    }

    /// The mean absolute luma change from `other`.
    fn motion(&self, other: &Self) -> f64 {
        let n = self.luma.len().max(1) as f64;
        self.luma.iter().zip(&other.luma).map(|(a, b)| f64::from(a.abs_diff(*b))).sum::<f64>() / n
    }

    /// The luma's standard deviation.
    fn contrast(&self) -> f64 {
        let n = self.luma.len().max(1) as f64;
        let mean = self.luma.iter().map(|v| f64::from(*v)).sum::<f64>() / n;
        (self.luma.iter().map(|v| (f64::from(*v) - mean).powi(2)).sum::<f64>() / n).sqrt()
    }
}

/// Sums of a scene's measures while it is read.
#[derive(Default)]
struct Tally {
    start_ms: u64,
    motion: f64,
    pairs: u32,
    contrast: f64,
    frames: u32,
}

impl Tally {
    fn scene(&self, end_ms: u64) -> Scene {
        Scene {
            start_ms: self.start_ms,
            end_ms,
            motion: if self.pairs > 0 { self.motion / f64::from(self.pairs) } else { 0.0 },
            contrast: if self.frames > 0 { self.contrast / f64::from(self.frames) } else { 0.0 },
        }
    }
}

/// The scenes of the video at `path`, in time order, covering it from its first frame to its end;
/// `position` is called with how far the analysis is, milliseconds.
pub fn detect(path: &Path, params: &SceneDetect, cancel: &AtomicBool, position: &mut dyn FnMut(u64)) -> Result<Vec<Scene>, ToolError> {
    let facts = probe(path)?;
    let drain = if facts.audio { " d. ! audio/x-raw ! queue ! fakesink sync=false async=false" } else { "" };
    let description = format!(
        "filesrc name=src ! decodebin name=d {PICTURES} ! queue ! videoconvert ! videoscale \
         ! video/x-raw,format=RGB,width={WIDTH},height={HEIGHT} ! appsink name=sink sync=false max-buffers=8{drain}"
    );
    let running = launch(&description, Some(path), None)?;
    let sink = app_sink(&running.0, "sink")?;
    let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
    running.0.set_state(gst::State::Playing)?;
    let threshold = 1.0 - f64::from(params.sensitivity) / 100.0;
    let mut changes: Vec<(u64, Tally)> = Vec::new();
    let mut tally = Tally::default();
    let mut previous: Option<Frame> = None;
    let mut end_ms = 0;
    let mut first = true;
    while let Some(sample) = pull(&bus, &sink, cancel)? {
        let Some(buffer) = sample.buffer() else { continue };
        let Some(pts) = buffer.pts() else { continue };
        // The clip's own timeline, as the cuts read it (a file may stamp its first picture later).
        let at = sample.segment().and_then(|s| s.downcast_ref::<gst::ClockTime>()).and_then(|s| s.to_stream_time(pts)).unwrap_or(pts);
        let ms = at.mseconds();
        let stride = sample
            .caps()
            .and_then(|c| c.structure(0).and_then(|s| s.get::<i32>("width").ok()))
            .map_or(WIDTH * 3, |w| (usize::try_from(w).unwrap_or(WIDTH) * 3).div_ceil(4) * 4);
        let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
        let frame = Frame::of(&map, stride);
        drop(map);
        end_ms = ms + buffer.duration().map_or(0, gst::ClockTime::mseconds);
        if first {
            tally.start_ms = ms;
            first = false;
        }
        if let Some(prev) = &previous {
            if frame.distance(prev) >= threshold && ms >= tally.start_ms + params.min_scene_ms {
                let done = std::mem::replace(&mut tally, Tally { start_ms: ms, ..Tally::default() });
                changes.push((ms, done));
            } else {
                tally.motion += frame.motion(prev);
                tally.pairs += 1;
            }
        }
        tally.contrast += frame.contrast();
        tally.frames += 1;
        previous = Some(frame);
        position(ms);
    }
    drop(running);
    end_ms = end_ms.max(facts.duration_ms);
    // The last scene too must last the minimum: a cut too near the end joins the scenes around it.
    if let Some(&(at, _)) = changes.last()
        && end_ms < at + params.min_scene_ms
        && let Some((_, before)) = changes.pop()
    {
        tally = merge(before, tally);
    }
    let mut scenes = Vec::with_capacity(changes.len() + 1);
    for (at, t) in changes {
        scenes.push(t.scene(at));
    }
    if !first {
        scenes.push(tally.scene(end_ms));
    }
    Ok(scenes)
}

/// Two neighbouring scenes' sums as one scene's.
fn merge(before: Tally, after: Tally) -> Tally {
    Tally {
        start_ms: before.start_ms,
        motion: before.motion + after.motion,
        pairs: before.pairs + after.pairs,
        contrast: before.contrast + after.contrast,
        frames: before.frames + after.frames,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solid(r: u8, g: u8, b: u8) -> Frame {
        let rgb: Vec<u8> = std::iter::repeat_n([r, g, b], WIDTH * HEIGHT).flatten().collect();
        Frame::of(&rgb, WIDTH * 3)
    }

    #[test]
    fn a_colour_change_is_far_and_noise_at_a_bins_edge_is_near() {
        assert!((solid(255, 0, 0).distance(&solid(0, 255, 0)) - 1.0).abs() < 1e-9);
        assert!((solid(255, 0, 0).distance(&solid(255, 255, 0)) - 1.0).abs() < 1e-9, "one channel's change is enough");
        // 191 and 192 sit either side of a hard bin's edge; shared bins see them as neighbours.
        assert!(solid(191, 191, 191).distance(&solid(192, 192, 192)) < 0.1);
        assert_eq!(solid(10, 20, 30).distance(&solid(10, 20, 30)), 0.0);
    }
}
