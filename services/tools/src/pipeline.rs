//! Each tool's pipeline. Every tool decodes its input with `decodebin` and re-encodes what it
//! keeps: sound as AAC, MP3 or PCM, pictures as H.264 in an MP4 (x264, as the render engine
//! encodes) or as a GIF drawn from RGBA frames with a palette per frame (NeuQuant). A tool writes
//! into the job's directory under a partial name and renames its outputs only once all are
//! complete, so a failure or a cancel leaves nothing behind.
//!
//! - EXTRACT_AUDIO: `decodebin → audioconvert → audioresample → lamemp3enc | AAC → mp4mux | wavenc`.
//! - VIDEO_TO_GIF: `decodebin → videoconvert → videoscale → videorate → RGBA appsink`; the frames
//!   whose times fall in the range are quantised and written.
//! - VIDEO_COMPRESS: a target size is two x264 passes at the average bitrate that fills it (less
//!   the sound and 0.5 % for the container; slice threads, whose rate control
//!   holds the target more closely than frame threads); a quality is one constant-quality pass.
//! - VIDEO_SPEEDUP: picture times divided by the speed before `videorate` (the source's frame
//!   rate kept); the sound through `pitch` (SoundTouch's time stretch), which keeps its pitch.
//! - QUICK_CUT_VIDEO / QUICK_CUT_AUDIO: the decoded frames and 1 ms sound buffers outside the kept
//!   ranges are dropped and the rest moved up to join, so every cut falls on the exact frame.
//! - VIDEO_CROP: `decodebin → videoconvert → videocrop (the rectangle's margins) → x264 → mp4mux`,
//!   the sound re-encoded as AAC beside it.
//! - VIDEO_SPLIT: each clip is a cut that keeps one stretch (`part-1.mp4`, …), frame-exact; the
//!   stretches are the given times' or the detected scenes' ([`crate::scene`]).
//! - INTELLIGENT_TASK: the detected scenes ranked by [`Scene::score`], the best kept up to the target
//!   length ([`pick`]), joined in time order as one cut (or, asked for `clips`, each its own cut:
//!   the smart clips of `/aitask/smartClips`).
//! - EXTRACT_PERSON_AUDIO: see [`voice`].
//! - VIDEO_REPLACE_AUDIO, PRE_PICTURE_VIDEO, VIDEO_H_TO_V: see [`sound`], [`picture`], [`portrait`]
//!   (its crop that follows the subject: [`follow`]).
//! - VIDEO_REMOVE_WATERMARK, VIDEO_REMOVE_SUBTITLE: see [`erase`].
//! - PPT_CONVERTER: see [`ppt`]; VIDEO_BEAUTY, INCREASE_RESOLUTION: see [`looks`].
//! - VIDEO_COVER: see [`cover`]; AUDIO_DENOISE, AUDIO_ECHO_CANCEL, AUDIO_GAIN_CONTROL: see [`dsp`].
//! - VIDEO_KEY_FRAMES: see [`key_frames`]; VIDEO_REVERSE: see [`reverse`].

use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use gstreamer as gst;
use gstreamer::prelude::*;

use crate::error::{ParamError, ToolError};
use crate::gst_run::{PICTURES, Running, app_sink, element, launch, play, retime, sound_only};
use crate::params::{
    AudioFormat, COMPRESS_AUDIO_BPS, Compress, Crop, CutMode, Gif, Highlights, Input, MAX_SPLITS, MsRange, Params, QuickCut, SceneDetect, Split,
    video_kbps,
};
use crate::probe::{Facts, picture_size, probe};
use crate::scene::{self, Scene};

pub(crate) mod cover;
pub(crate) mod dsp;
mod erase;
mod follow;
mod key_frames;
mod looks;
mod picture;
mod portrait;
pub(crate) mod ppt;
mod reverse;
mod smart_cut;
mod sound;
mod voice;

pub use erase::detect_caption_band;
pub use smart_cut::{REENCODE_TAG, SMART_TAG, cut_comment};

/// How far a tool is: milliseconds of its output done of all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Done, milliseconds.
    pub done_ms: u64,
    /// In all, milliseconds.
    pub total_ms: u64,
}

