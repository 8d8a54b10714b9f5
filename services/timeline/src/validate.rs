//! Parsing a rule from JSON, and checking it: every problem, each with the path of its field.

use crate::catalogue::animations::Phase;
use crate::catalogue::{animations, filters, shapes, transitions};
use crate::layer::{Layer, TextFields};
use crate::rule::Rule;
use crate::scene::MIN_SCENE_LENGTH;
use crate::source::{self, Access, Source, SourceError};
use serde::Serialize;
use std::fmt;
use thiserror::Error;
use ts_rs::TS;

/// Largest document accepted, bytes.
pub const MAX_DOCUMENT_BYTES: usize = 16 * 1024 * 1024;
/// Deepest nesting of arrays and objects accepted.
pub const MAX_DEPTH: usize = 64;
/// Scene limit by default.
pub const MAX_SCENES: usize = 48;
/// Scene limit when the environment asks for the reduced one.
pub const MAX_SCENES_REDUCED: usize = 45;
/// Minimum text size, editing pixels.
pub const MIN_FONT_SIZE: f64 = 12.0;
/// Minimum layers in a group.
pub const MIN_GROUP_LAYERS: usize = 2;
/// Longest document by default, seconds (10 minutes).
pub const MAX_DURATION_S: f64 = 600.0;
/// Largest output or editing dimension by default, pixels.
pub const MAX_DIMENSION: u32 = 4096;
/// Most layers in one scene by default, group members included.
pub const MAX_LAYERS_PER_SCENE: usize = 100;
/// Most layers in a document by default, group members included.
pub const MAX_LAYERS: usize = 1000;
/// Longest text of one text or art-word layer by default, characters.
pub const MAX_TEXT_CHARS: usize = 2000;
/// Slack for comparing times written as decimal seconds.
const TIME_EPSILON: f64 = 1e-6;

/// Why a text is not a rule.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RuleError {
    /// Larger than [`MAX_DOCUMENT_BYTES`].
    #[error("document is {0} bytes, over the limit of {MAX_DOCUMENT_BYTES}")]
    TooLarge(usize),
    /// Nested deeper than [`MAX_DEPTH`].
    #[error("document nests deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// Not JSON, or JSON of the wrong shape.
    #[error("{path}: {reason}")]
    Invalid {
        /// Where, as far as known (line and column for syntax errors).
        path: String,
        /// What is wrong.
        reason: String,
    },
}

impl Rule {
    /// Parses a rule from its JSON text (lenient where the spec says so; see `lenient`).
    pub fn parse(text: &str) -> Result<Rule, RuleError> {
        if text.len() > MAX_DOCUMENT_BYTES {
            return Err(RuleError::TooLarge(text.len()));
        }
        if nesting_depth(text) > MAX_DEPTH {
            return Err(RuleError::TooDeep);
        }
        serde_json::from_str(text).map_err(|e| RuleError::Invalid {
            path: format!("line {} column {}", e.line(), e.column()),
            reason: e.to_string(),
        })
    }

    /// Parses a rule, or returns the placeholder rule (size 41) when the text is not one
    /// (platform §5). A URL-encoded text is decoded first.
    pub fn parse_or_placeholder(text: &str) -> Rule {
        let trimmed = text.trim_start();
        let decoded;
        let text = if trimmed.starts_with('{') {
            text
        } else {
            decoded = percent_decode(trimmed);
            &decoded
        };
        Rule::parse(text).unwrap_or_else(|_| Rule::placeholder())
    }
}

