//! The engine: a rule and its materials in; frames, stills, covers and MP4 files out.
//! Frames are counted once from the document's seconds (`reelforge_timeline::Timeline`), so
//! scene boundaries, transitions and audio samples never drift with the frame rate.

mod audio;
mod draw;
mod feed;
mod planar;
pub mod prepare;
mod spool;

// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub use draw::{fill_rect, restore_from};

use crate::compose::{self, Bitmap};
use crate::decode::{SAMPLE_RATE, WATCHDOG_S};
use crate::error::{MediaError, Place, RenderError, Stage};
use crate::materials::Materials;
use draw::SceneState;
use reelforge_timeline::{FrameSource, Layer, Rule, Timeline, ValidateOptions};
use std::path::Path;

/// A prepared document: its frame plan, output size and lazily prepared scenes.
pub struct Engine {
    rule: Rule,
    materials: Materials,
    /// The frame plan.
    pub timeline: Timeline,
    /// Output width and height.
    pub size: (u32, u32),
    scale: f64,
    scenes: Vec<Option<SceneState>>,
    watchdog_s: u64,
    /// The nice value of the drawing and of the threads preparing scenes and the mix: DRAW_NICE
    /// above that of the thread that made the engine (the encoder's).
    pub(crate) draw_nice: i32,
    scratch: (Bitmap, Bitmap),
    /// The scene and base layers of the last frame drawn, when it was a still base.
    last_still: Option<(usize, Vec<usize>)>,
    /// The frame each scene is first drawn at (its incoming transition's start, else its own),
    /// when scenes are prepared ahead of drawing (whole renders; a still draws one frame).
    first_use: Option<Vec<i64>>,
    /// The scene being prepared ahead, on its own thread.
    ahead: Option<SceneAhead>,
    /// The overlay of frames drawn straight into I420, made at the first such frame.
    planar: Option<planar::Planar>,
}

/// Everything preparing one scene needs, owned.
struct SceneJob {
    index: usize,
    scene: reelforge_timeline::Scene,
    rule_filter: String,
    materials: Materials,
    scale: f64,
    size: (u32, u32),
    rate: reelforge_timeline::FrameRate,
    watchdog_s: u64,
    draw_nice: i32,
}

impl SceneJob {
    /// Loads, rasterises and fits the scene's layers.
    fn run(&self) -> Result<SceneState, RenderError> {
        let (s, i) = (&self.scene, self.index);
        let fps = (self.rate.num as i32, self.rate.den as i32);
        let t0 = std::time::Instant::now();
        let mut layers = prepare::scene_layers(s, &self.materials, self.scale, self.size, fps, i)?;
        let bg = compose::colour::rgb_or(&s.bg_color, [0, 0, 0]);
        prepare::flatten_bottom(&mut layers, bg);
        feed::share(&mut layers, self.rate, self.rate.frames_for(s.time_length));
        if std::env::var_os("REELFORGE_RENDER_TIMING").is_some() {
            eprintln!(
                "timing: scene {i} prepared in {:.3}s",
                t0.elapsed().as_secs_f64()
            );
        }
        let filters = [s.visual_filter.as_str(), self.rule_filter.as_str()]
            .iter()
            .filter_map(|f| compose::filter::by_name(f))
            .collect();
        Ok(SceneState {
            bg,
            layers,
            filters,
            canvas_blur: (s.canvas_blur.max(0.0) * self.scale).round() as usize,
            cache: None,
            cache_planes: None,
            cache_id: 0,
            drawn: None,
            watchdog_s: self.watchdog_s,
        })
    }

    /// Prepares the scene on its own thread and prerolls the clips showing at its start. The
    /// thread lowers itself to the drawing's priority (the first scene's starts before the
    /// drawing thread has lowered its own), so its clips' decoders never take cores from x264.
    fn spawn(self) -> SceneAhead {
        let scene = self.index;
        let thread = std::thread::Builder::new()
            .name("reelforge-scene".to_owned())
            .spawn(move || {
                crate::render::yield_to_encoder(self.draw_nice);
                let mut state = self.run()?;
                state.warm_up(self.rate)?;
                Ok(state)
            });
        SceneAhead { scene, thread }
    }
}

/// A scene being prepared on its own thread.
struct SceneAhead {
    scene: usize,
    thread: std::io::Result<std::thread::JoinHandle<Result<SceneState, RenderError>>>,
}

