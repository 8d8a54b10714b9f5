//! VIDEO_H_TO_V: a landscape video turned into 9:16 (or 1:1), as wide as the source is high. In
//! the default mode (`blur`) the picture is fitted across the frame's width, centred, over a fill
//! of itself scaled to cover the frame and blurred (scaled down by 8, a gaussian blur, scaled back
//! up: a wide blur at a small cost); `follow` crops instead (see [`super::follow`]). The sound is
//! kept (AAC).
//!
//! `d. ! videoconvert ! tee name=t`
//! `t. ! videoscale ! W×FH ! comp.sink_1` (at y = (H − FH) / 2)
//! `t. ! videoscale ! BW×H (cover) ! videocrop ! videoscale ! W/8×H/8 ! gaussianblur ! videoscale ! W×H ! comp.sink_0`
//! `compositor name=comp ! x264 ! mp4mux`

use super::{Job, Output, OutputKind, aac, x264_quality};
use crate::error::ToolError;
use crate::gst_run::{PICTURES, launch};
use crate::params::{Aspect, HToV, Reframe, even};

/// How far the fill is scaled down before its blur.
const FILL_SHRINK: u32 = 8;
/// The fill's blur at its small size.
const FILL_SIGMA: f64 = 3.0;

/// The sizes of one conversion of a `w0`×`h0` source to `aspect`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    /// The output's size.
    width: u32,
    height: u32,
    /// The fitted picture's height, and its top edge.
    fitted_height: u32,
    top: u32,
    /// The fill scaled to cover: its width, and what is cropped from each side.
    cover_width: u32,
    crop_left: u32,
    crop_right: u32,
}

fn layout(aspect: Aspect, w0: u32, h0: u32) -> Layout {
    let (width, height) = aspect.size(h0);
    let (w0f, h0f) = (f64::from(w0.max(1)), f64::from(h0.max(1)));
    let fitted_height = even((f64::from(width) * h0f / w0f).round() as u32).min(height);
    let cover_width = even((f64::from(height) * w0f / h0f).ceil() as u32).max(width);
    let crop = cover_width - width;
    Layout { width, height, fitted_height, top: (height - fitted_height) / 2, cover_width, crop_left: crop / 2, crop_right: crop - crop / 2 }
}

impl Job<'_> {
    pub(super) fn h_to_v(&mut self, h: HToV) -> Result<Vec<Output>, ToolError> {
        match h.mode {
            Reframe::Blur => self.blurred_fill(h.aspect),
            Reframe::Follow => self.follow_subject(h.aspect),
        }
    }

    fn blurred_fill(&mut self, aspect: Aspect) -> Result<Vec<Output>, ToolError> {
        let (w0, h0, _) = self.facts.video.unwrap_or_default();
        let l = layout(aspect, w0, h0);
        let (small_w, small_h) = (even(l.width / FILL_SHRINK), even(l.height / FILL_SHRINK));
        let audio = if self.facts.audio {
            format!(" d. ! audio/x-raw ! queue ! audioconvert ! audioresample ! {} bitrate=128000 ! queue ! mux.", aac())
        } else {
            String::new()
        };
        let description = format!(
            "filesrc name=src ! decodebin name=d {PICTURES} ! queue ! videoconvert ! tee name=t \
             t. ! queue ! videoscale ! video/x-raw,width={w},height={fh},pixel-aspect-ratio=1/1 ! comp.sink_1 \
             t. ! queue ! videoscale ! video/x-raw,width={cw},height={h},pixel-aspect-ratio=1/1 ! videocrop left={cl} right={cr} \
             ! videoscale ! video/x-raw,width={small_w},height={small_h} ! videoconvert ! gaussianblur sigma={FILL_SIGMA} ! videoconvert \
             ! videoscale ! video/x-raw,width={w},height={h},pixel-aspect-ratio=1/1 ! comp.sink_0 \
             compositor name=comp sink_0::zorder=0 sink_1::zorder=1 sink_1::ypos={top} \
             ! video/x-raw,width={w},height={h} ! videoconvert ! video/x-raw,format=I420 ! {x264} ! queue \
             ! mp4mux name=mux faststart=true ! filesink name=sink{audio}",
            w = l.width,
            h = l.height,
            fh = l.fitted_height,
            cw = l.cover_width,
            cl = l.crop_left,
            cr = l.crop_right,
            top = l.top,
            x264 = x264_quality(20),
        );
        let out = self.partial("vertical.mp4");
        let running = launch(&description, Some(self.input), Some(&out))?;
        self.play(&running, self.facts.duration_ms, (0.0, 1.0))?;
        Ok(vec![self.output(out, OutputKind::Video, "vertical.mp4")?])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_is_fitted_across_and_the_fill_covers_the_frame() {
        let l = layout(Aspect::Portrait, 1920, 1080);
        assert_eq!((l.width, l.height, l.fitted_height, l.top), (1080, 1920, 608, 656));
        assert_eq!((l.cover_width, l.crop_left + l.crop_right + l.width), (3414, 3414));
        let s = layout(Aspect::Square, 320, 180);
        assert_eq!((s.width, s.height, s.fitted_height, s.top), (180, 180, 102, 39));
    }
}