/// Returns the deepest nesting of `[`/`{` outside strings (a cheap pre-check before parsing).
fn nesting_depth(text: &str) -> usize {
    let (mut depth, mut max, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_str {
            match (escaped, b) {
                (true, _) => escaped = false,
                (false, b'\\') => escaped = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

/// Decodes `%XX` escapes and `+` as space; invalid escapes are kept as written.
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        let hex = |j: usize| bytes.get(j).and_then(|c| (*c as char).to_digit(16));
        match (b, hex(i + 1), hex(i + 2)) {
            (b'%', Some(h), Some(l)) => {
                // Two hex digits are at most 255.
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b'+', _, _) => {
                out.push(b' ');
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// How much a problem matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Severity.ts", rename_all = "camelCase")]
pub enum Severity {
    /// The document is neither saved nor rendered.
    Error,
    /// The document is saved and rendered; the editor shows the problem to the user.
    Warning,
}

/// What kind of problem, for a program to act on (the message is for people).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ProblemCode.ts", rename_all = "camelCase")]
pub enum ProblemCode {
    /// A value the document must have is missing or of the wrong kind.
    Required,
    /// A number outside its range.
    OutOfRange,
    /// Over a bound the deployment sets (length, size, counts): unrenderable at any cost it accepts.
    OverLimit,
    /// A name the catalogues do not know (transition, filter, animation, shape).
    UnknownName,
    /// A layer type the renderer does not draw.
    UnknownType,
    /// Not a colour `#rrggbb`.
    BadColour,
    /// Times in the wrong order.
    BadTiming,
    /// A layer that can never show (warnings only).
    NeverShown,
    /// A material source that is not a server-made key or a same-origin material address
    /// (an absolute path, `..`, a URL).
    UnsafeSource,
    /// A server-made key of another tenant.
    ForeignSource,
}

/// One problem of a document: a field path, how much it matters, its kind and a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export_to = "Problem.ts")]
pub struct Problem {
    /// Field path, e.g. `scenes[2].layers[5].fontSize`.
    pub path: String,
    /// Error (blocks saving and rendering) or warning (shown only).
    pub severity: Severity,
    /// The kind of problem.
    pub code: ProblemCode,
    /// What is wrong.
    pub message: String,
}

impl Problem {
    /// An error at `path`.
    pub fn error(path: impl Into<String>, code: ProblemCode, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            severity: Severity::Error,
            code,
            message: message.into(),
        }
    }

    /// A warning at `path`.
    pub fn warning(path: impl Into<String>, code: ProblemCode, message: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            severity: Severity::Warning,
            code,
            message: message.into(),
        }
    }

    /// Whether the problem blocks saving and rendering.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// Every problem of a document, errors and warnings, in one pass.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// The problems, errors first in document order, then warnings in document order.
    pub problems: Vec<Problem>,
}

impl Report {
    /// The problems that block saving and rendering.
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| p.is_error())
    }

    /// The problems shown to the user only.
    pub fn warnings(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| !p.is_error())
    }

    /// Whether the document may be saved and rendered.
    pub fn is_ok(&self) -> bool {
        self.errors().next().is_none()
    }
}

/// Checks that depend on the deployment: the scene limit of the spec and the bounds that keep
/// a render finite (its length, its frame size, how much it draws).
#[derive(Debug, Clone, PartialEq)]
pub struct ValidateOptions {
    /// Most scenes a document may have (48, or 45 in the reduced environment).
    pub max_scenes: usize,
    /// Longest document, and so longest scene, in seconds.
    pub max_duration_s: f64,
    /// Largest width or height, editing or output, in pixels.
    pub max_dimension: u32,
    /// Most layers in one scene, group members included.
    pub max_layers_per_scene: usize,
    /// Most layers in the document, group members included.
    pub max_layers: usize,
    /// Longest text of one text or art-word layer, in characters.
    pub max_text_chars: usize,
    /// Whose document it is (the verified caller's, with what its template lends): a material key
    /// must be one [`Access::may_use_key`] allows. `None` (the render CLI, tests) accepts any
    /// relative key.
    pub access: Option<Access>,
}

impl Default for ValidateOptions {
    fn default() -> Self {
        Self {
            max_scenes: MAX_SCENES,
            max_duration_s: MAX_DURATION_S,
            max_dimension: MAX_DIMENSION,
            max_layers_per_scene: MAX_LAYERS_PER_SCENE,
            max_layers: MAX_LAYERS,
            max_text_chars: MAX_TEXT_CHARS,
            access: None,
        }
    }
}

impl ValidateOptions {
    /// Returns the options the environment asks for: `REELFORGE_TIMELINE_SCENE_LIMIT=45` (or
    /// `reduced`) selects the limit of 45, anything else the default 48;
    /// `REELFORGE_TIMELINE_MAX_DURATION_S` and `REELFORGE_TIMELINE_MAX_DIMENSION` replace the
    /// default length and size bounds when they hold a positive number.
    pub fn from_env() -> Self {
        let var = |name: &str| std::env::var(name).ok().map(|v| v.trim().to_owned());
        let max_scenes = match var("REELFORGE_TIMELINE_SCENE_LIMIT").as_deref() {
            Some("45" | "reduced") => MAX_SCENES_REDUCED,
            _ => MAX_SCENES,
        };
        let max_duration_s = var("REELFORGE_TIMELINE_MAX_DURATION_S")
            .and_then(|v| v.parse::<f64>().ok())
            .filter(|v| v.is_finite() && *v > 0.0)
            .unwrap_or(MAX_DURATION_S);
        let max_dimension = var("REELFORGE_TIMELINE_MAX_DIMENSION")
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|v| *v > 0)
            .unwrap_or(MAX_DIMENSION);
        Self {
            max_scenes,
            max_duration_s,
            max_dimension,
            ..Self::default()
        }
    }
}

/// Returns the errors of a rule with the default options, in document order.
pub fn validate(rule: &Rule) -> Vec<Problem> {
    validate_with(rule, &ValidateOptions::default())
}

/// Returns the errors of a rule (the problems that block saving and rendering), in document order.
pub fn validate_with(rule: &Rule, options: &ValidateOptions) -> Vec<Problem> {
    let mut v = Validator::new(options);
    v.rule(rule);
    v.problems
}

