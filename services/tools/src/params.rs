//! Each tool's parameters, typed and validated once from the JSON the caller sent; every refusal
//! names its field (`params.speed`). What depends on the input (a range inside the clip, a target
//! smaller than the video) is checked against its probe by [`Params::check_input`].

use serde_json::{Map, Value};

use crate::ai_params::{AudioClean, Covers, Filter};
use crate::error::ParamError;
use crate::frame_params::KeyFrames;
use crate::kind::ToolType;
use crate::look_params::{Beautify, Slides, Upscale};
use crate::probe::Facts;

/// The sound format of an extracted track.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AudioFormat {
    /// MPEG-1 layer III, 192 kbit/s.
    Mp3,
    /// AAC-LC in an MP4 (`.m4a`), 192 kbit/s.
    Aac,
    /// 16-bit PCM.
    Wav,
}

impl AudioFormat {
    /// The wire name and file extension's source.
    pub fn name(self) -> &'static str {
        match self {
            Self::Mp3 => "mp3",
            Self::Aac => "aac",
            Self::Wav => "wav",
        }
    }
}

/// A compression's quality level (x264's constant quality).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quality {
    /// Near the source's look.
    High,
    /// Smaller, slight softening.
    Medium,
    /// Smallest.
    Low,
}

impl Quality {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Self::High => "high",
            Self::Medium => "medium",
            Self::Low => "low",
        }
    }

    /// x264's quantizer for the level.
    pub fn quantizer(self) -> u32 {
        match self {
            Self::High => 21,
            Self::Medium => 27,
            Self::Low => 33,
        }
    }
}

/// What a compression aims at: exactly one of a size or a quality.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compress {
    /// The output's size, bytes (two-pass average bitrate).
    TargetBytes(u64),
    /// A constant quality.
    Quality(Quality),
}

/// A video to GIF.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gif {
    /// Start of the range, milliseconds.
    pub start_ms: u64,
    /// End of the range (excluded), milliseconds.
    pub end_ms: u64,
    /// Frames per second, 1–30.
    pub fps: u32,
    /// Width, 64–1080 pixels; the height keeps the aspect.
    pub width: u32,
    /// Whether the GIF loops for ever.
    pub looped: bool,
}

/// Whether a cut's ranges are kept or removed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CutMode {
    /// The ranges are kept, joined in time order.
    Keep,
    /// The ranges are removed; what is left is joined.
    Remove,
}

/// A range of a clip, milliseconds, end excluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MsRange {
    /// Start.
    pub start_ms: u64,
    /// End (excluded).
    pub end_ms: u64,
}

/// A quick cut: ranges kept or removed, sorted and apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QuickCut {
    /// Keep or remove.
    pub mode: CutMode,
    /// The ranges, sorted, not overlapping.
    pub ranges: Vec<MsRange>,
}

impl QuickCut {
    /// The ranges kept of a clip of `duration_ms`, in time order.
    pub fn kept(&self, duration_ms: u64) -> Vec<MsRange> {
        match self.mode {
            CutMode::Keep => self.ranges.iter().map(|r| MsRange { start_ms: r.start_ms, end_ms: r.end_ms.min(duration_ms) }).collect(),
            CutMode::Remove => {
                let mut kept = Vec::new();
                let mut from = 0;
                for r in &self.ranges {
                    if r.start_ms > from {
                        kept.push(MsRange { start_ms: from, end_ms: r.start_ms });
                    }
                    from = r.end_ms;
                }
                if from < duration_ms {
                    kept.push(MsRange { start_ms: from, end_ms: duration_ms });
                }
                kept
            }
        }
    }
}

/// A crop rectangle in the source's pixels; every side even (4:2:0 pictures).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Crop {
    /// Left edge, pixels from the left.
    pub x: u32,
    /// Top edge, pixels from the top.
    pub y: u32,
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
}

/// What a VIDEO_REPLACE_AUDIO run does with the video's sound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SoundMode {
    /// The sound of a second material replaces the video's.
    Replace,
    /// The sound of a second material is mixed into the video's.
    Mix,
    /// The video's own sound turned up or down.
    Gain,
}

impl SoundMode {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Replace => "replace",
            Self::Mix => "mix",
            Self::Gain => "gain",
        }
    }
}

/// A video's sound replaced, mixed or gained.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ReplaceAudio {
    /// Replace, mix or gain.
    pub mode: SoundMode,
    /// Gain: the gain, dB. Mix: the added sound's level against the video's, both first brought
    /// to one loudness, dB. Replace: 0.
    pub gain_db: f64,
    /// The loudness the result is brought to, LUFS (replace and mix; `None` for a gain).
    pub loudness_lufs: Option<f64>,
}

/// What an audio-to-video run shows while the sound plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Visual {
    /// A still picture (the second material), fitted inside the frame.
    Picture,
    /// The sound's waveform, drawn as it plays.
    Waveform,
}

/// An audio plus a picture or a waveform, as a video.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PictureVideo {
    /// Picture or waveform.
    pub visual: Visual,
    /// The video's width, pixels (even).
    pub width: u32,
    /// The video's height, pixels (even).
    pub height: u32,
}

/// The frame a landscape video is turned into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aspect {
    /// Portrait 9:16.
    Portrait,
    /// Square 1:1.
    Square,
}

impl Aspect {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Portrait => "9:16",
            Self::Square => "1:1",
        }
    }

    /// The output's size for a source `height` pixels high: as wide as the source is high (so the
    /// fitted picture keeps its pixels across), the height by the aspect; both even.
    pub fn size(self, height: u32) -> (u32, u32) {
        let w = even(height);
        match self {
            Self::Portrait => (w, even((f64::from(w) * 16.0 / 9.0).round() as u32)),
            Self::Square => (w, w),
        }
    }
}

/// How change-screen fills a frame taller than the picture.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reframe {
    /// The whole picture across the frame's width, over a blurred, enlarged copy of itself.
    Blur,
    /// A full-height window of the frame's shape that pans to follow where the action is.
    Follow,
}

impl Reframe {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Blur => "blur",
            Self::Follow => "follow",
        }
    }
}

/// VIDEO_H_TO_V: the frame a landscape video is turned into, and how the picture goes into it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HToV {
    /// 9:16 or 1:1.
    pub aspect: Aspect,
    /// `blur` unless the caller names `follow`.
    pub mode: Reframe,
}

/// The nearest even number at or above 2.
pub(crate) fn even(n: u32) -> u32 {
    (n.saturating_add(1) / 2 * 2).max(2)
}

/// How scene changes are found (see `scene`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SceneDetect {
    /// 1–99: the cut threshold is `1 − sensitivity / 100` of the colour histograms' distance.
    pub sensitivity: u32,
    /// Shortest scene, milliseconds: a change sooner after the previous cut (or before the end) is no cut.
    pub min_scene_ms: u64,
}

/// Where a video is split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Split {
    /// At these times, milliseconds from its start, ascending; N times make N + 1 clips.
    Times(Vec<u64>),
    /// At each detected scene change: one clip per scene.
    Scenes(SceneDetect),
}

impl Split {
    /// The clips of a video of `duration_ms` split at `times_ms`, in order.
    pub fn pieces(times_ms: &[u64], duration_ms: u64) -> Vec<MsRange> {
        let mut from = 0;
        let mut out = Vec::with_capacity(times_ms.len() + 1);
        for &t in times_ms {
            out.push(MsRange { start_ms: from, end_ms: t });
            from = t;
        }
        out.push(MsRange { start_ms: from, end_ms: duration_ms.max(from) });
        out
    }
}

/// INTELLIGENT_TASK: the scenes worth keeping, joined into one video (or each its own clip: the
/// smart clips of `/aitask/smartClips`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Highlights {
    /// How scenes are found.
    pub detect: SceneDetect,
    /// Scenes shorter than this are dropped, milliseconds.
    pub min_keep_ms: u64,
    /// The kept scenes' total length at most, milliseconds.
    pub target_ms: u64,
    /// Each kept stretch as its own clip instead of one joined video.
    pub clips: bool,
    /// The industry category (of the tenant's, for AI templates) a smart task's clips are for; 0
    /// for none. Kept with the run for `/aitask/get`; the tool does not read it.
    pub industry_id: u64,
}