impl SceneAhead {
    fn join(self) -> Result<SceneState, RenderError> {
        let thread = self
            .thread
            .map_err(|e| RenderError::stage(Stage::Decode, MediaError::Io(e)))?;
        joined(
            thread.join(),
            Stage::Decode,
            &format!("preparing scene {}", self.scene),
        )
    }
}

/// Returns the paths of every material a layer names, for the fetch check (masks by id).
fn layer_materials(l: &Layer, m: &Materials) -> Result<Vec<String>, MediaError> {
    Ok(match l {
        Layer::Picture(p) | Layer::Gif(p) => [
            Some(p.src.clone()),
            prepare::mask_path(p, m)?.map(str::to_owned),
        ]
        .into_iter()
        .flatten()
        .collect(),
        Layer::Video(v) => vec![v.video_path().unwrap_or("").to_owned()],
        Layer::SpecialEffect(e) => vec![e.src.clone()],
        Layer::Shape(s) if s.fill_type == "image" => vec![s.background_src.clone()],
        Layer::Group(g) => {
            let mut all = Vec::new();
            for l in &g.attach_list {
                all.extend(layer_materials(l, m)?);
            }
            all
        }
        _ => Vec::new(),
    })
}

/// Returns every material path a rule names (backgrounds of known ids, layers, masks, sounds),
/// each once, for a worker to fetch them into the materials directory before rendering.
pub fn material_paths(rule: &Rule, materials: &Materials) -> Result<Vec<String>, RenderError> {
    let mut out = Vec::new();
    for (i, s) in rule.scenes.iter().enumerate() {
        let place = Place {
            scene: Some(i),
            ..Place::default()
        };
        if let Some((_, src)) = prepare::background_of(s, materials) {
            out.push(src.to_owned());
        }
        for l in &s.layers {
            out.extend(layer_materials(l, materials).map_err(|e| place.err(Stage::Fetch, e))?);
        }
        out.extend(
            s.audio
                .iter()
                .chain(&s.voice)
                .chain(&s.video_audios)
                .map(|a| a.src.clone()),
        );
    }
    out.extend(rule.audio.iter().map(|a| a.src.clone()));
    out.retain(|p| !p.trim().is_empty());
    out.sort();
    out.dedup();
    Ok(out)
}

