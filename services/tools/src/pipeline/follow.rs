//! VIDEO_H_TO_V with `mode: "follow"`: a full-height window of the output's shape that pans
//! across the landscape picture to follow where the action is, scaled to the output's size (the
//! blurred fill's: as wide as the source is high). The sound is kept (AAC).
//!
//! 1. Where the subject is: `decodebin → videorate (8 fps) → videoscale → GRAY8 64 px high →
//!    appsink`. Per sample, each column's motion: the luma's change since the previous sample,
//!    past a noise floor. The subject's centre is where the window, at that scale, holds the most
//!    motion: the motion's centroid inside it. A sample whose motion is too weak, or spread too
//!    evenly to point anywhere (a still shot, a camera pan), takes the columns' contrast against
//!    the frame's median grey instead (what stands out of its background), and failing that holds
//!    the centre before it.
//! 2. The camera path ([`camera_path`]): the centres (motion's at the middle time of its two
//!    samples) through a 5-sample median (a one-off spike is dropped) and a centred 1 s moving
//!    average, clamped so the window stays inside the frame, then followed with a dead zone (the
//!    camera stays put while the subject moves within 8 % of the window's width of it) and a top
//!    pan speed of one window's width a second, forward and backward in time, the two averaged:
//!    no lag behind a moving subject, no jitter.
//! 3. `decodebin → videoconvert → videocrop → videoscale → x264 → mp4mux`: a probe on videocrop's
//!    input sets its margins from the path at each frame's time, in the streaming thread just
//!    before that frame is cropped (videocrop takes new margins on its next frame).

use std::sync::atomic::{AtomicI32, Ordering};

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_video as gst_video;
use gstreamer_video::prelude::*;

use super::{DECODE, Job, Output, OutputKind, Progress, aac, x264_quality};
use crate::error::ToolError;
use crate::gst_run::{PICTURES, app_sink, element, launch, pull};
use crate::params::{Aspect, even};

/// The height the pictures are measured at, pixels: enough to place a subject, cheap to compare.
const ANALYSIS_HEIGHT: u32 = 64;
/// Samples a second measured.
const ANALYSIS_FPS: u32 = 8;
/// A change of luma (or a difference from the median grey) up to this is noise, not a subject.
const NOISE: u8 = 10;
/// A sample points at a subject when its energy past [`NOISE`] averages at least this per pixel…
const FLOOR: f64 = 0.25;
/// …and its busiest window holds this many times its fair share (its width's part of the frame).
const CONCENTRATION: f64 = 1.5;
/// Samples either side of the median that drops one-off spikes.
const MEDIAN_REACH: usize = 2;
/// The moving average's span, ms.
const SMOOTH_MS: u64 = 1000;
/// How far the subject may move from the camera before it pans, in window widths.
const DEAD_ZONE: f64 = 0.08;
/// The fastest pan, window widths a second.
const MAX_PAN: f64 = 1.0;
/// The part of the progress the measuring pass stands for.
const MEASURE_SHARE: f64 = 0.3;

/// The window's width in source pixels for a source `h0` high: the output's shape, full height.
fn window_width(aspect: Aspect, w0: u32, h0: u32) -> u32 {
    let (w, h) = aspect.size(h0);
    even((f64::from(h0) * f64::from(w) / f64::from(h)).round() as u32).min(w0)
}

/// Each column's motion between two packed luma frames `width` wide: the sum of its changes past [`NOISE`].
fn motion(before: &[u8], now: &[u8], width: usize) -> Vec<f64> {
    let mut columns = vec![0.0; width];
    for (a, b) in before.chunks_exact(width).zip(now.chunks_exact(width)) {
        for (c, (p, q)) in columns.iter_mut().zip(a.iter().zip(b)) {
            *c += f64::from(p.abs_diff(*q).saturating_sub(NOISE));
        }
    }
    columns
}

/// Each column's contrast in a packed luma frame `width` wide: the sum of its pixels' differences
/// from the frame's median grey past [`NOISE`] (on a plain background, the subject alone).
fn contrast(now: &[u8], width: usize) -> Vec<f64> {
    let mut counts = [0usize; 256];
    for p in now {
        counts[usize::from(*p)] += 1;
    }
    let mut seen = 0;
    let median = counts
        .iter()
        .position(|n| {
            seen += n;
            seen * 2 > now.len()
        })
        .and_then(|v| u8::try_from(v).ok())
        .unwrap_or(128);
    let mut columns = vec![0.0; width];
    for row in now.chunks_exact(width) {
        for (c, p) in columns.iter_mut().zip(row) {
            *c += f64::from(p.abs_diff(median).saturating_sub(NOISE));
        }
    }
    columns
}