/// EXTRACT_PERSON_AUDIO: the voice of a stereo mix, and its accompaniment if asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Vocals {
    /// Whether the accompaniment (the mix less the voice) is written too.
    pub accompaniment: bool,
}

/// How a box of the picture is erased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Erase {
    /// A strong blur of the box, feathered into its edge.
    Blur,
    /// The box filled from the pixels around it, interpolated from its edges.
    Inpaint,
}

impl Erase {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Blur => "blur",
            Self::Inpaint => "inpaint",
        }
    }
}

/// VIDEO_REMOVE_WATERMARK: a box of the picture in source pixels, and how it is erased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Watermark {
    /// Left edge, pixels from the left.
    pub x: u32,
    /// Top edge, pixels from the top.
    pub y: u32,
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// Blur or inpaint.
    pub method: Erase,
}

/// Where the caption band of a VIDEO_REMOVE_SUBTITLE is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Band {
    /// Rows the user gave, across the whole width.
    Given {
        /// Top row.
        y: u32,
        /// Rows.
        height: u32,
    },
    /// Found in the video itself by the tool.
    Detect,
}

/// VIDEO_REMOVE_SUBTITLE: a caption band, and how it is erased.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Captions {
    /// Given or detected.
    pub band: Band,
    /// Blur or inpaint.
    pub method: Erase,
}

/// What one input material of a tool must be, in `materialIds` order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// A video (with a picture).
    Video,
    /// Anything with sound: an audio, or a video whose sound is used.
    Sound,
    /// A still picture.
    Picture,
    /// A presentation (pptx), read by LibreOffice.
    Presentation,
}

/// A tool's validated parameters.
#[derive(Debug, Clone, PartialEq)]
pub enum Params {
    /// EXTRACT_AUDIO.
    ExtractAudio(AudioFormat),
    /// VIDEO_TO_GIF.
    VideoToGif(Gif),
    /// VIDEO_COMPRESS.
    VideoCompress(Compress),
    /// VIDEO_SPEEDUP: the speed factor, 0.25–4.
    VideoSpeedup(f64),
    /// QUICK_CUT_VIDEO.
    QuickCutVideo(QuickCut),
    /// QUICK_CUT_AUDIO.
    QuickCutAudio(QuickCut),
    /// VIDEO_CROP.
    VideoCrop(Crop),
    /// VIDEO_REPLACE_AUDIO.
    VideoReplaceAudio(ReplaceAudio),
    /// PRE_PICTURE_VIDEO.
    PrePictureVideo(PictureVideo),
    /// VIDEO_H_TO_V.
    VideoHToV(HToV),
    /// VIDEO_SPLIT.
    VideoSplit(Split),
    /// INTELLIGENT_TASK.
    IntelligentTask(Highlights),
    /// EXTRACT_PERSON_AUDIO.
    ExtractPersonAudio(Vocals),
    /// VIDEO_REMOVE_WATERMARK.
    VideoRemoveWatermark(Watermark),
    /// VIDEO_REMOVE_SUBTITLE.
    VideoRemoveSubtitle(Captions),
    /// PPT_CONVERTER.
    PptConverter(Slides),
    /// VIDEO_BEAUTY.
    VideoBeauty(Beautify),
    /// INCREASE_RESOLUTION.
    IncreaseResolution(Upscale),
    /// VIDEO_KEY_FRAMES.
    VideoKeyFrames(KeyFrames),
    /// VIDEO_COVER.
    VideoCover(Covers),
    /// AUDIO_DENOISE, AUDIO_ECHO_CANCEL or AUDIO_GAIN_CONTROL (the filter says which).
    AudioClean(AudioClean),
    /// VIDEO_REVERSE: no parameters (the sound is reversed with the pictures).
    VideoReverse,
}

/// Fastest and slowest speed-up.
pub const SPEED_RANGE: (f64, f64) = (0.25, 4.0);
/// Longest GIF, milliseconds.
pub const MAX_GIF_MS: u64 = 30_000;
/// Most ranges of a cut.
pub const MAX_RANGES: usize = 100;
/// Smallest and largest side of a crop, pixels.
pub const CROP_SIDE: (u64, u64) = (16, 8192);
/// The gain of VIDEO_REPLACE_AUDIO's gain mode, dB.
pub const GAIN_DB: (f64, f64) = (-30.0, 20.0);
/// The added sound's level against the video's in a mix, dB.
pub const MIX_DB: (f64, f64) = (-30.0, 10.0);
/// The loudness a replaced or mixed sound may be brought to, LUFS.
pub const LOUDNESS_LUFS: (f64, f64) = (-30.0, -10.0);
/// The loudness a replaced or mixed sound is brought to unless asked otherwise, LUFS (the
/// streaming platforms' usual target).
pub const DEFAULT_LOUDNESS_LUFS: f64 = -16.0;
/// Smallest and largest side of an audio-to-video frame, pixels.
pub const PICTURE_VIDEO_SIDE: (u64, u64) = (160, 1920);
/// The audio-to-video frame unless asked otherwise.
pub const PICTURE_VIDEO_SIZE: (u32, u32) = (1280, 720);
/// Most split points of a VIDEO_SPLIT.
pub const MAX_SPLITS: usize = 99;
/// Shortest clip a split may make, milliseconds.
pub const MIN_PIECE_MS: u64 = 100;
/// Scene detection's sensitivity, and its default (a threshold of 0.4, ffmpeg's customary scene score).
pub const SENSITIVITY: (u64, u64, u32) = (1, 99, 60);
/// Shortest scene, milliseconds, and its default.
pub const MIN_SCENE_MS: (u64, u64, u64) = (100, 60_000, 1000);
/// The kept total of INTELLIGENT_TASK, milliseconds.
pub const TARGET_MS: (u64, u64) = (1000, 3_600_000);
/// Shortest scene INTELLIGENT_TASK keeps unless asked otherwise, milliseconds.
pub const MIN_KEEP_MS: u64 = 1500;

/// Largest side of an erased box or band, pixels.
pub const ERASE_SIDE: u64 = 8192;

/// The object's fields, refusing any the tool does not know.
struct Fields<'a> {
    map: &'a Map<String, Value>,
    prefix: String,
}

impl<'a> Fields<'a> {
    fn of(value: &'a Value, prefix: &str, known: &[&str]) -> Result<Self, ParamError> {
        let map = value.as_object().ok_or_else(|| ParamError::new(prefix, "must be an object"))?;
        if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(ParamError::new(format!("{prefix}.{k}"), format!("unknown parameter; expected one of {}", known.join(", "))));
        }
        Ok(Self { map, prefix: prefix.to_owned() })
    }

    fn path(&self, key: &str) -> String {
        format!("{}.{key}", self.prefix)
    }

    fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key).filter(|v| !v.is_null())
    }

    fn required(&self, key: &str) -> Result<&'a Value, ParamError> {
        self.get(key).ok_or_else(|| ParamError::new(self.path(key), "is required"))
    }

    fn uint(&self, key: &str) -> Result<u64, ParamError> {
        self.required(key)?.as_u64().ok_or_else(|| ParamError::new(self.path(key), "must be a whole number, 0 or more"))
    }

    fn uint_in(&self, key: &str, lo: u64, hi: u64) -> Result<u64, ParamError> {
        let n = self.uint(key)?;
        if !(lo..=hi).contains(&n) {
            return Err(ParamError::new(self.path(key), format!("must be between {lo} and {hi}")));
        }
        Ok(n)
    }

    fn number_in(&self, key: &str, (lo, hi): (f64, f64)) -> Result<f64, ParamError> {
        let n = self.required(key)?.as_f64().ok_or_else(|| ParamError::new(self.path(key), "must be a number"))?;
        if !(lo..=hi).contains(&n) {
            return Err(ParamError::new(self.path(key), format!("must be between {lo} and {hi}")));
        }
        Ok(n)
    }

    fn word(&self, key: &str, words: &[&str]) -> Result<&'a str, ParamError> {
        let w = self.required(key)?.as_str().unwrap_or_default();
        words.iter().find(|x| **x == w).copied().map(|_| w).ok_or_else(|| ParamError::new(self.path(key), format!("must be one of {}", words.join(", "))))
    }
}