/// What an output is, as the contract names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputKind {
    /// An MP4 with pictures.
    Video,
    /// Sound only.
    Audio,
    /// An animated GIF.
    Gif,
    /// A still picture.
    Picture,
}

impl OutputKind {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Video => "video",
            Self::Audio => "audio",
            Self::Gif => "gif",
            Self::Picture => "picture",
        }
    }

    /// Reads a wire name.
    pub fn parse(name: &str) -> Option<Self> {
        [Self::Video, Self::Audio, Self::Gif, Self::Picture].into_iter().find(|k| k.name() == name)
    }
}

/// One finished output of a tool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Output {
    /// Where it was written.
    pub path: PathBuf,
    /// What it is.
    pub kind: OutputKind,
    /// Its file name for the user (`audio.mp3`).
    pub name: String,
    /// Size, bytes.
    pub size: u64,
    /// Length, milliseconds.
    pub duration_ms: u64,
    /// Width, pixels (0 for sound).
    pub width: u32,
    /// Height, pixels (0 for sound).
    pub height: u32,
    /// The stretches of the (first) input it was made of, in its order; empty where the tool
    /// keeps the whole input.
    pub ranges: Vec<MsRange>,
}

/// Runs the tool of `params` on its input files (`materialIds` order, as [`Params::inputs`]
/// says), writing its outputs into `dir`. Each input is checked against the parameters first
/// (its streams, ranges, a reachable size; a picture that it is one), naming the input it refuses.
pub fn run(
    params: &Params,
    inputs: &[PathBuf],
    dir: &Path,
    progress: &mut dyn FnMut(Progress),
    cancel: &AtomicBool,
) -> Result<Vec<Output>, ToolError> {
    run_as(params, inputs, dir, progress, cancel, true)
}

/// [`run`], where `smart: false` makes a video cut take the full re-encode even where its smart
/// cut could run (the benchmark's baseline).
pub fn run_as(
    params: &Params,
    inputs: &[PathBuf],
    dir: &Path,
    progress: &mut dyn FnMut(Progress),
    cancel: &AtomicBool,
    smart: bool,
) -> Result<Vec<Output>, ToolError> {
    let roles = params.inputs();
    if inputs.len() != roles.len() {
        let why = format!("{} takes {} material(s), not {}", params.tool().name(), roles.len(), inputs.len());
        return Err(ParamError::new("materialIds", why).into());
    }
    let mut main = None;
    for (i, (path, role)) in inputs.iter().zip(&roles).enumerate() {
        if *role == Input::Picture {
            picture_size(path).map_err(|e| ParamError::new(params.input_field(i), e))?;
            continue;
        }
        // A presentation is not media: LibreOffice reads it, and says so when it cannot.
        let facts = if *role == Input::Presentation {
            Facts { duration_ms: 0, bytes: std::fs::metadata(path)?.len(), audio: false, video: None, orientation: Default::default(), coding: Default::default() }
        } else {
            probe(path)?
        };
        params.check_input_at(i, &facts)?;
        if i == 0 {
            main = Some(facts);
        }
    }
    // Every tool leads with a media input (a picture is only ever the second).
    let (Some(input), Some(main)) = (inputs.first(), main) else {
        return Err(ParamError::new("materialIds", "the first material must be a video or a sound").into());
    };
    std::fs::create_dir_all(dir)?;
    let job = Job { input, facts: main, more: &inputs[1..], dir, progress, cancel, partial: Vec::new(), smart, comment: None };
    job.run(params)
}

/// One run: the inputs, where it writes, and the partial files to remove if it fails.
struct Job<'a> {
    /// The main input (the first material).
    input: &'a Path,
    facts: Facts,
    /// The other inputs, in `materialIds` order.
    more: &'a [PathBuf],
    dir: &'a Path,
    progress: &'a mut dyn FnMut(Progress),
    cancel: &'a AtomicBool,
    partial: Vec<PathBuf>,
    /// Whether a video cut may take the smart cut.
    smart: bool,
    /// The `comment` tag [`Job::keep`] writes into its MP4 (which path a cut took), if any.
    comment: Option<String>,
}

/// The AAC encoder this machine has (voaacenc, else libav's).
fn aac() -> &'static str {
    if gst::ElementFactory::find("voaacenc").is_some() { "voaacenc" } else { "avenc_aac" }
}

