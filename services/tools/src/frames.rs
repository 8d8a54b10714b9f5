//! Frames sampled from a video for reading (video auditing's OCR, docs/ai.md): decoded once in
//! RGB at most `max_width` wide, one kept every `every_ms` and one more wherever the picture
//! changes at once (a scene change: the mean luma difference of a 32×18 grid against the last
//! kept frame reaches [`CHANGE`]), so a caption shown between two samples after a cut is read too.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use gstreamer as gst;
use gstreamer::prelude::*;

use crate::error::ToolError;
use crate::gst_run::{PICTURES, app_sink, launch, pull};
use crate::probe::probe;

/// Mean absolute luma difference (0–255) of the grids that counts as a scene change.
const CHANGE: f64 = 24.0;
/// The grid a change is measured on.
const GRID: (usize, usize) = (32, 18);
/// Frames kept for a change are at least this far apart, milliseconds (a fade is not a burst).
const CHANGE_GAP_MS: u64 = 250;

/// One kept frame.
#[derive(Debug, Clone)]
pub struct Still {
    /// Its time in the clip, milliseconds.
    pub time_ms: u64,
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// Packed RGB, `width × height × 3` bytes.
    pub rgb: Vec<u8>,
}

impl Still {
    /// The frame as a binary PPM (P6), which tesseract's image library reads.
    pub fn ppm(&self) -> Vec<u8> {
        let mut out = format!("P6\n{} {}\n255\n", self.width, self.height).into_bytes();
        out.extend_from_slice(&self.rgb);
        out
    }

    fn grid(&self) -> Vec<f64> {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut g = Vec::with_capacity(GRID.0 * GRID.1);
        for gy in 0..GRID.1 {
            for gx in 0..GRID.0 {
                let (x, y) = ((gx * 2 + 1) * w / (GRID.0 * 2), (gy * 2 + 1) * h / (GRID.1 * 2));
                let i = (y * w + x) * 3;
                let p = self.rgb.get(i..i + 3).unwrap_or(&[0, 0, 0]);
                g.push(0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2]));
            }
        }
        g
    }
}

/// The size frames of a `width × height` picture are decoded at: at most `max_width` wide, the
/// shape kept, both even.
fn decoded_size(width: u32, height: u32, max_width: u32) -> (u32, u32) {
    let w = width.min(max_width).max(2);
    let h = (u64::from(height) * u64::from(w) / u64::from(width.max(1))).max(2) as u32;
    (w & !1, h & !1)
}

/// Decodes the video at `path` and hands `on_frame` each kept frame in time order (see the
/// module); `on_frame` may stop the run with an error. Returns the video's length, milliseconds.
pub fn sample(
    path: &Path,
    every_ms: u64,
    max_width: u32,
    cancel: &AtomicBool,
    on_frame: &mut dyn FnMut(Still) -> Result<(), ToolError>,
) -> Result<u64, ToolError> {
    let facts = probe(path)?;
    let Some((width, height, _)) = facts.video else {
        return Err(ToolError::NotMedia("the file has no picture to read".to_owned()));
    };
    let (w, h) = decoded_size(width, height, max_width);
    let drain = if facts.audio { " d. ! audio/x-raw ! queue ! fakesink sync=false async=false" } else { "" };
    let description = format!(
        "filesrc name=src ! decodebin name=d {PICTURES} ! queue ! videoconvert ! videoscale \
         ! video/x-raw,format=RGB,width={w},height={h},pixel-aspect-ratio=1/1 ! appsink name=sink sync=false max-buffers=4{drain}"
    );
    let running = launch(&description, Some(path), None)?;
    let sink = app_sink(&running.0, "sink")?;
    let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
    running.0.set_state(gst::State::Playing)?;
    let (wu, hu) = (w as usize, h as usize);
    let stride = (wu * 3).div_ceil(4) * 4;
    let mut last: Option<(u64, Vec<f64>)> = None;
    while let Some(s) = pull(&bus, &sink, cancel)? {
        let Some(buffer) = s.buffer() else { continue };
        let Some(pts) = buffer.pts() else { continue };
        let at = s.segment().and_then(|s| s.downcast_ref::<gst::ClockTime>()).and_then(|s| s.to_stream_time(pts)).unwrap_or(pts);
        let ms = at.mseconds();
        let due = last.as_ref().is_none_or(|(t, _)| ms >= t + every_ms);
        let near = last.as_ref().is_some_and(|(t, _)| ms < t + CHANGE_GAP_MS);
        if !due && near {
            continue;
        }
        let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
        let mut rgb = Vec::with_capacity(wu * hu * 3);
        for row in 0..hu {
            let Some(line) = map.get(row * stride..row * stride + wu * 3) else { break };
            rgb.extend_from_slice(line);
        }
        drop(map);
        if rgb.len() != wu * hu * 3 {
            continue;
        }
        let still = Still { time_ms: ms, width: w, height: h, rgb };
        let grid = still.grid();
        let changed = last.as_ref().is_some_and(|(_, g)| g.iter().zip(&grid).map(|(a, b)| (a - b).abs()).sum::<f64>() / grid.len() as f64 >= CHANGE);
        if due || changed {
            last = Some((ms, grid));
            on_frame(still)?;
        }
    }
    drop(running);
    Ok(facts.duration_ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three one-second scenes of different colours, sampled once every 10 s: the first frame and
    /// one at each cut are kept, nothing else.
    #[test]
    fn a_frame_is_kept_at_each_scene_change_between_samples() -> Result<(), ToolError> {
        let dir = tempfile::tempdir()?;
        let clip = crate::testing::scenes(dir.path(), "scenes.mp4", &[("red", 25), ("blue", 25), ("white", 25)], 25)?;
        let mut kept = Vec::new();
        let length = sample(&clip, 10_000, 960, &AtomicBool::new(false), &mut |s| {
            kept.push((s.time_ms, s.width, s.height, s.rgb.len()));
            Ok(())
        })?;
        assert!(length.abs_diff(3000) <= 40, "{length} ms");
        assert_eq!(kept.iter().map(|k| k.0).collect::<Vec<_>>(), [0, 1000, 2000], "{kept:?}");
        assert!(kept.iter().all(|&(_, w, h, n)| (w, h, n) == (320, 180, 320 * 180 * 3)), "{kept:?}");
        Ok(())
    }

    #[test]
    fn the_decoded_size_keeps_the_shape_and_is_even() {
        assert_eq!(decoded_size(1920, 1080, 960), (960, 540));
        assert_eq!(decoded_size(640, 360, 960), (640, 360));
        assert_eq!(decoded_size(721, 405, 960), (720, 404));
        assert_eq!(decoded_size(0, 0, 960), (2, 2));
    }
}