fn ranges(f: &Fields<'_>) -> Result<Vec<MsRange>, ParamError> {
    let list = f.required("ranges")?.as_array().ok_or_else(|| ParamError::new(f.path("ranges"), "must be a list"))?;
    if list.is_empty() || list.len() > MAX_RANGES {
        return Err(ParamError::new(f.path("ranges"), format!("must have 1 to {MAX_RANGES} ranges")));
    }
    let mut out = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let r = Fields::of(v, &format!("{}[{i}]", f.path("ranges")), &["startMs", "endMs"])?;
        let (start_ms, end_ms) = (r.uint("startMs")?, r.uint("endMs")?);
        if end_ms <= start_ms {
            return Err(ParamError::new(r.path("endMs"), "must be after startMs"));
        }
        out.push((i, MsRange { start_ms, end_ms }));
    }
    out.sort_by_key(|(_, r)| r.start_ms);
    for pair in out.windows(2) {
        if pair[1].1.start_ms < pair[0].1.end_ms {
            return Err(ParamError::new(format!("{}[{}]", f.path("ranges"), pair[1].0), "overlaps another range"));
        }
    }
    Ok(out.into_iter().map(|(_, r)| r).collect())
}

fn quick_cut(value: &Value) -> Result<QuickCut, ParamError> {
    let f = Fields::of(value, "params", &["mode", "ranges"])?;
    let mode = if f.word("mode", &["keep", "remove"])? == "keep" { CutMode::Keep } else { CutMode::Remove };
    Ok(QuickCut { mode, ranges: ranges(&f)? })
}

fn replace_audio(value: &Value) -> Result<ReplaceAudio, ParamError> {
    let f = Fields::of(value, "params", &["mode", "gainDb", "loudnessLufs"])?;
    let mode = match f.word("mode", &["replace", "mix", "gain"])? {
        "replace" => SoundMode::Replace,
        "mix" => SoundMode::Mix,
        _ => SoundMode::Gain,
    };
    let gain_db = match mode {
        SoundMode::Replace if f.get("gainDb").is_some() => {
            return Err(ParamError::new("params.gainDb", "replace takes no gain: the new sound is brought to loudnessLufs"));
        }
        SoundMode::Replace => 0.0,
        SoundMode::Mix if f.get("gainDb").is_none() => 0.0,
        SoundMode::Mix => f.number_in("gainDb", MIX_DB)?,
        SoundMode::Gain => f.number_in("gainDb", GAIN_DB)?,
    };
    let loudness_lufs = match (mode, f.get("loudnessLufs")) {
        (SoundMode::Gain, Some(_)) => {
            return Err(ParamError::new("params.loudnessLufs", "a gain keeps the level it sets: leave loudnessLufs out"));
        }
        (SoundMode::Gain, None) => None,
        (_, None) => Some(DEFAULT_LOUDNESS_LUFS),
        (_, Some(_)) => Some(f.number_in("loudnessLufs", LOUDNESS_LUFS)?),
    };
    Ok(ReplaceAudio { mode, gain_db, loudness_lufs })
}

fn picture_video(value: &Value) -> Result<PictureVideo, ParamError> {
    let f = Fields::of(value, "params", &["visual", "width", "height"])?;
    let visual = if f.word("visual", &["picture", "waveform"])? == "picture" { Visual::Picture } else { Visual::Waveform };
    let side = |key: &str, default: u32| -> Result<u32, ParamError> {
        if f.get(key).is_none() {
            return Ok(default);
        }
        let n = f.uint_in(key, PICTURE_VIDEO_SIDE.0, PICTURE_VIDEO_SIDE.1)?;
        if n % 2 != 0 {
            return Err(ParamError::new(f.path(key), "must be even (pictures are 4:2:0)"));
        }
        Ok(u32::try_from(n).unwrap_or(default))
    };
    Ok(PictureVideo { visual, width: side("width", PICTURE_VIDEO_SIZE.0)?, height: side("height", PICTURE_VIDEO_SIZE.1)? })
}

fn split(value: &Value) -> Result<Split, ParamError> {
    let f = Fields::of(value, "params", &["mode", "times", "sensitivity", "minSceneMs"])?;
    if f.get("mode").is_some() && f.word("mode", &["times", "scenes"])? == "scenes" {
        if f.get("times").is_some() {
            return Err(ParamError::new("params.times", "a split by scenes takes no times: they are found"));
        }
        return Ok(Split::Scenes(scene_detect(&f)?));
    }
    if let Some(k) = ["sensitivity", "minSceneMs"].into_iter().find(|k| f.get(k).is_some()) {
        return Err(ParamError::new(f.path(k), "only a split by scenes (mode \"scenes\") takes it"));
    }
    let list = f.required("times")?.as_array().ok_or_else(|| ParamError::new("params.times", "must be a list of times in ms"))?;
    if list.is_empty() || list.len() > MAX_SPLITS {
        return Err(ParamError::new("params.times", format!("must have 1 to {MAX_SPLITS} split points")));
    }
    let mut times_ms: Vec<u64> = Vec::with_capacity(list.len());
    for (i, v) in list.iter().enumerate() {
        let field = format!("params.times[{i}]");
        let t = v.as_u64().ok_or_else(|| ParamError::new(&field, "must be a whole number of ms, 0 or more"))?;
        let from = times_ms.last().copied().unwrap_or(0);
        if t < from + MIN_PIECE_MS {
            return Err(ParamError::new(field, format!("must be at least {MIN_PIECE_MS} ms after the previous split point (or the start)")));
        }
        times_ms.push(t);
    }
    Ok(Split::Times(times_ms))
}

/// The scene detection's `sensitivity` and `minSceneMs`, each optional.
fn scene_detect(f: &Fields<'_>) -> Result<SceneDetect, ParamError> {
    let sensitivity = match f.get("sensitivity") {
        None => SENSITIVITY.2,
        Some(_) => u32::try_from(f.uint_in("sensitivity", SENSITIVITY.0, SENSITIVITY.1)?).unwrap_or(SENSITIVITY.2),
    };
    let min_scene_ms = if f.get("minSceneMs").is_none() { MIN_SCENE_MS.2 } else { f.uint_in("minSceneMs", MIN_SCENE_MS.0, MIN_SCENE_MS.1)? };
    Ok(SceneDetect { sensitivity, min_scene_ms })
}

/// The scene detection's fields of `params`, where the caller has refused the keys its tool does not know.
pub(crate) fn scene_detect_of(value: &Value) -> Result<SceneDetect, ParamError> {
    scene_detect(&Fields::of(value, "params", &["mode", "sensitivity", "minSceneMs"])?)
}

fn highlights(value: &Value) -> Result<Highlights, ParamError> {
    let f = Fields::of(value, "params", &["sensitivity", "minSceneMs", "minKeepMs", "targetMs", "clips", "industryId"])?;
    let detect = scene_detect(&f)?;
    let clips = match f.get("clips") {
        None => false,
        Some(v) => v.as_bool().ok_or_else(|| ParamError::new("params.clips", "must be true or false"))?,
    };
    let industry_id = if f.get("industryId").is_none() { 0 } else { f.uint("industryId")? };
    let min_keep_ms = if f.get("minKeepMs").is_none() { MIN_KEEP_MS } else { f.uint_in("minKeepMs", MIN_SCENE_MS.0, MIN_SCENE_MS.1)? };
    let target_ms = f.uint_in("targetMs", TARGET_MS.0, TARGET_MS.1)?;
    if min_keep_ms > target_ms {
        return Err(ParamError::new("params.minKeepMs", "must not be longer than targetMs"));
    }
    Ok(Highlights { detect, min_keep_ms, target_ms, clips, industry_id })
}

