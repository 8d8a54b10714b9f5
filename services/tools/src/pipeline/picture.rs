//! PRE_PICTURE_VIDEO: a sound and a still picture (or the sound's waveform) as an MP4 as long as
//! the sound, at 25 frames a second.
//!
//! - picture: `filesrc name=src2 ! decodebin ! videoscale add-borders (fitted, aspect kept, black
//!   bars) ! imagefreeze num-buffers=N ! x264 ! mp4mux`, the sound beside it as AAC;
//! - waveform: `d. ! … ! tee` into the AAC encoder and `wavescope` (coloured lines) `! x264`.

use gstreamer::prelude::*;

use super::{Job, Output, OutputKind, aac, x264_quality};
use crate::error::ToolError;
use crate::gst_run::{element, launch, sound_only};
use crate::params::{PictureVideo, Visual};

/// The video's frame rate.
const FPS: u64 = 25;
/// The sound's AAC bitrate, bit/s.
const AUDIO_BPS: u32 = 192_000;

impl Job<'_> {
    pub(super) fn picture_video(&mut self, p: &PictureVideo) -> Result<Vec<Output>, ToolError> {
        let (w, h) = (p.width, p.height);
        let encode = format!("videoconvert ! video/x-raw,format=I420 ! {} ! queue ! mux.", x264_quality(23));
        let sound = "d. ! audio/x-raw ! queue ! audioconvert ! audioresample";
        let description = match p.visual {
            Visual::Picture => {
                let frames = (self.facts.duration_ms * FPS).div_ceil(1000).max(1);
                format!(
                    "filesrc name=src ! decodebin name=d {sound} ! {aac} bitrate={AUDIO_BPS} ! queue ! mux. \
                     filesrc name=src2 ! decodebin ! videoconvert ! videoscale add-borders=true \
                     ! video/x-raw,width={w},height={h},pixel-aspect-ratio=1/1 ! imagefreeze num-buffers={frames} \
                     ! video/x-raw,framerate={FPS}/1 ! {encode} mp4mux name=mux faststart=true ! filesink name=sink",
                    aac = aac()
                )
            }
            Visual::Waveform => format!(
                "filesrc name=src ! decodebin name=d {sound} ! tee name=t \
                 t. ! queue ! audioconvert ! {aac} bitrate={AUDIO_BPS} ! queue ! mux. \
                 t. ! queue ! audioconvert ! wavescope style=color-lines shader=none \
                 ! video/x-raw,width={w},height={h},framerate={FPS}/1 ! {encode} mp4mux name=mux faststart=true ! filesink name=sink",
                aac = aac()
            ),
        };
        let out = self.partial("video.mp4");
        let running = launch(&description, Some(self.input), Some(&out))?;
        if let Some(picture) = self.more.first() {
            element(&running.0, "src2")?.set_property("location", picture.to_string_lossy().to_string());
        }
        // The sound may come from a video: its pictures are not needed.
        sound_only(&running.0, "d")?;
        self.play(&running, self.facts.duration_ms, (0.0, 1.0))?;
        Ok(vec![self.output(out, OutputKind::Video, "video.mp4")?])
    }
}