/// Checks a rule once: its errors in document order, then its warnings (`warnings::warnings`).
pub fn check(rule: &Rule, options: &ValidateOptions) -> Report {
    let mut problems = validate_with(rule, options);
    problems.extend(crate::warnings::warnings(rule));
    Report { problems }
}

/// How a document names a material by id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialRefKind {
    /// A same-origin material address (`/diyvrbt/material/file/{id}/{part}`) in a source field.
    Address,
    /// A scene's background (`scenes[i].id`).
    Background,
    /// A picture's mask (`maskClip`).
    Mask,
}

/// A material a document names by id, with the field that names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialRef {
    /// Field path, e.g. `scenes[0].layers[2].src`.
    pub path: String,
    /// The material id.
    pub id: String,
    /// How it is named.
    pub kind: MaterialRefKind,
}

/// Returns every material a document names by id, in document order: the ids whose library (the
/// owner's, or the template's) the render looks them up in.
pub fn material_refs(rule: &Rule) -> Vec<MaterialRef> {
    let options = ValidateOptions::default();
    let mut v = Validator::new(&options);
    v.rule(rule);
    v.materials
}

/// Returns every storage key a document names as a source, in document order, each once.
pub fn source_keys(rule: &Rule) -> Vec<String> {
    let options = ValidateOptions::default();
    let mut v = Validator::new(&options);
    v.rule(rule);
    v.keys
}

struct Validator<'a> {
    options: &'a ValidateOptions,
    problems: Vec<Problem>,
    materials: Vec<MaterialRef>,
    keys: Vec<String>,
}

impl<'a> Validator<'a> {
    fn new(options: &'a ValidateOptions) -> Self {
        Self {
            options,
            problems: Vec::new(),
            materials: Vec::new(),
            keys: Vec::new(),
        }
    }

    fn push(&mut self, path: impl Into<String>, code: ProblemCode, message: impl Into<String>) {
        self.problems.push(Problem::error(path, code, message));
    }

    fn rule(&mut self, rule: &Rule) {
        let options = self.options;
        let r = &rule.resolution_ratio;
        self.frame_size(r);
        self.non_negative("audioFade.inTime", rule.audio_fade.in_time);
        self.non_negative("audioFade.outTime", rule.audio_fade.out_time);
        if !crate::audio::LOUDNESS_TARGETS.contains(&rule.loudness.target) {
            let (lo, hi) = (crate::audio::LOUDNESS_TARGETS.start(), crate::audio::LOUDNESS_TARGETS.end());
            self.push("loudness.target", ProblemCode::OutOfRange, format!("outside {lo}..={hi} LUFS"));
        }
        self.filter("visualFilter", &rule.visual_filter);
        if rule.scenes.is_empty() {
            self.push("scenes", ProblemCode::Required, "at least one scene is required");
        }
        if rule.scenes.len() > options.max_scenes {
            self.push(
                "scenes", ProblemCode::OverLimit,
                format!(
                    "{} scenes exceed the limit of {}",
                    rule.scenes.len(),
                    options.max_scenes
                ),
            );
        }
        let duration = rule.duration();
        if duration > options.max_duration_s {
            self.push(
                "scenes", ProblemCode::OverLimit,
                format!(
                    "the scenes last {duration} s in all, over the limit of {} s",
                    options.max_duration_s
                ),
            );
        }
        let layers: usize = rule.scenes.iter().map(|s| layer_count(&s.layers)).sum();
        if layers > options.max_layers {
            self.push(
                "scenes", ProblemCode::OverLimit,
                format!(
                    "{layers} layers in all exceed the limit of {} per document",
                    options.max_layers
                ),
            );
        }
        for (i, scene) in rule.scenes.iter().enumerate() {
            let p = format!("scenes[{i}]");
            if let Some(id) = &scene.id {
                self.materials.push(MaterialRef { path: format!("{p}.id"), id: id.to_string(), kind: MaterialRefKind::Background });
            }
            if scene.time_length < MIN_SCENE_LENGTH {
                self.push(
                    format!("{p}.timeLength"), ProblemCode::OutOfRange,
                    format!("below minimum {MIN_SCENE_LENGTH} s"),
                );
            }
            if scene.time_length > options.max_duration_s {
                self.push(
                    format!("{p}.timeLength"), ProblemCode::OverLimit,
                    format!("above the limit of {} s", options.max_duration_s),
                );
            }
            self.non_negative(&format!("{p}.effectTime"), scene.effect_time);
            // A scene of no length is refused for that, not for its transition.
            if scene.time_length > 0.0 && scene.effect_time > scene.time_length + TIME_EPSILON {
                self.push(
                    format!("{p}.effectTime"), ProblemCode::OverLimit,
                    format!("longer than the scene ({} s)", scene.time_length),
                );
            }
            let count = layer_count(&scene.layers);
            if count > options.max_layers_per_scene {
                self.push(
                    format!("{p}.layers"), ProblemCode::OverLimit,
                    format!(
                        "{count} layers exceed the limit of {} per scene",
                        options.max_layers_per_scene
                    ),
                );
            }
            if !transitions::is_known(&scene.effect) {
                self.push(
                    format!("{p}.effect"), ProblemCode::UnknownName,
                    format!("unknown transition \"{}\"", scene.effect),
                );
            }
            self.filter(&format!("{p}.visualFilter"), &scene.visual_filter);
            self.colour(&format!("{p}.bgColor"), &scene.bg_color, true);
            for (j, item) in scene
                .audio
                .iter()
                .chain(&scene.voice)
                .chain(&scene.video_audios)
                .enumerate()
            {
                let list = if j < scene.audio.len() {
                    ("audio", j)
                } else if j < scene.audio.len() + scene.voice.len() {
                    ("voice", j - scene.audio.len())
                } else {
                    ("videoAudios", j - scene.audio.len() - scene.voice.len())
                };
                self.audio(&format!("{p}.{}[{}]", list.0, list.1), item);
            }
            for (j, layer) in scene.layers.iter().enumerate() {
                self.layer(&format!("{p}.layers[{j}]"), layer, Some(scene.time_length));
            }
        }
        for (i, item) in rule.audio.iter().enumerate() {
            self.audio(&format!("audio[{i}]"), item);
        }
        for (i, a) in rule.action_arrange.iter().enumerate() {
            let p = format!("actionArrange[{i}]");
            self.colour(&format!("{p}.backGroundColor"), &a.back_ground_color, false);
            for (j, m) in a.action.attach_material.iter().enumerate() {
                let q = format!("{p}.action.attachMaterial[{j}]");
                if !animations::is_known(&m.position.motion_in, Phase::In) {
                    self.push(
                        format!("{q}.position.motionIn"), ProblemCode::UnknownName,
                        format!("unknown in-animation \"{}\"", m.position.motion_in),
                    );
                }
                if !animations::is_known(&m.position.motion_out, Phase::Out) {
                    self.push(
                        format!("{q}.position.motionOut"), ProblemCode::UnknownName,
                        format!("unknown out-animation \"{}\"", m.position.motion_out),
                    );
                }
            }
        }
    }