fn erase(f: &Fields<'_>) -> Result<Erase, ParamError> {
    Ok(if f.word("method", &["blur", "inpaint"])? == "blur" { Erase::Blur } else { Erase::Inpaint })
}

fn watermark(value: &Value) -> Result<Watermark, ParamError> {
    let f = Fields::of(value, "params", &["x", "y", "width", "height", "method"])?;
    let n = |key: &str, lo: u64| -> Result<u32, ParamError> { Ok(u32::try_from(f.uint_in(key, lo, ERASE_SIDE)?).unwrap_or(u32::MAX)) };
    Ok(Watermark { x: n("x", 0)?, y: n("y", 0)?, width: n("width", 1)?, height: n("height", 1)?, method: erase(&f)? })
}

fn captions(value: &Value) -> Result<Captions, ParamError> {
    let f = Fields::of(value, "params", &["mode", "y", "height", "method"])?;
    let band = if f.word("mode", &["band", "detect"])? == "band" {
        let y = u32::try_from(f.uint_in("y", 0, ERASE_SIDE)?).unwrap_or(u32::MAX);
        Band::Given { y, height: u32::try_from(f.uint_in("height", 1, ERASE_SIDE)?).unwrap_or(u32::MAX) }
    } else {
        if let Some(key) = ["y", "height"].into_iter().find(|k| f.get(k).is_some()) {
            return Err(ParamError::new(f.path(key), "detect finds the band in the video: leave y and height out"));
        }
        Band::Detect
    };
    Ok(Captions { band, method: erase(&f)? })
}

/// Refuses a box that leaves the `w`×`h` picture, naming the value past it, or (for an inpaint)
/// covers the whole picture, leaving no pixel around it to fill it from.
fn check_box(x: u32, y: u32, width: u32, height: u32, method: Erase, (w, h): (u32, u32), band: bool) -> Result<(), ParamError> {
    if x >= w {
        return Err(ParamError::new("params.x", format!("{x} is past the picture's width ({w})")));
    }
    if y >= h {
        return Err(ParamError::new("params.y", format!("{y} is past the picture's height ({h})")));
    }
    if x.saturating_add(width) > w {
        return Err(ParamError::new("params.width", format!("x + width ({}) is past the picture's width ({w})", x.saturating_add(width))));
    }
    if y.saturating_add(height) > h {
        return Err(ParamError::new("params.height", format!("y + height ({}) is past the picture's height ({h})", y.saturating_add(height))));
    }
    if method == Erase::Inpaint && width == w && height == h {
        let field = if band { "params.height" } else { "params.width" };
        return Err(ParamError::new(field, "the box covers the whole picture: an inpaint needs pixels around it to fill it from"));
    }
    Ok(())
}

impl Params {
    /// Validates the parameters of a run of `tool`; a type that does not run is refused as `type`.
    pub fn parse(tool: ToolType, value: &Value) -> Result<Self, ParamError> {
        match tool {
            ToolType::ExtractAudio => {
                let f = Fields::of(value, "params", &["format"])?;
                Ok(Self::ExtractAudio(match f.word("format", &["mp3", "aac", "wav"])? {
                    "mp3" => AudioFormat::Mp3,
                    "aac" => AudioFormat::Aac,
                    _ => AudioFormat::Wav,
                }))
            }
            ToolType::VideoToGif => {
                let f = Fields::of(value, "params", &["startMs", "endMs", "fps", "width", "loop"])?;
                let (start_ms, end_ms) = (f.uint("startMs")?, f.uint("endMs")?);
                if end_ms <= start_ms {
                    return Err(ParamError::new("params.endMs", "must be after startMs"));
                }
                if end_ms - start_ms > MAX_GIF_MS {
                    return Err(ParamError::new("params.endMs", format!("a GIF lasts at most {} s", MAX_GIF_MS / 1000)));
                }
                let looped = match f.get("loop") {
                    None => true,
                    Some(v) => v.as_bool().ok_or_else(|| ParamError::new("params.loop", "must be true or false"))?,
                };
                let fps = u32::try_from(f.uint_in("fps", 1, 30)?).unwrap_or(30);
                let width = u32::try_from(f.uint_in("width", 64, 1080)?).unwrap_or(1080);
                Ok(Self::VideoToGif(Gif { start_ms, end_ms, fps, width, looped }))
            }
            ToolType::VideoCompress => {
                let f = Fields::of(value, "params", &["targetBytes", "quality"])?;
                match (f.get("targetBytes"), f.get("quality")) {
                    (Some(_), None) => {
                        let n = f.uint("targetBytes")?;
                        if n < 10_000 {
                            return Err(ParamError::new("params.targetBytes", "must be at least 10000 bytes"));
                        }
                        Ok(Self::VideoCompress(Compress::TargetBytes(n)))
                    }
                    (None, Some(_)) => Ok(Self::VideoCompress(Compress::Quality(match f.word("quality", &["high", "medium", "low"])? {
                        "high" => Quality::High,
                        "medium" => Quality::Medium,
                        _ => Quality::Low,
                    }))),
                    _ => Err(ParamError::new("params.targetBytes", "give exactly one of targetBytes and quality")),
                }
            }
            ToolType::VideoSpeedup => {
                let f = Fields::of(value, "params", &["speed"])?;
                let speed = f.required("speed")?.as_f64().ok_or_else(|| ParamError::new("params.speed", "must be a number"))?;
                if !(SPEED_RANGE.0..=SPEED_RANGE.1).contains(&speed) {
                    return Err(ParamError::new("params.speed", format!("must be between {} and {}", SPEED_RANGE.0, SPEED_RANGE.1)));
                }
                Ok(Self::VideoSpeedup(speed))
            }
            ToolType::QuickCutVideo => Ok(Self::QuickCutVideo(quick_cut(value)?)),
            ToolType::QuickCutAudio => Ok(Self::QuickCutAudio(quick_cut(value)?)),
            ToolType::VideoCrop => {
                let f = Fields::of(value, "params", &["x", "y", "width", "height"])?;
                let side = |key: &str, lo: u64| -> Result<u32, ParamError> {
                    let n = f.uint_in(key, lo, CROP_SIDE.1)?;
                    if n % 2 != 0 {
                        return Err(ParamError::new(f.path(key), "must be even (pictures are 4:2:0)"));
                    }
                    Ok(u32::try_from(n).unwrap_or(u32::MAX))
                };
                let (x, y) = (side("x", 0)?, side("y", 0)?);
                let (width, height) = (side("width", CROP_SIDE.0)?, side("height", CROP_SIDE.0)?);
                Ok(Self::VideoCrop(Crop { x, y, width, height }))
            }
            ToolType::VideoReplaceAudio => Ok(Self::VideoReplaceAudio(replace_audio(value)?)),
            ToolType::PrePictureVideo => Ok(Self::PrePictureVideo(picture_video(value)?)),
            ToolType::VideoHToV => {
                let f = Fields::of(value, "params", &["aspect", "mode"])?;
                let aspect = if f.word("aspect", &["9:16", "1:1"])? == "9:16" { Aspect::Portrait } else { Aspect::Square };
                let follow = f.get("mode").is_some() && f.word("mode", &["blur", "follow"])? == "follow";
                Ok(Self::VideoHToV(HToV { aspect, mode: if follow { Reframe::Follow } else { Reframe::Blur } }))
            }
            ToolType::VideoSplit => Ok(Self::VideoSplit(split(value)?)),
            ToolType::IntelligentTask => Ok(Self::IntelligentTask(highlights(value)?)),
            ToolType::ExtractPersonAudio => {
                let f = Fields::of(value, "params", &["accompaniment"])?;
                let accompaniment = match f.get("accompaniment") {
                    None => true,
                    Some(v) => v.as_bool().ok_or_else(|| ParamError::new("params.accompaniment", "must be true or false"))?,
                };
                Ok(Self::ExtractPersonAudio(Vocals { accompaniment }))
            }
            ToolType::VideoRemoveWatermark => Ok(Self::VideoRemoveWatermark(watermark(value)?)),
            ToolType::VideoRemoveSubtitle => Ok(Self::VideoRemoveSubtitle(captions(value)?)),
            ToolType::PptConverter => Ok(Self::PptConverter(Slides::parse(value)?)),
            ToolType::VideoBeauty => Ok(Self::VideoBeauty(Beautify::parse(value)?)),
            ToolType::IncreaseResolution => Ok(Self::IncreaseResolution(Upscale::parse(value)?)),
            ToolType::VideoKeyFrames => Ok(Self::VideoKeyFrames(KeyFrames::parse(value)?)),
            ToolType::VideoCover => Ok(Self::VideoCover(Covers::parse(value)?)),
            ToolType::AudioDenoise => Ok(Self::AudioClean(AudioClean::denoise(value)?)),
            ToolType::AudioEchoCancel => Ok(Self::AudioClean(AudioClean::echo_cancel(value)?)),
            ToolType::AudioGainControl => Ok(Self::AudioClean(AudioClean::gain(value)?)),
            ToolType::VideoReverse => {
                let map = value.as_object().ok_or_else(|| ParamError::new("params", "must be an object"))?;
                match map.keys().next() {
                    Some(k) => Err(ParamError::new(format!("params.{k}"), "unknown parameter: a reverse takes none")),
                    None => Ok(Self::VideoReverse),
                }
            }
            other => Err(ParamError::new("type", format!("{} does not run as a tool yet", other.name()))),
        }
    }