/// The centre, in columns, of the `window` adjacent columns of `energy` that hold the most of it
/// (its centroid inside them); none when there is less than `floor` in all, or the busiest window
/// holds no more than [`CONCENTRATION`] times its fair share (nothing stands out).
fn busiest(energy: &[f64], window: usize, floor: f64) -> Option<f64> {
    let n = energy.len();
    let window = window.clamp(1, n.max(1));
    let total: f64 = energy.iter().sum();
    if n == 0 || total <= 0.0 || total < floor {
        return None;
    }
    let mut sum: f64 = energy[..window].iter().sum();
    let (mut best, mut best_at) = (sum, 0);
    for start in 1..=n - window {
        sum += energy[start + window - 1] - energy[start - 1];
        if sum > best {
            (best, best_at) = (sum, start);
        }
    }
    if best <= 0.0 || best < total * (CONCENTRATION * window as f64 / n as f64).min(1.0) {
        return None;
    }
    let moment: f64 = energy[best_at..best_at + window].iter().enumerate().map(|(i, e)| ((best_at + i) as f64 + 0.5) * e).sum();
    Some(moment / best)
}

/// Where the subject was seen in one measured frame.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Seen {
    /// By its motion since the sample before: its centre between the two.
    Moving(f64),
    /// By its contrast: its centre in this frame.
    Standing(f64),
}

/// The subject's centre in one measured frame `width` columns wide (`before` is the sample
/// before it, if any), scaled to a source `scale` times as wide; `window` is the crop's width at
/// the measuring scale.
fn subject(before: Option<&[u8]>, now: &[u8], width: usize, window: usize, scale: f64) -> Option<Seen> {
    let floor = FLOOR * now.len() as f64;
    let moving = before.filter(|b| b.len() == now.len()).and_then(|b| busiest(&motion(b, now, width), window, floor));
    match moving {
        Some(c) => Some(Seen::Moving(c * scale)),
        None => busiest(&contrast(now, width), window, floor).map(|c| Seen::Standing(c * scale)),
    }
}

/// The window's left edge at each sample: `samples` are the subject's centres (none where none
/// was found) at their times, ms, in a frame `frame` pixels wide cropped to a window `window`
/// wide. Centres held over gaps, a median over [`MEDIAN_REACH`] samples either side and a moving
/// average over [`SMOOTH_MS`] (both narrowed at the ends to stay centred), clamped inside the
/// frame, then [`follow`]ed forward and backward in time, the two averaged.
pub(crate) fn camera_path(samples: &[(u64, Option<f64>)], frame: f64, window: f64) -> Vec<(u64, f64)> {
    let half = window / 2.0;
    let (lo, hi) = (half, (frame - half).max(half));
    let mut held = samples.iter().find_map(|s| s.1).unwrap_or(frame / 2.0);
    let centres: Vec<f64> = samples
        .iter()
        .map(|s| {
            held = s.1.unwrap_or(held);
            held
        })
        .collect();
    let n = centres.len();
    let median: Vec<f64> = (0..n)
        .map(|i| {
            // Centred at the ends too: a steady motion's last centres are not pulled back.
            let reach = MEDIAN_REACH.min(i).min(n - 1 - i);
            let mut near = centres[i - reach..=i + reach].to_vec();
            near.sort_by(f64::total_cmp);
            near[near.len() / 2]
        })
        .collect();
    let targets: Vec<(u64, f64)> = (0..n)
        .map(|i| {
            let at = samples[i].0;
            // As many samples after as before, all within half the span.
            let near = |j: usize| samples[j].0.abs_diff(at) * 2 <= SMOOTH_MS;
            let reach = (1..=i.min(n - 1 - i)).take_while(|&k| near(i - k) && near(i + k)).last().unwrap_or(0);
            let span = &median[i - reach..=i + reach];
            (at, (span.iter().sum::<f64>() / span.len() as f64).clamp(lo, hi))
        })
        .collect();
    // Followed forward the camera trails a moving subject by the dead zone, backward it leads by
    // as much: their mean is on it (a filter run both ways has no lag), and still where both are.
    let ahead = follow(targets.iter().copied(), window);
    let mut behind = follow(targets.iter().rev().copied(), window);
    behind.reverse();
    targets.iter().zip(ahead.iter().zip(&behind)).map(|(t, (a, b))| (t.0, (a + b) / 2.0 - half)).collect()
}