    fn audio(&mut self, p: &str, item: &crate::audio::AudioItem) {
        self.source(&format!("{p}.src"), &item.src);
        if !(0.0..=crate::volume::SLIDER_MAX).contains(&item.volume) {
            self.push(format!("{p}.volume"), ProblemCode::OutOfRange, "outside 0..=200");
        }
        if item.original_volume < crate::volume::MIN_DB {
            self.push(format!("{p}.originalVolume"), ProblemCode::OutOfRange, "below minimum -96 dB");
        }
        self.non_negative(&format!("{p}.startTime"), item.start_time);
        if item.end_time < item.start_time {
            self.push(format!("{p}.endTime"), ProblemCode::BadTiming, "before startTime");
        }
        self.non_negative(&format!("{p}.fadeInTime"), item.fade_in_time);
        self.non_negative(&format!("{p}.fadeOutTime"), item.fade_out_time);
        if !(0.0..=crate::audio::DUCK_DEPTH_MAX_DB).contains(&item.duck_depth) {
            let max = crate::audio::DUCK_DEPTH_MAX_DB;
            self.push(format!("{p}.duckDepth"), ProblemCode::OutOfRange, format!("outside 0..={max} dB"));
        }
    }

    fn layer(&mut self, p: &str, layer: &Layer, scene_length: Option<f64>) {
        let Some(c) = layer.common() else {
            let kind = layer.type_name();
            self.push(
                format!("{p}.type"), ProblemCode::UnknownType,
                format!("backend returned wrong attach layer type \"{kind}\""),
            );
            return;
        };
        if c.start_time < 0.0 {
            self.push(format!("{p}.startTime"), ProblemCode::OutOfRange, "below 0");
        }
        if let Some(len) = scene_length.filter(|len| c.end_time > len + TIME_EPSILON) {
            self.push(
                format!("{p}.endTime"), ProblemCode::BadTiming,
                format!("after the scene end {len} s"),
            );
        }
        self.non_negative(&format!("{p}.inTime"), c.in_time);
        self.non_negative(&format!("{p}.outTime"), c.out_time);
        if let Some(len) = scene_length {
            for (name, v) in [("inTime", c.in_time), ("outTime", c.out_time)] {
                if v > len + TIME_EPSILON {
                    self.push(
                        format!("{p}.{name}"), ProblemCode::OverLimit,
                        format!("longer than the scene ({len} s)"),
                    );
                }
            }
        }
        if c.w < 0.0 {
            self.push(format!("{p}.w"), ProblemCode::OutOfRange, "below 0");
        }
        if c.h < 0.0 {
            self.push(format!("{p}.h"), ProblemCode::OutOfRange, "below 0");
        }
        if !animations::is_known(&c.motion_in, Phase::In) {
            self.push(
                format!("{p}.motionIn"), ProblemCode::UnknownName,
                format!("unknown in-animation \"{}\"", c.motion_in),
            );
        }
        if !animations::is_known(&c.motion_out, Phase::Out) {
            self.push(
                format!("{p}.motionOut"), ProblemCode::UnknownName,
                format!("unknown out-animation \"{}\"", c.motion_out),
            );
        }
        match layer {
            Layer::Picture(l) | Layer::Gif(l) => {
                self.source(&format!("{p}.src"), &l.src);
                if l.mask_clip > 0 {
                    self.materials.push(MaterialRef { path: format!("{p}.maskClip"), id: l.mask_clip.to_string(), kind: MaterialRefKind::Mask });
                }
                self.unit(&format!("{p}.opacity"), l.opacity);
                self.filter(&format!("{p}.filter"), &l.filter);
                self.colour(&format!("{p}.borderColor"), &l.border_color, false);
                self.non_negative(&format!("{p}.borderWidth"), l.border_width);
            }
            Layer::Video(l) => {
                if let Some(src) = l.video_path() {
                    self.source(&format!("{p}.videoSrc"), src);
                } else {
                    self.push(format!("{p}.videoSrc"), ProblemCode::Required, "must be a string path");
                }
                if !(0.0..=crate::volume::SLIDER_MAX).contains(&l.volume) {
                    self.push(format!("{p}.volume"), ProblemCode::OutOfRange, "outside 0..=200");
                }
                for (name, v) in [
                    ("brightness", l.brightness),
                    ("contrast", l.contrast),
                    ("saturation", l.saturation),
                ] {
                    if !(0.0..=200.0).contains(&v) {
                        self.push(format!("{p}.{name}"), ProblemCode::OutOfRange, "outside 0..=200");
                    }
                }
            }
            Layer::Word(l) | Layer::DynamicWord(l) => self.text(p, &l.text),
            Layer::ArtWord(l) => {
                self.text(p, &l.text);
                self.source(&format!("{p}.backgroundSrc"), &l.background_src);
                if !(0.0..=255.0).contains(&l.alpha) {
                    self.push(format!("{p}.alpha"), ProblemCode::OutOfRange, "outside 0..=255");
                }
                for (name, v) in [
                    ("shadowColor", &l.shadow_color),
                    ("fillColor", &l.fill_color),
                    ("color1", &l.color1),
                    ("color2", &l.color2),
                ] {
                    self.colour(&format!("{p}.{name}"), v, false);
                }
            }
            Layer::Shape(l) => {
                self.source(&format!("{p}.backgroundSrc"), &l.background_src);
                // The renderer draws shapeCode with resvg: nothing in it may run or reach out.
                if let Some(code) = l.shape_code.as_deref().filter(|c| !c.trim().is_empty())
                    && let Err(e) = crate::svg::check(code)
                {
                    self.push(format!("{p}.shapeCode"), ProblemCode::UnsafeSource, e.to_string());
                }
                if !shapes::is_known(&l.shape) {
                    self.push(
                        format!("{p}.shape"), ProblemCode::UnknownName,
                        format!("unknown shape \"{}\"", l.shape),
                    );
                }
                for (name, v) in [
                    ("stroke", &l.stroke),
                    ("fill", &l.fill),
                    ("shadowColor", &l.shadow_color),
                ] {
                    self.colour(&format!("{p}.{name}"), v, false);
                }
                for (k, g) in l.gradient_colors.iter().enumerate() {
                    self.colour(&format!("{p}.gradientColors[{k}]"), g, true);
                }
                if l.fill_type == "gradient" && l.gradient_colors.len() != 2 {
                    self.push(
                        format!("{p}.gradientColors"), ProblemCode::Required,
                        "a gradient needs two colours",
                    );
                }
            }
            Layer::Group(g) => {
                if g.attach_list.len() < MIN_GROUP_LAYERS {
                    self.push(
                        format!("{p}.attachList"), ProblemCode::Required,
                        format!("a group needs at least {MIN_GROUP_LAYERS} layers"),
                    );
                }
                if g.group_type != "always" && g.group_type != "once" {
                    self.push(
                        format!("{p}.groupType"), ProblemCode::UnknownName,
                        format!("must be \"always\" or \"once\", not \"{}\"", g.group_type),
                    );
                }
                for (k, member) in g.attach_list.iter().enumerate() {
                    self.layer(&format!("{p}.attachList[{k}]"), member, scene_length);
                }
            }
            Layer::SpecialEffect(l) => self.source(&format!("{p}.src"), &l.src),
            Layer::Template(_) | Layer::Unknown(_) => {}
        }
    }