    /// The type the parameters are of.
    pub fn tool(&self) -> ToolType {
        match self {
            Self::ExtractAudio(_) => ToolType::ExtractAudio,
            Self::VideoToGif(_) => ToolType::VideoToGif,
            Self::VideoCompress(_) => ToolType::VideoCompress,
            Self::VideoSpeedup(_) => ToolType::VideoSpeedup,
            Self::QuickCutVideo(_) => ToolType::QuickCutVideo,
            Self::QuickCutAudio(_) => ToolType::QuickCutAudio,
            Self::VideoCrop(_) => ToolType::VideoCrop,
            Self::VideoReplaceAudio(_) => ToolType::VideoReplaceAudio,
            Self::PrePictureVideo(_) => ToolType::PrePictureVideo,
            Self::VideoHToV(_) => ToolType::VideoHToV,
            Self::VideoSplit(_) => ToolType::VideoSplit,
            Self::IntelligentTask(_) => ToolType::IntelligentTask,
            Self::ExtractPersonAudio(_) => ToolType::ExtractPersonAudio,
            Self::VideoRemoveWatermark(_) => ToolType::VideoRemoveWatermark,
            Self::VideoRemoveSubtitle(_) => ToolType::VideoRemoveSubtitle,
            Self::PptConverter(_) => ToolType::PptConverter,
            Self::VideoBeauty(_) => ToolType::VideoBeauty,
            Self::IncreaseResolution(_) => ToolType::IncreaseResolution,
            Self::VideoKeyFrames(_) => ToolType::VideoKeyFrames,
            Self::VideoCover(_) => ToolType::VideoCover,
            Self::VideoReverse => ToolType::VideoReverse,
            Self::AudioClean(c) => match c.filter {
                Filter::Denoise { .. } => ToolType::AudioDenoise,
                Filter::EchoCancel { .. } => ToolType::AudioEchoCancel,
                Filter::Gain { .. } => ToolType::AudioGainControl,
            },
        }
    }

    /// What each input material must be, in `materialIds` order: replace and mix take the video
    /// then the sound; audio-to-video takes the sound then, for a picture visual, the picture;
    /// every other tool takes one.
    pub fn inputs(&self) -> Vec<Input> {
        match self {
            Self::ExtractAudio(_) | Self::QuickCutAudio(_) | Self::ExtractPersonAudio(_) => vec![Input::Sound],
            Self::VideoReplaceAudio(r) if r.mode == SoundMode::Gain => vec![Input::Video],
            Self::VideoReplaceAudio(_) => vec![Input::Video, Input::Sound],
            Self::PrePictureVideo(p) if p.visual == Visual::Picture => vec![Input::Sound, Input::Picture],
            Self::PrePictureVideo(_) => vec![Input::Sound],
            Self::PptConverter(_) => vec![Input::Presentation],
            // The recording, then the far end: what its loudspeaker played.
            Self::AudioClean(AudioClean { filter: Filter::EchoCancel { .. }, .. }) => vec![Input::Sound, Input::Sound],
            Self::AudioClean(_) => vec![Input::Sound],
            _ => vec![Input::Video],
        }
    }

    /// The field that names input `index` in a refusal: `materialIds` for a tool of one input,
    /// `materialIds[1]` for the second of two.
    pub fn input_field(&self, index: usize) -> String {
        if self.inputs().len() == 1 { "materialIds".to_owned() } else { format!("materialIds[{index}]") }
    }

    /// The parameters as the contract writes them (what is stored with the run and shown back).
    pub fn to_json(&self) -> Value {
        let cut = |c: &QuickCut| {
            serde_json::json!({
                "mode": if c.mode == CutMode::Keep { "keep" } else { "remove" },
                "ranges": c.ranges.iter().map(|r| serde_json::json!({"startMs": r.start_ms, "endMs": r.end_ms})).collect::<Vec<_>>(),
            })
        };
        match self {
            Self::ExtractAudio(f) => serde_json::json!({"format": f.name()}),
            Self::VideoToGif(g) => {
                serde_json::json!({"startMs": g.start_ms, "endMs": g.end_ms, "fps": g.fps, "width": g.width, "loop": g.looped})
            }
            Self::VideoCompress(Compress::TargetBytes(n)) => serde_json::json!({"targetBytes": n}),
            Self::VideoCompress(Compress::Quality(q)) => serde_json::json!({"quality": q.name()}),
            Self::VideoSpeedup(s) => serde_json::json!({"speed": s}),
            Self::QuickCutVideo(c) | Self::QuickCutAudio(c) => cut(c),
            Self::VideoCrop(c) => serde_json::json!({"x": c.x, "y": c.y, "width": c.width, "height": c.height}),
            Self::VideoReplaceAudio(r) => {
                let mut v = serde_json::json!({"mode": r.mode.name()});
                if r.mode != SoundMode::Replace {
                    v["gainDb"] = serde_json::json!(r.gain_db);
                }
                if let Some(l) = r.loudness_lufs {
                    v["loudnessLufs"] = serde_json::json!(l);
                }
                v
            }
            Self::PrePictureVideo(p) => serde_json::json!({
                "visual": if p.visual == Visual::Picture { "picture" } else { "waveform" },
                "width": p.width,
                "height": p.height,
            }),
            Self::VideoHToV(h) => {
                let mut v = serde_json::json!({"aspect": h.aspect.name()});
                if h.mode != Reframe::Blur {
                    v["mode"] = serde_json::json!(h.mode.name());
                }
                v
            }
            Self::VideoSplit(Split::Times(times)) => serde_json::json!({"times": times}),
            Self::VideoSplit(Split::Scenes(d)) => {
                serde_json::json!({"mode": "scenes", "sensitivity": d.sensitivity, "minSceneMs": d.min_scene_ms})
            }
            Self::IntelligentTask(h) => {
                let mut v = serde_json::json!({
                    "sensitivity": h.detect.sensitivity,
                    "minSceneMs": h.detect.min_scene_ms,
                    "minKeepMs": h.min_keep_ms,
                    "targetMs": h.target_ms,
                });
                if h.clips {
                    v["clips"] = Value::Bool(true);
                }
                if h.industry_id > 0 {
                    v["industryId"] = serde_json::json!(h.industry_id);
                }
                v
            }
            Self::ExtractPersonAudio(v) => serde_json::json!({"accompaniment": v.accompaniment}),
            Self::VideoRemoveWatermark(m) => {
                serde_json::json!({"x": m.x, "y": m.y, "width": m.width, "height": m.height, "method": m.method.name()})
            }
            Self::VideoRemoveSubtitle(c) => match c.band {
                Band::Given { y, height } => serde_json::json!({"mode": "band", "y": y, "height": height, "method": c.method.name()}),
                Band::Detect => serde_json::json!({"mode": "detect", "method": c.method.name()}),
            },
            Self::PptConverter(p) => p.to_json(),
            Self::VideoBeauty(b) => b.to_json(),
            Self::IncreaseResolution(u) => u.to_json(),
            Self::VideoKeyFrames(k) => k.to_json(),
            Self::VideoCover(c) => c.to_json(),
            Self::AudioClean(c) => c.to_json(),
            Self::VideoReverse => serde_json::json!({}),
        }
    }