/// A camera following `targets` (times, ms, either way round, and centres): it stays put while
/// the target is within [`DEAD_ZONE`] of it, and otherwise closes on the zone's edge at most at
/// [`MAX_PAN`].
fn follow(targets: impl Iterator<Item = (u64, f64)>, window: f64) -> Vec<f64> {
    let dead = DEAD_ZONE * window;
    let mut camera: Option<(u64, f64)> = None;
    targets
        .map(|(at, target)| {
            let (before, c) = camera.get_or_insert((at, target));
            let off = target - *c;
            if off.abs() > dead {
                *c += off.signum() * (off.abs() - dead).min(MAX_PAN * window * at.abs_diff(*before) as f64 / 1000.0);
            }
            *before = at;
            *c
        })
        .collect()
}

/// The path's left edge at `ms`: linear between its samples, held past its ends.
fn left_at(path: &[(u64, f64)], ms: u64) -> f64 {
    let i = path.partition_point(|p| p.0 <= ms);
    match (i.checked_sub(1).and_then(|j| path.get(j)), path.get(i)) {
        (Some(a), Some(b)) if b.0 > a.0 => a.1 + (b.1 - a.1) * (ms - a.0) as f64 / (b.0 - a.0) as f64,
        (Some(a), _) => a.1,
        (None, Some(b)) => b.1,
        (None, None) => 0.0,
    }
}

/// A left margin for videocrop: `left` rounded to an even pixel (the chroma's), within `0..=margin`.
fn crop_left(left: f64, margin: i32) -> i32 {
    (((left / 2.0).round() as i32) * 2).clamp(0, margin.max(0))
}