/// x264 at constant quality `quantizer`, without the VBV cap x264enc otherwise puts on it
/// (the render engine's settings, `services/render/src/encode.rs`).
fn x264_quality(quantizer: u32) -> String {
    format!(
        "x264enc speed-preset=veryfast pass=qual quantizer={quantizer} bitrate=2048000 vbv-buf-capacity=0 key-int-max=250 \
         ! video/x-h264,profile=high"
    )
}

const DECODE: &str = "filesrc name=src ! decodebin name=d";

impl Job<'_> {
    fn run(mut self, params: &Params) -> Result<Vec<Output>, ToolError> {
        let made = match params {
            Params::ExtractAudio(format) => self.extract_audio(*format),
            Params::VideoToGif(gif) => self.gif(gif),
            Params::VideoCompress(compress) => self.compress(*compress),
            Params::VideoSpeedup(speed) => self.speed(*speed),
            Params::QuickCutVideo(cut) => self.cut(cut, true),
            Params::QuickCutAudio(cut) => self.cut(cut, false),
            Params::VideoCrop(crop) => self.crop(*crop),
            Params::VideoReplaceAudio(r) => self.replace_audio(r),
            Params::PrePictureVideo(p) => self.picture_video(p),
            Params::VideoHToV(h) => self.h_to_v(*h),
            Params::VideoSplit(split) => self.split(split),
            Params::IntelligentTask(h) => self.highlights(h),
            Params::ExtractPersonAudio(v) => self.vocals(*v),
            Params::VideoRemoveWatermark(mark) => self.remove_watermark(mark),
            Params::VideoRemoveSubtitle(captions) => self.remove_captions(captions),
            Params::PptConverter(slides) => self.slides(slides),
            Params::VideoBeauty(look) => self.beauty(look),
            Params::IncreaseResolution(up) => self.upscale(up),
            Params::VideoKeyFrames(k) => self.key_frames(k),
            Params::VideoCover(c) => self.covers(*c),
            Params::AudioClean(c) => self.clean_sound(c),
            Params::VideoReverse => self.reverse(),
        };
        let done = made.and_then(|outputs| self.finish(outputs));
        if done.is_err() {
            for p in &self.partial {
                if let Err(e) = std::fs::remove_file(p)
                    && e.kind() != std::io::ErrorKind::NotFound
                {
                    return Err(e.into());
                }
            }
        }
        done
    }

    /// A partial file of the output `name`, removed if the run fails.
    fn partial(&mut self, name: &str) -> PathBuf {
        let path = self.dir.join(format!("partial-{name}"));
        self.partial.push(path.clone());
        path
    }

    /// Renames the complete outputs to their names.
    fn finish(&mut self, outputs: Vec<Output>) -> Result<Vec<Output>, ToolError> {
        let mut done = Vec::with_capacity(outputs.len());
        for mut o in outputs {
            let path = self.dir.join(&o.name);
            std::fs::rename(&o.path, &path)?;
            self.partial.push(path.clone());
            o.size = std::fs::metadata(&path)?.len();
            o.path = path;
            done.push(o);
        }
        Ok(done)
    }

    /// Plays `running` to its end, reporting its position against `total_ms` scaled into the
    /// share `[from, from + share)` of the whole run.
    fn play(&mut self, running: &Running, total_ms: u64, share: (f64, f64)) -> Result<(), ToolError> {
        let (from, part) = share;
        let progress = &mut *self.progress;
        let whole = total_ms.max(1);
        play(running, self.cancel, &mut |at| {
            let done = (from + part * (at.min(whole) as f64 / whole as f64)) * whole as f64;
            progress(Progress { done_ms: done as u64, total_ms: whole });
        })
    }

    /// The branch that drains the sound of a tool that uses only the pictures, if the input has it.
    fn drain_sound(&self) -> &'static str {
        if self.facts.audio { " d. ! audio/x-raw ! queue ! fakesink sync=false async=false" } else { "" }
    }

    /// Probes a finished sound or video file for its length and picture size.
    fn output(&self, path: PathBuf, kind: OutputKind, name: &str) -> Result<Output, ToolError> {
        let facts = probe(&path)?;
        let (width, height) = facts.video.map_or((0, 0), |(w, h, _)| (w, h));
        Ok(Output { path, kind, name: name.to_owned(), size: facts.bytes, duration_ms: facts.duration_ms, width, height, ranges: Vec::new() })
    }

    fn extract_audio(&mut self, format: AudioFormat) -> Result<Vec<Output>, ToolError> {
        let (encode, name) = match format {
            AudioFormat::Mp3 => ("lamemp3enc target=bitrate bitrate=192 cbr=true".to_owned(), "audio.mp3"),
            AudioFormat::Aac => (format!("{} bitrate=192000 ! aacparse ! mp4mux faststart=true", aac()), "audio.m4a"),
            AudioFormat::Wav => ("audio/x-raw,format=S16LE ! wavenc".to_owned(), "audio.wav"),
        };
        let out = self.partial(name);
        let description = format!("{DECODE} d. ! audio/x-raw ! queue ! audioconvert ! audioresample ! {encode} ! filesink name=sink");
        let running = launch(&description, Some(self.input), Some(&out))?;
        sound_only(&running.0, "d")?;
        self.play(&running, self.facts.duration_ms, (0.0, 1.0))?;
        Ok(vec![self.output(out, OutputKind::Audio, name)?])
    }

    fn gif(&mut self, gif: &Gif) -> Result<Vec<Output>, ToolError> {
        let (w, h, _) = self.facts.video.unwrap_or((gif.width, gif.width, 0.0));
        let height = ((f64::from(gif.width) * f64::from(h) / f64::from(w.max(1))).round() as u32).max(1);
        let (width16, height16) = (dim(gif.width)?, dim(height)?);
        let description = format!(
            "{DECODE} {PICTURES} ! queue ! videoconvert ! videoscale ! videorate \
             ! video/x-raw,format=RGBA,width={},height={height},framerate={}/1,pixel-aspect-ratio=1/1 \
             ! appsink name=sink sync=false max-buffers=4{}",
            gif.width,
            gif.fps,
            self.drain_sound()
        );
        let running = launch(&description, Some(self.input), None)?;
        let sink = app_sink(&running.0, "sink")?;
        let out = self.partial("clip.gif");
        let file = std::io::BufWriter::new(std::fs::File::create(&out)?);
        let mut encoder = gif::Encoder::new(file, width16, height16, &[])?;
        if gif.looped {
            encoder.set_repeat(gif::Repeat::Infinite)?;
        }
        let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        running.0.set_state(gst::State::Playing)?;
        let (start, end) = (gst::ClockTime::from_mseconds(gif.start_ms), gst::ClockTime::from_mseconds(gif.end_ms));
        let total = gif.end_ms - gif.start_ms;
        let mut frames: u64 = 0;
        // Centiseconds written so far: each frame's delay is what brings the sum to its due time.
        let mut written_cs: u64 = 0;
        while let Some(sample) = crate::gst_run::pull(&bus, &sink, self.cancel)? {
            let buffer = sample.buffer().ok_or_else(|| ToolError::Failed("a frame without a buffer".to_owned()))?;
            let Some(pts) = buffer.pts() else { continue };
            if pts < start {
                continue;
            }
            if pts >= end {
                break;
            }
            let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
            let bytes = usize::from(width16) * usize::from(height16) * 4;
            let mut rgba = map.get(..bytes).ok_or_else(|| ToolError::Failed("a frame shorter than its size".to_owned()))?.to_vec();
            drop(map);
            let mut frame = gif::Frame::from_rgba_speed(width16, height16, &mut rgba, 10);
            frames += 1;
            let due_cs = (frames * 100 + u64::from(gif.fps) / 2) / u64::from(gif.fps);
            frame.delay = u16::try_from(due_cs - written_cs).unwrap_or(u16::MAX);
            written_cs = due_cs;
            encoder.write_frame(&frame)?;
            (self.progress)(Progress { done_ms: (pts - start).mseconds(), total_ms: total });
        }
        drop(running);
        if frames == 0 {
            return Err(ToolError::Param(crate::ParamError::new("params.startMs", "the range holds no frame of the clip")));
        }
        encoder.into_inner()?.into_inner().map_err(|e| ToolError::Io(e.into_error()))?;
        Ok(vec![Output {
            path: out,
            kind: OutputKind::Gif,
            name: "clip.gif".to_owned(),
            size: 0,
            duration_ms: written_cs * 10,
            width: gif.width,
            height,
            ranges: vec![crate::params::MsRange { start_ms: gif.start_ms, end_ms: gif.end_ms }],
        }])
    }

    fn compress(&mut self, compress: Compress) -> Result<Vec<Output>, ToolError> {
        let out = self.partial("compressed.mp4");
        let has_audio = self.facts.audio;
        let audio = move |bps: u64| {
            if has_audio {
                format!(" d. ! audio/x-raw ! queue ! audioconvert ! audioresample ! {} bitrate={bps} ! queue ! mux.", aac())
            } else {
                String::new()
            }
        };
        let mux = "queue ! mp4mux name=mux faststart=true ! filesink name=sink";
        let decode_video = format!("{DECODE} {PICTURES} ! queue ! videoconvert");
        match compress {
            Compress::Quality(q) => {
                let description = format!("{decode_video} ! {} ! {mux}{}", x264_quality(q.quantizer()), audio(128_000));
                let running = launch(&description, Some(self.input), Some(&out))?;
                self.play(&running, self.facts.duration_ms, (0.0, 1.0))?;
            }
            Compress::TargetBytes(target) => {
                let kbps = video_kbps(target, &self.facts);
                let stats = self.partial("x264.stats");
                self.partial("x264.stats.mbtree");
                // Both passes get 8-bit 4:2:0: left free, the first pass (its output unconstrained)
                // negotiates a 10-bit input and the second (High profile, 8-bit) refuses its stats.
                let x264 = |pass: &str| {
                    format!("video/x-raw,format=I420 ! x264enc name=enc pass={pass} bitrate={kbps} speed-preset=faster sliced-threads=true")
                };
                let first = format!("{decode_video} ! {} ! fakesink sync=false{}", x264("pass1"), self.drain_sound());
                let running = launch(&first, Some(self.input), None)?;
                element(&running.0, "enc")?.set_property("multipass-cache-file", stats.to_string_lossy().to_string());
                self.play(&running, self.facts.duration_ms, (0.0, 0.4))?;
                drop(running);
                let second =
                    format!("{decode_video} ! {} ! video/x-h264,profile=high ! {mux}{}", x264("pass2"), audio(COMPRESS_AUDIO_BPS));
                let running = launch(&second, Some(self.input), Some(&out))?;
                element(&running.0, "enc")?.set_property("multipass-cache-file", stats.to_string_lossy().to_string());
                self.play(&running, self.facts.duration_ms, (0.4, 0.6))?;
            }
        }
        Ok(vec![self.output(out, OutputKind::Video, "compressed.mp4")?])
    }

    fn speed(&mut self, speed: f64) -> Result<Vec<Output>, ToolError> {
        let out = self.partial("speed.mp4");
        let audio = if self.facts.audio {
            format!(
                " d. ! audio/x-raw ! queue ! audioconvert ! pitch tempo={speed} ! audioconvert ! audioresample ! {} bitrate=128000 ! queue ! mux.",
                aac()
            )
        } else {
            String::new()
        };
        let description = format!(
            "{DECODE} {PICTURES} ! queue name=vq ! videorate ! video/x-raw,framerate={} ! videoconvert ! {} \
             ! queue ! mp4mux name=mux faststart=true ! filesink name=sink{audio}",
            frame_rate(&self.facts),
            x264_quality(20)
        );
        let running = launch(&description, Some(self.input), Some(&out))?;
        let pad = element(&running.0, "vq")?.static_pad("src").ok_or_else(|| ToolError::Gst("queue without a src pad".to_owned()))?;
        retime(&pad, speed, move |pts| Some(gst::ClockTime::from_nseconds((pts.nseconds() as f64 / speed).round() as u64)));
        let total = (self.facts.duration_ms as f64 / speed) as u64;
        self.play(&running, total, (0.0, 1.0))?;
        Ok(vec![self.output(out, OutputKind::Video, "speed.mp4")?])
    }

    fn crop(&mut self, crop: Crop) -> Result<Vec<Output>, ToolError> {
        let out = self.partial("crop.mp4");
        let (w, h, _) = self.facts.video.unwrap_or_default();
        // check_input keeps the rectangle inside the picture, so the margins do not underflow.
        let (right, bottom) = (w.saturating_sub(crop.x + crop.width), h.saturating_sub(crop.y + crop.height));
        let audio = if self.facts.audio {
            format!(" d. ! audio/x-raw ! queue ! audioconvert ! audioresample ! {} bitrate=128000 ! queue ! mux.", aac())
        } else {
            String::new()
        };
        let description = format!(
            "{DECODE} {PICTURES} ! queue ! videoconvert ! videocrop left={} top={} right={right} bottom={bottom} \
             ! videoconvert ! video/x-raw,format=I420 ! {} ! queue ! mp4mux name=mux faststart=true ! filesink name=sink{audio}",
            crop.x,
            crop.y,
            x264_quality(18)
        );
        let running = launch(&description, Some(self.input), Some(&out))?;
        self.play(&running, self.facts.duration_ms, (0.0, 1.0))?;
        Ok(vec![self.output(out, OutputKind::Video, "crop.mp4")?])
    }

    /// A video cut takes the smart cut where the input allows it ([`smart_cut`]), else (or if it
    /// fails) the frame-exact re-encode, its output's `comment` tag saying which ran and why.
    fn cut(&mut self, cut: &QuickCut, video: bool) -> Result<Vec<Output>, ToolError> {
        let kept = cut.kept(self.facts.duration_ms);
        if !video {
            return Ok(vec![self.keep(&kept, false, "cut.m4a", (0.0, 1.0))?]);
        }
        let why = if !self.smart {
            "asked for".to_owned()
        } else {
            match self.smart_keep(&kept, "cut.mp4") {
                Ok(Ok(made)) => return Ok(vec![made]),
                Ok(Err(why)) => why,
                Err(e @ (ToolError::Cancelled | ToolError::Param(_))) => return Err(e),
                Err(e) => format!("the smart cut failed: {e}"),
            }
        };
        self.comment = Some(format!("{REENCODE_TAG}: {why}"));
        Ok(vec![self.keep(&kept, true, "cut.mp4", (0.0, 1.0))?])
    }

    /// Each clip of a split is a cut that keeps its stretch: one decode per clip, each frame-exact.
    /// Split by scenes, the detection takes the first 30 % of the progress.
    fn split(&mut self, split: &Split) -> Result<Vec<Output>, ToolError> {
        let (pieces, from) = match split {
            Split::Times(times) => (Split::pieces(times, self.facts.duration_ms), 0.0),
            Split::Scenes(detect) => {
                let scenes = self.scenes(detect, DETECT_SHARE)?;
                if scenes.len() < 2 {
                    return Err(ParamError::new("params.sensitivity", "no scene change was found: raise the sensitivity or shorten minSceneMs").into());
                }
                if scenes.len() > MAX_SPLITS + 1 {
                    let why = format!("{} scenes were found, more than {}: lower the sensitivity or lengthen minSceneMs", scenes.len(), MAX_SPLITS + 1);
                    return Err(ParamError::new("params.sensitivity", why).into());
                }
                let mut pieces: Vec<MsRange> = scenes.iter().map(|s| MsRange { start_ms: s.start_ms, end_ms: s.end_ms }).collect();
                // The first clip starts with the video, whatever the time of its first frame.
                if let Some(first) = pieces.first_mut() {
                    first.start_ms = 0;
                }
                (pieces, DETECT_SHARE)
            }
        };
        let n = pieces.len() as f64;
        let mut outputs = Vec::with_capacity(pieces.len());
        for (i, piece) in pieces.into_iter().enumerate() {
            let cut = QuickCut { mode: CutMode::Keep, ranges: vec![piece] };
            let share = (from + (1.0 - from) * i as f64 / n, (1.0 - from) / n);
            outputs.push(self.keep(&cut.kept(self.facts.duration_ms), true, &format!("part-{}.mp4", i + 1), share)?);
        }
        Ok(outputs)
    }

    /// The best scenes up to the target length, joined in time order.
    fn highlights(&mut self, h: &Highlights) -> Result<Vec<Output>, ToolError> {
        let scenes = self.scenes(&h.detect, DETECT_SHARE)?;
        let kept = pick(&scenes, h);
        if kept.is_empty() {
            let why = format!("none of the {} scenes found lasts {} ms or more: shorten minKeepMs", scenes.len(), h.min_keep_ms);
            return Err(ParamError::new("params.minKeepMs", why).into());
        }
        if !h.clips {
            return Ok(vec![self.keep(&kept, true, "highlights.mp4", (DETECT_SHARE, 1.0 - DETECT_SHARE))?]);
        }
        // The smart clips: each kept stretch its own clip, in time order, its progress a share of the rest.
        let n = kept.len() as f64;
        let mut outputs = Vec::with_capacity(kept.len());
        for (i, range) in kept.iter().enumerate() {
            let share = (DETECT_SHARE + (1.0 - DETECT_SHARE) * i as f64 / n, (1.0 - DETECT_SHARE) / n);
            outputs.push(self.keep(std::slice::from_ref(range), true, &format!("clip-{}.mp4", i + 1), share)?);
        }
        Ok(outputs)
    }

    /// The input's scenes, reporting progress in the first `share` of the run.
    fn scenes(&mut self, detect: &SceneDetect, share: f64) -> Result<Vec<Scene>, ToolError> {
        let total = self.facts.duration_ms.max(1);
        let progress = &mut *self.progress;
        scene::detect(self.input, detect, self.cancel, &mut |at| {
            progress(Progress { done_ms: (share * at.min(total) as f64) as u64, total_ms: total });
        })
    }

    /// Writes `name`: the input's `kept` stretches joined (pictures when `video`, and the sound),
    /// reporting progress in `share` of the run.
    fn keep(&mut self, kept: &[MsRange], video: bool, name: &str, share: (f64, f64)) -> Result<Output, ToolError> {
        let out = self.partial(name);
        let with_audio = self.facts.audio;
        let audio = if with_audio {
            format!(
                " d. ! audio/x-raw ! queue ! audioconvert ! audio/x-raw,format=F32LE ! audiobuffersplit name=aq output-buffer-duration=1/1000 \
                 ! audioconvert ! audioresample ! {} bitrate=128000 ! queue ! mux.",
                aac()
            )
        } else {
            String::new()
        };
        let description = if video {
            format!(
                "{DECODE} {PICTURES} ! queue name=vq ! videoconvert ! {} ! queue ! mp4mux name=mux faststart=true ! filesink name=sink{audio}",
                x264_quality(18)
            )
        } else {
            format!("{DECODE} mp4mux name=mux faststart=true ! filesink name=sink{audio}")
        };
        let running = launch(&description, Some(self.input), Some(&out))?;
        if !video {
            sound_only(&running.0, "d")?;
        }
        if let Some(comment) = self.comment.take() {
            set_comment(&running.0, &comment)?;
        }
        for (cutter, on) in [("vq", video), ("aq", with_audio)] {
            if on {
                let pad = element(&running.0, cutter)?.static_pad("src").ok_or_else(|| ToolError::Gst(format!("{cutter} without a src pad")))?;
                let kept = kept.to_vec();
                retime(&pad, 1.0, move |pts| joined(&kept, pts));
            }
        }
        let total = kept.iter().map(|r| r.end_ms - r.start_ms).sum();
        self.play(&running, total, share)?;
        let kind = if video { OutputKind::Video } else { OutputKind::Audio };
        let mut made = self.output(out, kind, name)?;
        made.ranges = kept.to_vec();
        Ok(made)
    }
}