    /// Checks the parameters against the probed main input (the first material): the streams the
    /// tool needs, ranges inside the clip, a reachable target size.
    pub fn check_input(&self, input: &Facts) -> Result<(), ParamError> {
        self.check_input_at(0, input)
    }

    /// Checks the parameters against the probed input `index` (in `materialIds` order): the
    /// streams its role needs, and for the main input ranges inside the clip, a reachable target
    /// size. A picture's facts are not the probe's (it reads media): the tool checks it.
    pub fn check_input_at(&self, index: usize, input: &Facts) -> Result<(), ParamError> {
        let field = self.input_field(index);
        match self.inputs().get(index) {
            Some(Input::Video) if input.video.is_none() => {
                return Err(ParamError::new(field, "the material has no picture: choose a video"));
            }
            Some(Input::Sound) if !input.audio => return Err(ParamError::new(field, "the material has no sound")),
            None => return Err(ParamError::new(field, format!("{} takes {} material(s)", self.tool().name(), self.inputs().len()))),
            _ => {}
        }
        if let Self::VideoReplaceAudio(r) = self
            && r.mode != SoundMode::Replace
            && index == 0
            && !input.audio
        {
            return Err(ParamError::new(field, format!("the video has no sound to {}: replace it instead", r.mode.name())));
        }
        if index > 0 {
            return Ok(());
        }
        let past_end = |field: &str, ms: u64| {
            (ms > input.duration_ms)
                .then(|| ParamError::new(field, format!("{ms} ms is past the end of the clip ({} ms)", input.duration_ms)))
        };
        match self {
            Self::VideoToGif(g) => past_end("params.startMs", g.start_ms + 1).map_or(Ok(()), Err),
            Self::QuickCutVideo(c) | Self::QuickCutAudio(c) => {
                for (i, r) in c.ranges.iter().enumerate() {
                    if let Some(e) = past_end(&format!("params.ranges[{i}].startMs"), r.start_ms + 1) {
                        return Err(e);
                    }
                }
                if c.kept(input.duration_ms).iter().map(|r| r.end_ms - r.start_ms).sum::<u64>() == 0 {
                    return Err(ParamError::new("params.ranges", "nothing of the clip would be left"));
                }
                Ok(())
            }
            Self::VideoCrop(c) => {
                let (w, h, _) = input.video.unwrap_or_default();
                if c.x.saturating_add(c.width) > w {
                    return Err(ParamError::new("params.width", format!("x + width ({}) is past the picture's width ({w})", c.x.saturating_add(c.width))));
                }
                if c.y.saturating_add(c.height) > h {
                    return Err(ParamError::new("params.height", format!("y + height ({}) is past the picture's height ({h})", c.y.saturating_add(c.height))));
                }
                Ok(())
            }
            Self::VideoRemoveWatermark(m) => {
                let (w, h, _) = input.video.unwrap_or_default();
                check_box(m.x, m.y, m.width, m.height, m.method, (w, h), false)
            }
            Self::VideoRemoveSubtitle(Captions { band: Band::Given { y, height }, method }) => {
                let (w, h, _) = input.video.unwrap_or_default();
                check_box(0, *y, w, *height, *method, (w, h), true)
            }
            Self::IncreaseResolution(u) => {
                let (w, h, _) = input.video.unwrap_or_default();
                u.size(w, h).map(|_| ())
            }
            Self::VideoHToV(_) => {
                let (w, h, _) = input.video.unwrap_or_default();
                if w <= h {
                    return Err(ParamError::new(field, format!("the video is not landscape ({w}×{h}): choose one wider than it is high")));
                }
                Ok(())
            }
            Self::VideoSplit(Split::Times(times)) => match times.iter().enumerate().next_back() {
                Some((last, &t)) if t + MIN_PIECE_MS > input.duration_ms => Err(ParamError::new(
                    format!("params.times[{last}]"),
                    format!("{t} ms leaves less than {MIN_PIECE_MS} ms before the end of the clip ({} ms)", input.duration_ms),
                )),
                _ => Ok(()),
            },
            Self::VideoSplit(Split::Scenes(d)) if d.min_scene_ms * 2 > input.duration_ms => Err(ParamError::new(
                "params.minSceneMs",
                format!("the clip ({} ms) is too short for two scenes of at least {} ms", input.duration_ms, d.min_scene_ms),
            )),
            Self::VideoKeyFrames(k) => k.check_input(input),
            Self::IntelligentTask(h) if h.min_keep_ms > input.duration_ms => Err(ParamError::new(
                "params.minKeepMs",
                format!("{} ms is longer than the clip ({} ms): no scene could be kept", h.min_keep_ms, input.duration_ms),
            )),
            Self::VideoCompress(Compress::TargetBytes(n)) if *n >= input.bytes => {
                Err(ParamError::new("params.targetBytes", format!("must be smaller than the video ({} bytes)", input.bytes)))
            }
            Self::VideoCompress(Compress::TargetBytes(n)) if video_kbps(*n, input) < MIN_VIDEO_KBPS => Err(ParamError::new(
                "params.targetBytes",
                format!("too small for {} s of video (at least {} bytes)", input.duration_ms / 1000, min_target(input)),
            )),
            _ => Ok(()),
        }
    }
}

/// Lowest video bitrate a target may leave, kbit/s.
const MIN_VIDEO_KBPS: u64 = 50;
/// The share of a target size left to the streams once the container has its own.
const CONTAINER_SHARE: f64 = 0.995;
/// The sound's bitrate in a size-targeted compression, bit/s.
pub(crate) const COMPRESS_AUDIO_BPS: u64 = 64_000;

/// The video bitrate, kbit/s, that fills `target` bytes over the input's length, less its sound
/// and 0.5 % for the container (x264's second pass lands a little under its bitrate, which covers
/// the rest).
pub(crate) fn video_kbps(target: u64, input: &Facts) -> u64 {
    let seconds = (input.duration_ms.max(1) as f64) / 1000.0;
    let audio = if input.audio { COMPRESS_AUDIO_BPS as f64 } else { 0.0 };
    let bps = (target as f64 * 8.0 / seconds - audio) * CONTAINER_SHARE;
    if bps <= 0.0 { 0 } else { (bps / 1000.0) as u64 }
}