impl Job<'_> {
    pub(super) fn follow_subject(&mut self, aspect: Aspect) -> Result<Vec<Output>, ToolError> {
        let (w0, h0, _) = self.facts.video.unwrap_or_default();
        let window = window_width(aspect, w0, h0);
        let path = self.follow_path(w0, h0, window)?;
        let margin = i32::try_from(w0 - window).unwrap_or(0);
        let first = crop_left(left_at(&path, 0), margin);
        let (width, height) = aspect.size(h0);
        let audio = if self.facts.audio {
            format!(" d. ! audio/x-raw ! queue ! audioconvert ! audioresample ! {} bitrate=128000 ! queue ! mux.", aac())
        } else {
            String::new()
        };
        let description = format!(
            "{DECODE} {PICTURES} ! queue ! videoconvert ! video/x-raw,format=I420 \
             ! videocrop name=window left={first} right={right} ! videoscale ! video/x-raw,width={width},height={height},pixel-aspect-ratio=1/1 \
             ! videoconvert ! video/x-raw,format=I420 ! {x264} ! queue ! mp4mux name=mux faststart=true ! filesink name=sink{audio}",
            right = margin - first,
            x264 = x264_quality(20),
        );
        let out = self.partial("vertical.mp4");
        let running = launch(&description, Some(self.input), Some(&out))?;
        let crop = element(&running.0, "window")?;
        let pad = crop.static_pad("sink").ok_or_else(|| ToolError::Gst("videocrop without a sink pad".to_owned()))?;
        let set = AtomicI32::new(first);
        pad.add_probe(gst::PadProbeType::BUFFER, move |pad, info| {
            let Some(pts) = info.buffer().and_then(|b| b.pts()) else { return gst::PadProbeReturn::Ok };
            // The clip's own timeline, as the measuring pass read it.
            let segment = pad.sticky_event::<gst::event::Segment>(0);
            let at = segment.and_then(|e| e.segment().downcast_ref::<gst::ClockTime>().and_then(|s| s.to_stream_time(pts))).unwrap_or(pts);
            let left = crop_left(left_at(&path, at.mseconds()), margin);
            if set.swap(left, Ordering::Relaxed) != left {
                crop.set_property("left", left);
                crop.set_property("right", margin - left);
            }
            gst::PadProbeReturn::Ok
        });
        self.play(&running, self.facts.duration_ms, (MEASURE_SHARE, 1.0 - MEASURE_SHARE))?;
        Ok(vec![self.output(out, OutputKind::Video, "vertical.mp4")?])
    }

    /// The first pass: the subject's centre in each measured sample, made into the camera path.
    fn follow_path(&mut self, w0: u32, h0: u32, window: u32) -> Result<Vec<(u64, f64)>, ToolError> {
        let width = ((f64::from(ANALYSIS_HEIGHT) * f64::from(w0) / f64::from(h0.max(1))).round() as u32).max(1);
        let scale = f64::from(w0) / f64::from(width);
        let small_window = (f64::from(window) / scale).round() as usize;
        let description = format!(
            "{DECODE} {PICTURES} ! queue ! videorate ! video/x-raw,framerate={ANALYSIS_FPS}/1 ! videoconvert ! videoscale \
             ! video/x-raw,format=GRAY8,width={width},height={ANALYSIS_HEIGHT},pixel-aspect-ratio=1/1 ! appsink name=sink sync=false max-buffers=4{}",
            self.drain_sound()
        );
        let running = launch(&description, Some(self.input), None)?;
        let sink = app_sink(&running.0, "sink")?;
        let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        running.0.set_state(gst::State::Playing)?;
        let total = self.facts.duration_ms.max(1);
        let mut samples = Vec::new();
        // The sample before: its time, ms, and its packed luma.
        let mut before: Option<(u64, Vec<u8>)> = None;
        while let Some(sample) = pull(&bus, &sink, self.cancel)? {
            let info = sample.caps().map(gst_video::VideoInfo::from_caps).transpose().map_err(|e| ToolError::Gst(e.to_string()))?;
            let (Some(info), Some(buffer)) = (info, sample.buffer()) else { continue };
            let Some(pts) = buffer.pts() else { continue };
            let at = sample.segment().and_then(|s| s.downcast_ref::<gst::ClockTime>()).and_then(|s| s.to_stream_time(pts)).unwrap_or(pts).mseconds();
            let frame = gst_video::VideoFrameRef::from_buffer_ref_readable(buffer, &info).map_err(|e| ToolError::Failed(e.to_string()))?;
            let stride = usize::try_from(frame.plane_stride()[0]).unwrap_or(0);
            let (w, h) = (info.width() as usize, info.height() as usize);
            let luma = frame.plane_data(0).map_err(|e| ToolError::Failed(e.to_string()))?;
            let packed: Vec<u8> = (0..h).flat_map(|y| luma.get(y * stride..y * stride + w).unwrap_or_default().iter().copied()).collect();
            // Motion is between two samples: it is placed at their middle time, not half a step late.
            samples.push(match subject(before.as_ref().map(|b| b.1.as_slice()), &packed, w, small_window, scale) {
                Some(Seen::Moving(c)) => (before.as_ref().map_or(at, |b| b.0.midpoint(at)), Some(c)),
                Some(Seen::Standing(c)) => (at, Some(c)),
                None => (at, None),
            });
            before = Some((at, packed));
            (self.progress)(Progress { done_ms: (MEASURE_SHARE * at.min(total) as f64) as u64, total_ms: total });
        }
        drop(running);
        Ok(camera_path(&samples, f64::from(w0), f64::from(window)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A `width`×`height` luma frame, grey 40, with a `side` square of 230 at column `x`.
    fn square(width: usize, height: usize, side: usize, x: usize) -> Vec<u8> {
        let mut f = vec![40u8; width * height];
        for row in f.chunks_exact_mut(width).skip(height / 2 - side / 2).take(side) {
            row[x..x + side].fill(230);
        }
        f
    }

    #[test]
    fn the_window_is_the_outputs_shape_at_full_height() {
        assert_eq!(window_width(Aspect::Portrait, 1920, 1080), 608);
        assert_eq!(window_width(Aspect::Square, 1920, 1080), 1080);
        assert_eq!(window_width(Aspect::Portrait, 320, 180), 102);
    }

    #[test]
    fn the_subject_is_where_its_motion_or_its_contrast_is() {
        let (w, h) = (114, 64);
        let (a, b) = (square(w, h, 10, 70), square(w, h, 10, 74));
        // The motion is the square's old and new columns (70..84): its centre, 77.
        let Some(Seen::Moving(c)) = subject(Some(&a), &b, w, 36, 1.0) else { panic!("no motion seen") };
        assert!((c - 77.0).abs() < 1.0, "{c}");
        // Still: the square stands out of the plain background.
        let Some(Seen::Standing(still)) = subject(Some(&b), &b, w, 36, 2.0) else { panic!("no contrast seen") };
        assert!((still - 158.0).abs() < 2.0, "{still}");
        // A plain frame, or noise spread across it, points nowhere.
        assert_eq!(subject(None, &vec![40u8; w * h], w, 36, 1.0), None);
        let stripes: Vec<u8> = (0..w * h).map(|i| if (i % w) % 4 < 2 { 20 } else { 220 }).collect();
        assert_eq!(busiest(&contrast(&stripes, w), 36, 1.0), None);
    }

    #[test]
    fn the_path_follows_steady_motion_smoothly_and_stays_inside_the_frame() {
        // A subject crossing a 1920 frame at 400 px/s, sampled at 8 fps for 4 s.
        let samples: Vec<(u64, Option<f64>)> = (0..32).map(|i| (i * 125, Some(200.0 + 50.0 * i as f64))).collect();
        let path = camera_path(&samples, 1920.0, 608.0);
        assert_eq!(path.len(), 32);
        for (i, p) in path.iter().enumerate() {
            assert!(p.1 >= 0.0 && p.1 <= 1920.0 - 608.0, "{p:?}");
            // Away from the frame's edges the camera is on the subject: no lag.
            let centre = p.1 + 304.0;
            let subject = samples[i].1.unwrap_or_default();
            if subject > 304.0 + 100.0 && subject < 1920.0 - 304.0 - 100.0 {
                assert!((subject - centre).abs() <= 1.0, "{i}: subject {subject}, camera {centre}");
            }
        }
        // It only ever pans one way.
        assert!(path.windows(2).all(|w| w[1].1 >= w[0].1));
    }

    #[test]
    fn the_path_ignores_jitter_and_spikes_and_pans_no_faster_than_its_limit() {
        // A subject still at 900 with ±20 px of jitter and one wild sample, then one that jumps to 1500.
        let samples: Vec<(u64, Option<f64>)> = (0..48)
            .map(|i| {
                let x = match i {
                    10 => 100.0,
                    0..24 => 900.0 + if i % 2 == 0 { 20.0 } else { -20.0 },
                    _ => 1500.0,
                };
                (i * 125, Some(x))
            })
            .collect();
        let path = camera_path(&samples, 1920.0, 608.0);
        // Still while the subject jitters; in the second before the jump (the path is followed
        // both ways) it creeps by no more than 2 % of its width before setting off.
        assert!(path[..12].iter().all(|p| (p.1 - path[0].1).abs() < 1e-9), "{path:?}");
        assert!(path[..20].iter().all(|p| (p.1 - path[0].1).abs() < 0.02 * 608.0), "{path:?}");
        let fastest = path.windows(2).map(|w| (w[1].1 - w[0].1).abs()).fold(0.0, f64::max);
        assert!(fastest <= 608.0 / 8.0 + 1e-9, "{fastest} px in one 125 ms step");
        let end = path[47].1 + 304.0;
        assert!((end - 1500.0).abs() <= 0.08 * 608.0 + 1e-9, "{end}");
    }

    #[test]
    fn gaps_hold_the_centre_and_no_subject_keeps_the_middle() {
        let samples = [(0, None), (125, Some(1200.0)), (250, None), (375, None)];
        let path = camera_path(&samples, 1920.0, 608.0);
        assert!(path.iter().all(|p| (p.1 - (1200.0 - 304.0)).abs() < 1e-9), "{path:?}");
        let none = camera_path(&[(0, None), (125, None)], 1920.0, 608.0);
        assert!(none.iter().all(|p| (p.1 - (960.0 - 304.0)).abs() < 1e-9), "{none:?}");
    }

    #[test]
    fn the_left_edge_is_interpolated_between_samples_and_held_past_the_ends() {
        let path = [(0, 10.0), (125, 20.0), (250, 40.0)];
        assert!((left_at(&path, 62) - 14.96).abs() < 0.01);
        assert!((left_at(&path, 250) - 40.0).abs() < 1e-9);
        assert!((left_at(&path, 9000) - 40.0).abs() < 1e-9);
        assert!((left_at(&[(100, 5.0)], 0) - 5.0).abs() < 1e-9);
        assert_eq!((crop_left(13.2, 20), crop_left(-4.0, 20), crop_left(33.0, 20)), (14, 0, 20));
    }
}