    fn text(&mut self, p: &str, t: &TextFields) {
        for (name, text) in [("content", &t.content), ("showContent", &t.show_content)] {
            let chars = text.chars().count();
            if chars > self.options.max_text_chars {
                self.push(
                    format!("{p}.{name}"), ProblemCode::OverLimit,
                    format!(
                        "{chars} characters exceed the limit of {}",
                        self.options.max_text_chars
                    ),
                );
            }
        }
        if t.font_size < MIN_FONT_SIZE {
            self.push(
                format!("{p}.fontSize"), ProblemCode::OutOfRange,
                format!("below minimum {MIN_FONT_SIZE}"),
            );
        }
        self.colour(&format!("{p}.color"), &t.color, true);
        self.colour(&format!("{p}.borderColor"), &t.border_color, false);
        self.colour(&format!("{p}.bgFillColor"), &t.bg_fill_color, false);
        if t.line_height <= 0.0 {
            self.push(format!("{p}.lineHeight"), ProblemCode::OutOfRange, "must be above 0");
        }
    }

    /// Checks the editing size and the output size it gives against the dimension bound.
    fn frame_size(&mut self, r: &crate::rule::ResolutionRatio) {
        let max = f64::from(self.options.max_dimension);
        for (name, v) in [("width", r.width), ("height", r.height)] {
            let p = format!("resolutionRatio.{name}");
            if v <= 0.0 {
                self.push(p, ProblemCode::OverLimit, "must be above 0");
            } else if v > max {
                self.push(p, ProblemCode::OverLimit, format!("{v} is above the limit of {max} pixels"));
            }
        }
        if r.target_width > max {
            self.push(
                "resolutionRatio.targetWidth", ProblemCode::OverLimit,
                format!("{} is above the limit of {max} pixels", r.target_width),
            );
        } else if r.width > 0.0 && r.height > 0.0 && r.width <= max {
            // The output height follows the editing ratio, so a thin editing frame can still
            // ask for a tall output.
            let tw = if r.target_width > 0.0 {
                r.target_width
            } else {
                r.width
            };
            let th = tw * r.height / r.width;
            if th > max {
                self.push(
                    "resolutionRatio", ProblemCode::OverLimit,
                    format!(
                        "the output {tw}×{} is above the limit of {max} pixels",
                        th.round()
                    ),
                );
            }
        }
    }