fn min_target(input: &Facts) -> u64 {
    let seconds = (input.duration_ms.max(1) as f64) / 1000.0;
    let audio = if input.audio { COMPRESS_AUDIO_BPS as f64 } else { 0.0 };
    ((MIN_VIDEO_KBPS as f64 * 1000.0 / CONTAINER_SHARE + audio) * seconds / 8.0).ceil() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field(tool: ToolType, v: Value) -> String {
        Params::parse(tool, &v).err().map(|e| e.field).unwrap_or_default()
    }

    #[test]
    fn each_refusal_names_its_field() {
        assert_eq!(field(ToolType::VideoSpeedup, json!({"speed": 0})), "params.speed");
        assert_eq!(field(ToolType::VideoSpeedup, json!({"speed": 4.5})), "params.speed");
        assert_eq!(field(ToolType::VideoSpeedup, json!({})), "params.speed");
        assert_eq!(field(ToolType::VideoSpeedup, json!({"speed": 2, "pitch": 1})), "params.pitch");
        assert_eq!(field(ToolType::ExtractAudio, json!({"format": "ogg"})), "params.format");
        assert_eq!(field(ToolType::VideoToGif, json!({"startMs": 0, "endMs": 1000, "fps": 31, "width": 320})), "params.fps");
        assert_eq!(field(ToolType::VideoToGif, json!({"startMs": 0, "endMs": 1000, "fps": 10, "width": 32})), "params.width");
        assert_eq!(field(ToolType::VideoToGif, json!({"startMs": 900, "endMs": 100, "fps": 10, "width": 320})), "params.endMs");
        assert_eq!(field(ToolType::VideoCompress, json!({"targetBytes": 100000, "quality": "high"})), "params.targetBytes");
        assert_eq!(field(ToolType::VideoCompress, json!({"quality": "best"})), "params.quality");
        let overlap = json!({"mode": "keep", "ranges": [{"startMs": 0, "endMs": 500}, {"startMs": 400, "endMs": 900}]});
        assert_eq!(field(ToolType::QuickCutVideo, overlap), "params.ranges[1]");
        let backwards = json!({"mode": "keep", "ranges": [{"startMs": 0, "endMs": 500}, {"startMs": 900, "endMs": 600}]});
        assert_eq!(field(ToolType::QuickCutAudio, backwards), "params.ranges[1].endMs");
        assert_eq!(field(ToolType::VideoCrop, json!({"x": 1, "y": 0, "width": 64, "height": 64})), "params.x");
        assert_eq!(field(ToolType::VideoCrop, json!({"x": 0, "y": 0, "width": 8, "height": 64})), "params.width");
        assert_eq!(field(ToolType::VideoCrop, json!({"x": 0, "y": 0, "width": 64, "height": 63})), "params.height");
        assert_eq!(field(ToolType::ExtractPortrait, json!({})), "type");
        assert_eq!(field(ToolType::VideoReplaceAudio, json!({"mode": "swap"})), "params.mode");
        assert_eq!(field(ToolType::VideoReplaceAudio, json!({"mode": "replace", "gainDb": 3})), "params.gainDb");
        assert_eq!(field(ToolType::VideoReplaceAudio, json!({"mode": "gain"})), "params.gainDb");
        assert_eq!(field(ToolType::VideoReplaceAudio, json!({"mode": "gain", "gainDb": 21})), "params.gainDb");
        assert_eq!(field(ToolType::VideoReplaceAudio, json!({"mode": "gain", "gainDb": 3, "loudnessLufs": -16})), "params.loudnessLufs");
        assert_eq!(field(ToolType::VideoReplaceAudio, json!({"mode": "mix", "gainDb": 11})), "params.gainDb");
        assert_eq!(field(ToolType::VideoReplaceAudio, json!({"mode": "mix", "loudnessLufs": -5})), "params.loudnessLufs");
        assert_eq!(field(ToolType::PrePictureVideo, json!({"visual": "slides"})), "params.visual");
        assert_eq!(field(ToolType::PrePictureVideo, json!({"visual": "waveform", "width": 641})), "params.width");
        assert_eq!(field(ToolType::PrePictureVideo, json!({"visual": "waveform", "height": 2000})), "params.height");
        assert_eq!(field(ToolType::VideoHToV, json!({"aspect": "4:3"})), "params.aspect");
        assert_eq!(field(ToolType::VideoHToV, json!({"aspect": "9:16", "mode": "track"})), "params.mode");
        assert_eq!(field(ToolType::VideoHToV, json!({"aspect": "9:16", "mode": 1})), "params.mode");
        assert_eq!(field(ToolType::VideoHToV, json!({"mode": "follow"})), "params.aspect");
        assert_eq!(field(ToolType::VideoSplit, json!({})), "params.times");
        assert_eq!(field(ToolType::VideoSplit, json!({"times": []})), "params.times");
        assert_eq!(field(ToolType::VideoSplit, json!({"times": [1000, 1050]})), "params.times[1]");
        assert_eq!(field(ToolType::VideoSplit, json!({"times": [2000, 1000]})), "params.times[1]");
        assert_eq!(field(ToolType::VideoSplit, json!({"times": [50]})), "params.times[0]");
        assert_eq!(field(ToolType::VideoSplit, json!({"mode": "shots"})), "params.mode");
        assert_eq!(field(ToolType::VideoSplit, json!({"mode": "scenes", "sensitivity": 0})), "params.sensitivity");
        assert_eq!(field(ToolType::VideoSplit, json!({"mode": "scenes", "minSceneMs": 50})), "params.minSceneMs");
        assert_eq!(field(ToolType::VideoSplit, json!({"mode": "scenes", "times": [1000]})), "params.times");
        assert_eq!(field(ToolType::VideoSplit, json!({"times": [1000], "sensitivity": 50})), "params.sensitivity");
        assert_eq!(field(ToolType::IntelligentTask, json!({})), "params.targetMs");
        assert_eq!(field(ToolType::IntelligentTask, json!({"targetMs": 500})), "params.targetMs");
        assert_eq!(field(ToolType::IntelligentTask, json!({"targetMs": 5000, "minKeepMs": 6000})), "params.minKeepMs");
        assert_eq!(field(ToolType::IntelligentTask, json!({"targetMs": 5000, "sensitivity": 100})), "params.sensitivity");
        assert_eq!(field(ToolType::IntelligentTask, json!({"targetMs": 5000, "clips": "yes"})), "params.clips");
        assert_eq!(field(ToolType::IntelligentTask, json!({"targetMs": 5000, "industryId": -1})), "params.industryId");
        assert_eq!(field(ToolType::ExtractPersonAudio, json!({"accompaniment": "yes"})), "params.accompaniment");
        let mark = |v: Value| field(ToolType::VideoRemoveWatermark, v);
        assert_eq!(mark(json!({"x": 0, "y": 0, "width": 0, "height": 10, "method": "blur"})), "params.width");
        assert_eq!(mark(json!({"x": -1, "y": 0, "width": 10, "height": 10, "method": "blur"})), "params.x");
        assert_eq!(mark(json!({"x": 0, "y": 0, "width": 10, "height": 10, "method": "smudge"})), "params.method");
        assert_eq!(mark(json!({"x": 0, "y": 0, "width": 10, "height": 10})), "params.method");
        let band = |v: Value| field(ToolType::VideoRemoveSubtitle, v);
        assert_eq!(band(json!({"mode": "band", "y": 100, "method": "inpaint"})), "params.height");
        assert_eq!(band(json!({"mode": "detect", "y": 100, "method": "inpaint"})), "params.y");
        assert_eq!(band(json!({"mode": "guess", "method": "inpaint"})), "params.mode");
    }

    #[test]
    fn two_input_tools_name_each_input_by_its_place() -> Result<(), ParamError> {
        let replace = Params::parse(ToolType::VideoReplaceAudio, &json!({"mode": "replace"}))?;
        assert_eq!(replace.inputs(), [Input::Video, Input::Sound]);
        assert_eq!((replace.input_field(0), replace.input_field(1)), ("materialIds[0]".to_owned(), "materialIds[1]".to_owned()));
        let gain = Params::parse(ToolType::VideoReplaceAudio, &json!({"mode": "gain", "gainDb": -3}))?;
        assert_eq!((gain.inputs(), gain.input_field(0)), (vec![Input::Video], "materialIds".to_owned()));
        let picture = Params::parse(ToolType::PrePictureVideo, &json!({"visual": "picture"}))?;
        assert_eq!(picture.inputs(), [Input::Sound, Input::Picture]);
        let waveform = Params::parse(ToolType::PrePictureVideo, &json!({"visual": "waveform"}))?;
        assert_eq!(waveform.inputs(), [Input::Sound]);
        let video = Facts { duration_ms: 2000, bytes: 1_000_000, audio: true, video: Some((320, 180, 25.0)), orientation: Default::default(), coding: Default::default() };
        let song = Facts { audio: true, video: None, ..video };
        let silent = Facts { audio: false, ..video };
        assert!(replace.check_input_at(0, &video).is_ok() && replace.check_input_at(1, &song).is_ok());
        assert_eq!(replace.check_input_at(0, &song).err().map(|e| e.field), Some("materialIds[0]".to_owned()));
        assert_eq!(replace.check_input_at(1, &silent).err().map(|e| e.field), Some("materialIds[1]".to_owned()));
        let mix = Params::parse(ToolType::VideoReplaceAudio, &json!({"mode": "mix"}))?;
        assert!(mix.check_input_at(0, &silent).is_err_and(|e| e.field == "materialIds[0]" && e.message.contains("no sound to mix")));
        assert_eq!(replace.check_input_at(2, &song).err().map(|e| e.field), Some("materialIds[2]".to_owned()));
        let tall = Facts { video: Some((180, 320, 25.0)), ..video };
        let portrait = Params::VideoHToV(HToV { aspect: Aspect::Portrait, mode: Reframe::Follow });
        assert_eq!(portrait.check_input(&tall).err().map(|e| e.field), Some("materialIds".to_owned()));
        let split = Params::parse(ToolType::VideoSplit, &json!({"times": [500, 1950]}))?;
        assert_eq!(split.check_input(&video).err().map(|e| e.field), Some("params.times[1]".to_owned()));
        let scenes = Params::parse(ToolType::VideoSplit, &json!({"mode": "scenes", "minSceneMs": 1500}))?;
        assert_eq!(scenes.check_input(&video).err().map(|e| e.field), Some("params.minSceneMs".to_owned()));
        let highlights = Params::parse(ToolType::IntelligentTask, &json!({"targetMs": 5000, "minKeepMs": 2500}))?;
        assert_eq!(highlights.check_input(&video).err().map(|e| e.field), Some("params.minKeepMs".to_owned()));
        let vocals = Params::parse(ToolType::ExtractPersonAudio, &json!({}))?;
        assert_eq!(vocals.check_input(&silent).err().map(|e| e.field), Some("materialIds".to_owned()));
        Ok(())
    }

    #[test]
    fn parameters_round_trip_through_their_json() -> Result<(), ParamError> {
        let cases = [
            (ToolType::ExtractAudio, json!({"format": "aac"})),
            (ToolType::VideoToGif, json!({"startMs": 500, "endMs": 2500, "fps": 10, "width": 160, "loop": false})),
            (ToolType::VideoCompress, json!({"targetBytes": 300000})),
            (ToolType::VideoCompress, json!({"quality": "low"})),
            (ToolType::VideoSpeedup, json!({"speed": 1.5})),
            (ToolType::QuickCutVideo, json!({"mode": "remove", "ranges": [{"startMs": 100, "endMs": 200}]})),
            (ToolType::VideoCrop, json!({"x": 40, "y": 20, "width": 160, "height": 100})),
            (ToolType::VideoReplaceAudio, json!({"mode": "replace", "loudnessLufs": -20.0})),
            (ToolType::VideoReplaceAudio, json!({"mode": "mix", "gainDb": -6.0, "loudnessLufs": -16.0})),
            (ToolType::VideoReplaceAudio, json!({"mode": "gain", "gainDb": 3.5})),
            (ToolType::PrePictureVideo, json!({"visual": "picture", "width": 720, "height": 1280})),
            (ToolType::VideoHToV, json!({"aspect": "1:1"})),
            (ToolType::VideoHToV, json!({"aspect": "9:16", "mode": "follow"})),
            (ToolType::VideoSplit, json!({"times": [1000, 2500]})),
            (ToolType::VideoSplit, json!({"mode": "scenes", "sensitivity": 70, "minSceneMs": 500})),
            (ToolType::IntelligentTask, json!({"sensitivity": 60, "minSceneMs": 1000, "minKeepMs": 1500, "targetMs": 20000})),
            (ToolType::IntelligentTask, json!({"sensitivity": 60, "minSceneMs": 1000, "minKeepMs": 1500, "targetMs": 9000, "clips": true, "industryId": 7})),
            (ToolType::ExtractPersonAudio, json!({"accompaniment": false})),
            (ToolType::VideoRemoveWatermark, json!({"x": 7, "y": 3, "width": 41, "height": 20, "method": "inpaint"})),
            (ToolType::VideoRemoveSubtitle, json!({"mode": "band", "y": 140, "height": 30, "method": "blur"})),
            (ToolType::VideoRemoveSubtitle, json!({"mode": "detect", "method": "inpaint"})),
        ];
        for (tool, v) in cases {
            let p = Params::parse(tool, &v)?;
            assert_eq!(p.tool(), tool);
            assert_eq!(p.to_json(), v);
        }
        Ok(())
    }

    #[test]
    fn removed_ranges_leave_the_rest_in_order() {
        let cut = QuickCut {
            mode: CutMode::Remove,
            ranges: vec![MsRange { start_ms: 0, end_ms: 500 }, MsRange { start_ms: 1000, end_ms: 1500 }],
        };
        assert_eq!(cut.kept(3000), vec![MsRange { start_ms: 500, end_ms: 1000 }, MsRange { start_ms: 1500, end_ms: 3000 }]);
    }

    #[test]
    fn the_input_bounds_the_ranges_and_the_target() {
        let facts = Facts { duration_ms: 2000, bytes: 1_000_000, audio: true, video: Some((320, 180, 25.0)), orientation: Default::default(), coding: Default::default() };
        let cut = Params::parse(ToolType::QuickCutVideo, &json!({"mode": "keep", "ranges": [{"startMs": 2500, "endMs": 3000}]}));
        assert_eq!(cut.and_then(|p| p.check_input(&facts)).err().map(|e| e.field), Some("params.ranges[0].startMs".to_owned()));
        let big = Params::VideoCompress(Compress::TargetBytes(2_000_000));
        assert_eq!(big.check_input(&facts).err().map(|e| e.field), Some("params.targetBytes".to_owned()));
        let silent = Facts { audio: false, ..facts };
        assert_eq!(Params::ExtractAudio(AudioFormat::Wav).check_input(&silent).err().map(|e| e.field), Some("materialIds".to_owned()));
        let wide = Params::VideoCrop(Crop { x: 200, y: 0, width: 160, height: 100 });
        assert_eq!(wide.check_input(&facts).err().map(|e| e.field), Some("params.width".to_owned()));
        let tall = Params::VideoCrop(Crop { x: 0, y: 100, width: 160, height: 100 });
        assert_eq!(tall.check_input(&facts).err().map(|e| e.field), Some("params.height".to_owned()));
        assert!(Params::VideoCrop(Crop { x: 160, y: 80, width: 160, height: 100 }).check_input(&facts).is_ok());
        let mark = |x, y, width, height, method| Params::VideoRemoveWatermark(Watermark { x, y, width, height, method });
        let refused = |p: Params| p.check_input(&facts).err().map(|e| e.field);
        assert_eq!(refused(mark(320, 0, 10, 10, Erase::Blur)), Some("params.x".to_owned()));
        assert_eq!(refused(mark(0, 180, 10, 10, Erase::Blur)), Some("params.y".to_owned()));
        assert_eq!(refused(mark(300, 0, 21, 10, Erase::Blur)), Some("params.width".to_owned()));
        assert_eq!(refused(mark(0, 170, 10, 11, Erase::Blur)), Some("params.height".to_owned()));
        assert_eq!(refused(mark(0, 0, 320, 180, Erase::Inpaint)), Some("params.width".to_owned()));
        assert_eq!(refused(mark(0, 0, 320, 180, Erase::Blur)), None);
        let band = |y, height| Params::VideoRemoveSubtitle(Captions { band: Band::Given { y, height }, method: Erase::Inpaint });
        assert_eq!(refused(band(150, 31)), Some("params.height".to_owned()));
        assert_eq!(refused(band(0, 180)), Some("params.height".to_owned()));
        assert_eq!(refused(band(150, 30)), None);
    }
}