/// The share of a run scene detection takes before the clips are written.
const DETECT_SHARE: f64 = 0.3;

/// What INTELLIGENT_TASK keeps of `scenes`, in time order: the scenes of at least `min_keep_ms`,
/// best [`Scene::score`] first (the earlier of two equal ones), while their total stays within
/// `target_ms`; the first scene that would pass it is kept in part, its start, if what is left of
/// the target is at least `min_keep_ms`, and the choice ends there.
pub fn pick(scenes: &[Scene], h: &Highlights) -> Vec<MsRange> {
    let mut ranked: Vec<&Scene> = scenes.iter().filter(|s| s.length_ms() >= h.min_keep_ms).collect();
    ranked.sort_by(|a, b| b.score().total_cmp(&a.score()).then(a.start_ms.cmp(&b.start_ms)));
    let mut kept = Vec::new();
    let mut total = 0;
    for s in ranked {
        let left = h.target_ms - total;
        if left < h.min_keep_ms {
            break;
        }
        let take = s.length_ms().min(left);
        kept.push(MsRange { start_ms: s.start_ms, end_ms: s.start_ms + take });
        total += take;
        if take < s.length_ms() {
            break;
        }
    }
    kept.sort_by_key(|r| r.start_ms);
    kept
}

/// Where a frame or sound buffer starting at `pts` lands once the kept ranges are joined, or
/// `None` when it is cut.
fn joined(kept: &[MsRange], pts: gst::ClockTime) -> Option<gst::ClockTime> {
    let mut before = gst::ClockTime::ZERO;
    for r in kept {
        let (start, end) = (gst::ClockTime::from_mseconds(r.start_ms), gst::ClockTime::from_mseconds(r.end_ms));
        if pts >= start && pts < end {
            return Some(before + (pts - start));
        }
        before += end - start;
    }
    None
}