    /// Checks a material source: a key (one the options' access allows, when one is given) or a
    /// same-origin material address, whose id is noted; an empty source is left to the renderer's
    /// missing check.
    fn source(&mut self, p: &str, src: &str) {
        if src.trim().is_empty() {
            return;
        }
        let read = match &self.options.access {
            Some(a) => a.check(src),
            None => source::parse_source(src),
        };
        match read {
            Ok(Source::Material { id }) => self.materials.push(MaterialRef { path: p.to_owned(), id: id.to_owned(), kind: MaterialRefKind::Address }),
            Ok(Source::Key(k)) => {
                if !self.keys.iter().any(|x| x == k) {
                    self.keys.push(k.to_owned());
                }
            }
            Err(e) => {
                let code = if matches!(e, SourceError::Foreign | SourceError::NotYours) {
                    ProblemCode::ForeignSource
                } else {
                    ProblemCode::UnsafeSource
                };
                self.push(p, code, format!("material source \"{}\": {e}", src.trim()));
            }
        }
    }

    fn filter(&mut self, p: &str, name: &str) {
        if !filters::is_known(name) {
            self.push(p, ProblemCode::UnknownName, format!("unknown filter \"{name}\""));
        }
    }

    fn colour(&mut self, p: &str, value: &str, required: bool) {
        if (required || !value.is_empty()) && !is_hex_colour(value) {
            self.push(p, ProblemCode::BadColour, format!("\"{value}\" is not a colour #rrggbb"));
        }
    }

    fn non_negative(&mut self, p: &str, v: f64) {
        if v < 0.0 {
            self.push(p, ProblemCode::OutOfRange, "below 0");
        }
    }

    fn unit(&mut self, p: &str, v: f64) {
        if !(0.0..=1.0).contains(&v) {
            self.push(p, ProblemCode::OutOfRange, "outside 0..=1");
        }
    }
}

/// Returns how many layers a list holds, the members of its groups included.
fn layer_count(layers: &[Layer]) -> usize {
    layers
        .iter()
        .map(|l| match l {
            Layer::Group(g) => 1 + layer_count(&g.attach_list),
            _ => 1,
        })
        .sum()
}