/// Returns the material ids a rule names without a path (scene backgrounds, picture masks), for
/// the worker to look up in the material library.
pub fn material_ids(rule: &Rule) -> Vec<String> {
    fn masks(l: &Layer, out: &mut Vec<String>) {
        match l {
            Layer::Picture(p) | Layer::Gif(p) => out.extend(prepare::mask_id(p)),
            Layer::Group(g) => g.attach_list.iter().for_each(|l| masks(l, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for s in &rule.scenes {
        if let Some(id) = &s.id {
            out.push(id.to_string());
        }
        s.layers.iter().for_each(|l| masks(l, &mut out));
    }
    out.sort();
    out.dedup();
    out
}

/// Memory a render may hold in frames by default, MiB.
pub const MEMORY_BUDGET_MB: u64 = 2048;
/// The environment variable that replaces [`MEMORY_BUDGET_MB`].
pub const MEMORY_BUDGET_VAR: &str = "REELFORGE_RENDER_MEMORY_MB";
/// I420 frames the encoder may hold at once: the recycled pool and x264's lookahead and
/// frame threads.
const ENCODER_FRAMES: u64 = 48;
/// Output-sized RGBA frames the drawing holds: two scratch frames, a scene's cached base, the
/// frame being drawn, and the overlay of frames drawn as I420 with its blended rectangle.
const DRAWING_FRAMES: u64 = 6;
/// Output-sized RGBA frames one clip holds: its decoder's queue of three, the frame being
/// converted and the frame held.
const CLIP_FRAMES: u64 = 5;

/// Returns the memory budget in bytes: `REELFORGE_RENDER_MEMORY_MB`, else [`MEMORY_BUDGET_MB`].
fn memory_budget() -> u64 {
    std::env::var(MEMORY_BUDGET_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|mb| *mb > 0)
        .unwrap_or(MEMORY_BUDGET_MB)
        << 20
}

/// Returns the bytes of frames a render of `rule` at `size` holds at its peak: the encoder's
/// and the drawing's frames, and those of every clip of the two neighbouring scenes that most
/// (a transition draws both), a scene background counted as a clip.
pub fn memory_estimate(rule: &Rule, size: (u32, u32)) -> u64 {
    fn clips(layers: &[Layer]) -> u64 {
        layers
            .iter()
            .map(|l| match l {
                Layer::Video(_) | Layer::SpecialEffect(_) => 1,
                Layer::Group(g) => clips(&g.attach_list),
                _ => 0,
            })
            .sum()
    }
    let per_scene: Vec<u64> = rule
        .scenes
        .iter()
        .map(|s| clips(&s.layers) + u64::from(s.id.is_some()))
        .collect();
    let most = per_scene
        .windows(2)
        .map(|w| w[0] + w[1])
        .chain(per_scene.first().copied())
        .max()
        .unwrap_or(0);
    let pixels = u64::from(size.0) * u64::from(size.1);
    pixels * 3 / 2 * ENCODER_FRAMES + pixels * 4 * (DRAWING_FRAMES + CLIP_FRAMES * most)
}

impl Engine {
    /// Checks the rule (lengths, catalogue names, materials present) and plans its frames.
    pub fn new(rule: &Rule, materials: &Materials) -> Result<Self, RenderError> {
        if rule.scenes.is_empty() {
            return Err(RenderError::Rule("the rule has no scene".to_owned()));
        }
        // Refused by severity: a document with an error problem is never drawn.
        let report = reelforge_timeline::check(rule, &ValidateOptions::from_env());
        let errors: Vec<String> = report.errors().map(ToString::to_string).collect();
        if !errors.is_empty() {
            return Err(RenderError::Rule(errors.join("; ")));
        }
        let size = rule.resolution_ratio.target_size();
        let budget = memory_budget();
        let needed = memory_estimate(rule, size);
        if needed > budget {
            return Err(RenderError::Rule(format!(
                "a {}×{} render would hold about {} MiB of frames, over the budget of {} MiB \
                 ({MEMORY_BUDGET_VAR})",
                size.0,
                size.1,
                needed >> 20,
                budget >> 20
            )));
        }
        // GStreamer (its plugin registry: seconds in a fresh process) only once the document
        // and its budget are known to be renderable, so a refusal costs neither.
        crate::gst_init().map_err(|e| RenderError::stage(Stage::Fetch, e))?;
        for w in report.warnings() {
            tracing::warn!(path = %w.path, code = ?w.code, "{}", w.message);
        }
        let timeline = Timeline::for_rule(rule);
        for (i, (s, plan)) in rule.scenes.iter().zip(&timeline.scenes).enumerate() {
            let place = Place {
                scene: Some(i),
                ..Place::default()
            };
            if plan.frames <= 0 {
                return Err(place.err(
                    Stage::Fetch,
                    MediaError::Invalid(format!("zero-length scene ({} s)", s.time_length)),
                ));
            }
            if let Some((id, src)) = prepare::background_of(s, materials) {
                let place = Place {
                    scene: Some(i),
                    layer: Some("background".to_owned()),
                    material: Some(format!("{id} ({src})")),
                };
                materials
                    .resolve(src)
                    .map_err(|e| place.err(Stage::Fetch, e))?;
            }
            for l in &s.layers {
                let mut place = Place {
                    scene: Some(i),
                    layer: l.common().map(|c| c.id.to_string()),
                    material: None,
                };
                for src in layer_materials(l, materials).map_err(|e| place.err(Stage::Fetch, e))? {
                    place.material = Some(src.clone());
                    materials
                        .resolve(&src)
                        .map_err(|e| place.err(Stage::Fetch, e))?;
                }
            }
        }
        let scale = rule.resolution_ratio.target_scale();
        Ok(Engine {
            rule: rule.clone(),
            materials: materials.clone(),
            scenes: rule.scenes.iter().map(|_| None).collect(),
            timeline,
            size,
            scale,
            watchdog_s: WATCHDOG_S,
            draw_nice: crate::render::draw_nice(),
            scratch: (Bitmap::new(size.0, size.1), Bitmap::new(size.0, size.1)),
            last_still: None,
            first_use: None,
            ahead: None,
            planar: None,
        })
    }

    /// Prepares each scene on its own thread a second before it comes into view (for renders
    /// that draw frame after frame from `first`; a still draws one frame and needs none ahead).
    /// The scene at `first` starts preparing at once, beside the encoder starting up.
    pub fn prepare_scenes_ahead(&mut self, first: i64) {
        let tl = &self.timeline;
        let first_use = tl
            .scenes
            .iter()
            .enumerate()
            .map(|(i, s)| {
                tl.transitions
                    .iter()
                    .filter(|t| t.from + 1 == i)
                    .map(|t| t.start)
                    .fold(s.start, i64::min)
            })
            .collect();
        self.first_use = Some(first_use);
        self.prepare_ahead(first - 1);
    }

    /// Returns the output frame rate as `(num, den)`.
    pub fn fps(&self) -> (i32, i32) {
        (self.timeline.rate.num as i32, self.timeline.rate.den as i32)
    }

    /// Returns the total number of output frames.
    pub fn total_frames(&self) -> i64 {
        self.timeline.total_frames
    }

    /// Returns the frame range `[start, end)` of scenes `first..last` (a segment).
    pub fn segment_frames(&self, scenes: std::ops::Range<usize>) -> (i64, i64) {
        let tl = &self.timeline;
        let start = tl.scenes.get(scenes.start).map_or(0, |s| s.start);
        let end = scenes
            .end
            .checked_sub(1)
            .and_then(|i| tl.scenes.get(i))
            .map_or(tl.total_frames, |s| s.start + s.frames);
        (start, end.max(start))
    }

    fn scene(&mut self, i: usize) -> Result<&mut SceneState, RenderError> {
        if self.scenes.get(i).is_some_and(Option::is_none) {
            let state = match self.ahead.take() {
                Some(a) if a.scene == i => a.join()?,
                other => {
                    self.ahead = other;
                    self.scene_job(i)?.run()?
                }
            };
            if let Some(slot) = self.scenes.get_mut(i) {
                *slot = Some(state);
            }
        }
        self.scenes
            .get_mut(i)
            .and_then(Option::as_mut)
            .ok_or_else(|| RenderError::Rule(format!("no scene {i}")))
    }

    /// Returns what preparing scene `i` needs, owned, so it can run on another thread.
    fn scene_job(&self, i: usize) -> Result<SceneJob, RenderError> {
        let scene = self
            .rule
            .scenes
            .get(i)
            .ok_or_else(|| RenderError::Rule(format!("no scene {i}")))?;
        Ok(SceneJob {
            index: i,
            scene: scene.clone(),
            rule_filter: self.rule.visual_filter.clone(),
            materials: self.materials.clone(),
            scale: self.scale,
            size: self.size,
            rate: self.timeline.rate,
            watchdog_s: self.watchdog_s,
            draw_nice: self.draw_nice,
        })
    }

    /// Starts preparing the scene that comes into view within the next second, so its pictures
    /// are loaded and its clips prerolled before drawing needs them.
    fn prepare_ahead(&mut self, frame: i64) {
        let Some(first_use) = &self.first_use else {
            return;
        };
        if self.ahead.is_some() {
            return;
        }
        let soon = frame + self.timeline.rate.frames_for(1.0);
        let next = first_use.iter().position(|&f| f > frame && f <= soon);
        let Some(i) = next.filter(|&i| self.scenes.get(i).is_some_and(Option::is_none)) else {
            return;
        };
        if let Ok(job) = self.scene_job(i) {
            self.ahead = Some(job.spawn());
        }
    }

    /// Frees the scenes that end before `frame`, with their decoders and bitmaps.
    fn release_before(&mut self, frame: i64) {
        for (i, plan) in self.timeline.scenes.iter().enumerate() {
            let last_use = plan.start
                + plan.frames
                + self
                    .timeline
                    .transitions
                    .iter()
                    .filter(|t| t.from == i)
                    .map(|t| t.frames)
                    .max()
                    .unwrap_or(0);
            if last_use < frame
                && let Some(s) = self.scenes.get_mut(i)
                && s.take().is_some()
            {
                trim_heap();
            }
        }
    }

    /// Draws output frame `frame` into `out` (the output size). Returns whether it is the same
    /// picture as the frame this engine drew before (a still scene), which the encoder can repeat.
    pub fn draw(&mut self, frame: i64, out: &mut Bitmap) -> Result<bool, RenderError> {
        self.prepare_ahead(frame);
        let rate = self.timeline.rate;
        let still = match self.timeline.at(frame) {
            None => return Err(RenderError::Rule(format!("frame {frame} is past the end"))),
            Some(FrameSource::Scene { scene, local }) => self
                .scene(scene)?
                .draw(local, rate, out)?
                .map(|k| (scene, k)),
            Some(FrameSource::Transition {
                from,
                transition,
                progress,
                from_local,
                to_local,
            }) => {
                let (mut a, mut b) = std::mem::take(&mut self.scratch);
                let res = (|| {
                    self.scene(from)?.draw(from_local, rate, &mut a)?;
                    self.scene(from + 1)?.draw(to_local, rate, &mut b)?;
                    let comp = reelforge_timeline::composite(transition, progress);
                    compose::transition::apply(out, &a, &b, &comp);
                    Ok(())
                })();
                self.scratch = (a, b);
                res?;
                None
            }
        };
        let same = still.is_some() && still == self.last_still;
        self.last_still = still;
        Ok(same)
    }

    /// Draws output frame `frame` straight into `planes`, tightly packed I420 of the output size,
    /// when it can be drawn so (a scene's frame; `engine::planar`). Returns whether it is the
    /// same picture as the frame drawn before, as [`Engine::draw`] does, or `None`, having
    /// drawn nothing, when the frame must be drawn in RGBA with [`Engine::draw`] (a
    /// transition, a filtered scene, a covering layer that cannot be drawn as planes).
    pub fn draw_i420(
        &mut self,
        frame: i64,
        planes: &mut [u8],
    ) -> Result<Option<bool>, RenderError> {
        let Some(FrameSource::Scene { scene, local }) = self.timeline.at(frame) else {
            return Ok(None);
        };
        if planes.len() != crate::yuv::i420_len(self.size.0, self.size.1) {
            return Ok(None);
        }
        self.prepare_ahead(frame);
        let rate = self.timeline.rate;
        let (w, h) = self.size;
        let mut planar = self
            .planar
            .take()
            .unwrap_or_else(|| planar::Planar::new(w, h));
        let drawn = self
            .scene(scene)
            .and_then(|s| s.draw_planar(local, rate, &mut planar, planes));
        self.planar = Some(planar);
        let Some(still) = drawn? else {
            return Ok(None);
        };
        let still = still.map(|k| (scene, k));
        let same = still.is_some() && still == self.last_still;
        self.last_still = still;
        Ok(Some(same))
    }

    /// Returns the frame showing time `t` seconds (the frame whose span holds `t`).
    pub fn frame_at(&self, t: f64) -> i64 {
        let f = (t * self.timeline.rate.fps() + 1e-6).floor() as i64;
        f.clamp(0, (self.timeline.total_frames - 1).max(0))
    }

    /// Starts mixing the document's audio on its own thread, so decoding the sound overlaps
    /// drawing the first frames instead of holding the encoder back.
    pub fn mixing(&self) -> Mixing {
        let (rule, timeline, materials) = (
            self.rule.clone(),
            self.timeline.clone(),
            self.materials.clone(),
        );
        let (watchdog_s, draw_nice) = (self.watchdog_s, self.draw_nice);
        let thread = std::thread::Builder::new()
            .name("reelforge-mix".to_owned())
            .spawn(move || {
                crate::render::yield_to_encoder(draw_nice);
                let total = timeline.rate.sample_of(timeline.total_frames, SAMPLE_RATE);
                audio::mix(&rule, &timeline, &materials, total, watchdog_s)
            });
        Mixing(thread)
    }

    /// Returns whether the document has any sound source at all.
    pub fn has_audio(&self) -> bool {
        !self.rule.audio.is_empty()
            || self.rule.scenes.iter().any(|s| {
                !s.audio.is_empty()
                    || !s.voice.is_empty()
                    || !s.video_audios.is_empty()
                    || s.layers
                        .iter()
                        .any(|l| matches!(l, Layer::Video(v) if !v.no_audio))
            })
    }

    /// Frees scenes no longer needed once `frame` is drawn.
    pub fn release(&mut self, frame: i64) {
        self.release_before(frame);
    }
}

/// Hands the pages a released scene freed (its pictures, clip frames and cached base) back to
/// the system at once, rather than leaving them to glibc's arenas between scenes.
fn trim_heap() {
    #[cfg(target_env = "gnu")]
    // SAFETY: `malloc_trim` only returns free heap pages to the kernel; it takes no pointers.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The document's audio being mixed on its own thread.
pub struct Mixing(std::io::Result<std::thread::JoinHandle<Result<crate::mix::Mixer, RenderError>>>);

impl Mixing {
    /// Returns whether the mix is done, so [`Mixing::join`] would not wait.
    pub fn is_done(&self) -> bool {
        self.0.as_ref().map_or(true, std::thread::JoinHandle::is_finished)
    }

    /// Waits for the mix.
    pub fn join(self) -> Result<crate::mix::Mixer, RenderError> {
        let thread = self
            .0
            .map_err(|e| RenderError::stage(Stage::Decode, MediaError::Io(e)))?;
        joined(thread.join(), Stage::Decode, "the audio mix")
    }
}

/// Reads what a helper thread returned: a panic there fails the render at `stage`, naming `what`
/// stopped, instead of taking the caller down with it.
pub(crate) fn joined<T>(
    result: std::thread::Result<Result<T, RenderError>>,
    stage: Stage,
    what: &str,
) -> Result<T, RenderError> {
    result.unwrap_or_else(|_| {
        Err(RenderError::stage(
            stage,
            MediaError::Invalid(format!("{what} stopped unexpectedly")),
        ))
    })
}

/// Returns the exact frame at `t` seconds of the document: the same drawing as the video.
pub fn render_frame(rule: &Rule, materials: &Materials, t: f64) -> Result<Bitmap, RenderError> {
    let mut e = Engine::new(rule, materials)?;
    let (w, h) = e.size;
    let mut out = Bitmap::new(w, h);
    let f = e.frame_at(t);
    e.draw(f, &mut out)?;
    Ok(out)
}

/// Writes `b` as a JPEG (quality 90) to `out`.
pub fn write_jpeg(b: &Bitmap, out: &Path) -> Result<(), MediaError> {
    // Frames are opaque, so premultiplied RGB is the plain RGB.
    let rgb: Vec<u8> =
        b.px.chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
    let file = std::io::BufWriter::new(std::fs::File::create(out)?);
    let mut enc = image::codecs::jpeg::JpegEncoder::new_with_quality(file, 90);
    enc.encode(&rgb, b.w, b.h, image::ExtendedColorType::Rgb8)
        .map_err(|e| MediaError::Image(e.to_string()))
}

/// Writes `b` as a PNG to `out`.
pub fn write_png(b: &Bitmap, out: &Path) -> Result<(), MediaError> {
    let rgba: Vec<u8> = b.px.clone();
    image::save_buffer(out, &rgba, b.w, b.h, image::ExtendedColorType::Rgba8)
        .map_err(|e| MediaError::Image(e.to_string()))
}

fn spread(b: &Bitmap) -> u32 {
    // Largest per-channel range over a sparse grid: 0 for a flat (blank) frame.
    let (mut lo, mut hi) = ([255u8; 3], [0u8; 3]);
    for p in b.px.chunks_exact(4).step_by(97) {
        for c in 0..3 {
            lo[c] = lo[c].min(p[c]);
            hi[c] = hi[c].max(p[c]);
        }
    }
    (0..3)
        .map(|c| u32::from(hi[c].saturating_sub(lo[c])))
        .max()
        .unwrap_or(0)
}

/// Writes the cover JPEG: the frame at `at` seconds, or the first meaningful frame (the first
/// of 0.5 s steps over the first scenes that is not a flat colour).
pub fn write_cover(engine: &mut Engine, at: Option<f64>, out: &Path) -> Result<(), RenderError> {
    let (w, h) = engine.size;
    let mut b = Bitmap::new(w, h);
    let candidates: Vec<f64> = match at {
        Some(t) => vec![t],
        None => (0..20).map(|i| 0.5 + f64::from(i) * 0.5).collect(),
    };
    let mut first: Option<Bitmap> = None;
    for t in candidates {
        let f = engine.frame_at(t);
        engine.draw(f, &mut b)?;
        if first.is_none() {
            first = Some(b.clone());
        }
        if at.is_some() || spread(&b) > 24 {
            return write_jpeg(&b, out).map_err(|e| RenderError::stage(Stage::Upload, e));
        }
    }
    let b = first.unwrap_or(b);
    write_jpeg(&b, out).map_err(|e| RenderError::stage(Stage::Upload, e))
}