/// Sets the `comment` tag the pipeline's `mux` writes.
fn set_comment(pipeline: &gst::Pipeline, comment: &str) -> Result<(), ToolError> {
    element(pipeline, "mux")?
        .dynamic_cast::<gst::TagSetter>()
        .map_err(|_| ToolError::Gst("the muxer sets no tags".to_owned()))?
        .add_tag::<gst::tags::Comment>(&comment, gst::TagMergeMode::Replace);
    Ok(())
}

/// The input's frame rate as caps write it (25 when it declares none).
fn frame_rate(facts: &Facts) -> String {
    match facts.video {
        Some((_, _, fps)) if fps > 0.0 => format!("{}/1000", (fps * 1000.0).round() as u64),
        _ => "25/1".to_owned(),
    }
}

/// A GIF's side, which its format keeps in 16 bits.
fn dim(n: u32) -> Result<u16, ToolError> {
    u16::try_from(n).map_err(|_| ToolError::Failed(format!("{n} pixels is too large for a GIF")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_scenes_are_kept_up_to_the_target_in_time_order() {
        let scene = |start_ms, end_ms, motion| Scene { start_ms, end_ms, motion, contrast: 10.0 };
        let scenes = [scene(0, 4000, 1.0), scene(4000, 4500, 50.0), scene(4500, 9000, 20.0), scene(9000, 15000, 5.0)];
        let h = |min_keep_ms, target_ms| Highlights { detect: SceneDetect { sensitivity: 60, min_scene_ms: 100 }, min_keep_ms, target_ms, clips: false, industry_id: 0 };
        let r = |start_ms, end_ms| MsRange { start_ms, end_ms };
        // The 0.5 s scene is too short; then 4.5–9 s (best), 9–15 s, and 0–4 s does not fit.
        assert_eq!(pick(&scenes, &h(1000, 11_000)), [r(4500, 9000), r(9000, 15_000)]);
        // What is left of the target takes the start of the next scene when it is long enough.
        assert_eq!(pick(&scenes, &h(1000, 8000)), [r(4500, 9000), r(9000, 12_500)]);
        assert_eq!(pick(&scenes, &h(4000, 5000)), [r(4500, 9000)]);
        assert!(pick(&scenes, &h(7000, 20_000)).is_empty());
    }

    #[test]
    fn cut_frames_join_up_and_the_rest_is_dropped() {
        let kept = [MsRange { start_ms: 1000, end_ms: 2000 }, MsRange { start_ms: 3000, end_ms: 3500 }];
        let at = |ms| joined(&kept, gst::ClockTime::from_mseconds(ms)).map(gst::ClockTime::mseconds);
        assert_eq!(at(999), None);
        assert_eq!(at(1000), Some(0));
        assert_eq!(at(1999), Some(999));
        assert_eq!(at(2000), None);
        assert_eq!(at(3000), Some(1000));
        assert_eq!(at(3500), None);
    }
}