/// Returns whether a text is a colour `#rrggbb` (7 characters starting with '#', platform §5).
pub fn is_hex_colour(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 7 && b[0] == b'#' && b[1..].iter().all(u8::is_ascii_hexdigit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depth_and_size_limits() {
        let deep = "[".repeat(MAX_DEPTH + 1);
        assert_eq!(Rule::parse(&deep), Err(RuleError::TooDeep));
        assert!(nesting_depth(r#"{"a":"[[[[[[["}"#) == 1);
    }

    #[test]
    fn placeholder_for_bad_rules() {
        let r = Rule::parse_or_placeholder("not a rule");
        assert_eq!(r.resolution_ratio.size_id, 41);
        let r = Rule::parse_or_placeholder("%7B%22version%22%3A1%2C%22scenes%22%3A%5B%5D%7D");
        assert_eq!(r, Rule::default());
    }

    fn parse(json: &str) -> Rule {
        Rule::parse(json).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The over-limit errors of a rule, with the options given.
    fn bounds(rule: &Rule, options: &ValidateOptions) -> Vec<Problem> {
        validate_with(rule, options)
            .into_iter()
            .filter(|p| p.code == ProblemCode::OverLimit)
            .collect()
    }

    fn bound_list(rule: &Rule) -> Vec<String> {
        bounds(rule, &ValidateOptions::default())
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// A rule of one 5 s scene; `scene` holds more scene fields (`,"key":value…`), which win.
    fn doc(ratio: &str, scene: &str) -> Rule {
        let mut fields: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(r#"{"timeLength":5,"layers":[]}"#).unwrap_or_default();
        let more: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&format!("{{{}}}", scene.trim_start_matches(',')))
                .unwrap_or_else(|e| panic!("{e}"));
        fields.extend(more);
        parse(&format!(
            r#"{{"resolutionRatio":{ratio},"scenes":[{}]}}"#,
            serde_json::Value::Object(fields)
        ))
    }

    const RATIO: &str = r#"{"width":640,"height":360,"targetWidth":1280}"#;

    #[test]
    fn every_catalogue_ratio_is_within_the_bounds() {
        for r in crate::catalogue::ratios::RATIOS {
            let (Some([w, h]), Some([tw, _])) = (r.editing, r.target) else {
                continue;
            };
            let rule = doc(
                &format!(r#"{{"width":{w},"height":{h},"targetWidth":{tw}}}"#),
                "",
            );
            assert!(
                bound_list(&rule).is_empty(),
                "{}: {:?}",
                r.name,
                bound_list(&rule)
            );
        }
    }

    #[test]
    fn length_and_size_bounds_name_their_field() {
        let long = doc(RATIO, r#","timeLength":1e12"#);
        assert_eq!(
            bound_list(&long),
            [
                "scenes: the scenes last 1000000000000 s in all, over the limit of 600 s",
                "scenes[0].timeLength: above the limit of 600 s",
            ]
        );
        let wide = doc(r#"{"width":100000,"height":90,"targetWidth":100000}"#, "");
        assert_eq!(
            bound_list(&wide),
            [
                "resolutionRatio.width: 100000 is above the limit of 4096 pixels",
                "resolutionRatio.targetWidth: 100000 is above the limit of 4096 pixels",
            ]
        );
        let empty = doc(r#"{"width":0,"height":0}"#, "");
        assert_eq!(
            bound_list(&empty),
            [
                "resolutionRatio.width: must be above 0",
                "resolutionRatio.height: must be above 0",
            ]
        );
        // A thin editing frame asking for a tall output.
        let tall = doc(r#"{"width":100,"height":4000,"targetWidth":1000}"#, "");
        assert_eq!(
            bound_list(&tall),
            ["resolutionRatio: the output 1000×40000 is above the limit of 4096 pixels"]
        );
        // The deployment can lower the bounds.
        let options = ValidateOptions {
            max_duration_s: 4.0,
            ..ValidateOptions::default()
        };
        assert_eq!(bounds(&doc(RATIO, ""), &options).len(), 2);
    }

    #[test]
    fn layer_text_and_animation_bounds_name_their_field() {
        let word = r#"{"type":"word","content":"x","fontSize":24}"#;
        let many = vec![word; 101].join(",");
        let rule = doc(RATIO, &format!(r#","layers":[{many}]"#));
        assert_eq!(
            bound_list(&rule),
            ["scenes[0].layers: 101 layers exceed the limit of 100 per scene"]
        );
        let scenes = vec![
            format!(
                r#"{{"timeLength":2,"layers":[{}]}}"#,
                vec![word; 100].join(",")
            );
            11
        ];
        let rule = parse(&format!(
            r#"{{"resolutionRatio":{RATIO},"scenes":[{}]}}"#,
            scenes.join(",")
        ));
        assert_eq!(
            bound_list(&rule),
            ["scenes: 1100 layers in all exceed the limit of 1000 per document"]
        );
        let text = "é".repeat(MAX_TEXT_CHARS + 1);
        let rule = doc(
            RATIO,
            &format!(
                r#","effectTime":6,"layers":[{{"type":"word","content":"{text}","inTime":5,"outTime":5.5}}]"#
            ),
        );
        assert_eq!(
            bound_list(&rule),
            [
                "scenes[0].effectTime: longer than the scene (5 s)",
                "scenes[0].layers[0].outTime: longer than the scene (5 s)",
                "scenes[0].layers[0].content: 2001 characters exceed the limit of 2000",
            ]
        );
        // Every bound is an error: it blocks saving and rendering.
        assert!(
            bounds(&rule, &ValidateOptions::default())
                .iter()
                .all(|b| b.severity == Severity::Error)
        );
    }

    #[test]
    fn a_layer_ending_before_it_starts_is_a_warning_not_a_problem() {
        let rule = doc(
            RATIO,
            r#","layers":[{"type":"word","content":"x","startTime":2,"endTime":1}]"#,
        );
        assert!(validate(&rule).is_empty(), "{:?}", validate(&rule));
        let report = check(&rule, &ValidateOptions::default());
        assert!(report.is_ok());
        let warning = report.warnings().next().map(|w| (w.path.as_str(), w.code));
        assert_eq!(
            warning,
            Some(("scenes[0].layers[0].endTime", ProblemCode::NeverShown))
        );
    }

    #[test]
    fn unsafe_shape_code_is_an_error_at_its_path() {
        let safe = crate::catalogue::shapes::svg("star").unwrap_or_default().replace('"', "\\\"");
        let layers = format!(
            r#","layers":[
            {{"type":"shape","shape":"star","w":10,"h":10,"shapeCode":"{safe}"}},
            {{"type":"shape","shape":"rect","w":10,"h":10,
              "shapeCode":"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>"}}]"#
        );
        let rule = doc(RATIO, &layers);
        let found: Vec<(String, ProblemCode)> =
            validate(&rule).into_iter().map(|p| (p.path, p.code)).collect();
        assert_eq!(
            found,
            [("scenes[0].layers[1].shapeCode".to_owned(), ProblemCode::UnsafeSource)]
        );
    }

    #[test]
    fn sources_outside_the_tenant_are_errors_with_their_path() {
        let layers = r#","layers":[
            {"type":"picture","src":"/etc/passwd","w":10,"h":10},
            {"type":"video","videoSrc":"../x","w":10,"h":10},
            {"type":"picture","src":"t/cc/u/1/materials/a/original.png","w":10,"h":10},
            {"type":"gif","src":"http://evil.example/x","w":10,"h":10},
            {"type":"picture","src":"t/qs/u/1/materials/a/original.png","w":10,"h":10},
            {"type":"picture","src":"/diyvrbt/material/file/a1/original?ticket=x","w":10,"h":10}],
            "audio":[{"src":"file:///etc/shadow","endTime":1}]"#;
        let rule = doc(RATIO, layers);
        let options = ValidateOptions {
            access: Some(Access::of("qs", "1")),
            ..ValidateOptions::default()
        };
        let found: Vec<(String, ProblemCode, Severity)> = validate_with(&rule, &options)
            .into_iter()
            .map(|p| (p.path, p.code, p.severity))
            .collect();
        let e = |path: &str, code| (path.to_owned(), code, Severity::Error);
        assert_eq!(
            found,
            [
                e("scenes[0].audio[0].src", ProblemCode::UnsafeSource),
                e("scenes[0].layers[0].src", ProblemCode::UnsafeSource),
                e("scenes[0].layers[1].videoSrc", ProblemCode::UnsafeSource),
                e("scenes[0].layers[2].src", ProblemCode::ForeignSource),
                e("scenes[0].layers[3].src", ProblemCode::UnsafeSource),
            ]
        );
        // Without a tenant (the render CLI) another tenant's key is only a key.
        assert_eq!(validate(&rule).len(), 4);
        // Another user of the same tenant: their key is refused, naming it; the address is left
        // to the material library, and noted.
        let neighbour = ValidateOptions { access: Some(Access::of("qs", "2")), ..ValidateOptions::default() };
        let theirs: Vec<Problem> = validate_with(&rule, &neighbour).into_iter().filter(|p| p.code == ProblemCode::ForeignSource).collect();
        assert_eq!(theirs.iter().map(|p| p.path.as_str()).collect::<Vec<_>>(), ["scenes[0].layers[2].src", "scenes[0].layers[4].src"]);
        assert!(theirs[1].message.contains("t/qs/u/1/materials/a/original.png") && theirs[1].message.contains("another user's"), "{}", theirs[1]);
        let ids: Vec<(String, String)> = material_refs(&rule).into_iter().map(|m| (m.path, m.id)).collect();
        assert_eq!(ids, [("scenes[0].layers[5].src".to_owned(), "a1".to_owned())]);
    }

    #[test]
    fn hex_colours() {
        assert!(is_hex_colour("#A0b1c2"));
        assert!(!is_hex_colour("#abc"));
        assert!(!is_hex_colour("a0b1c2f"));
        assert!(!is_hex_colour("#ggg000"));
    }
}
