//! Rendering a document (or a segment of its scenes) to an MP4 file, with progress, cancel and
//! no partial output: the file is written under a temporary name in the output directory and
//! renamed into place only when complete.
//!
//! Threads: drawing runs on the calling thread; each clip decodes on its own GStreamer
//! streaming thread ahead of drawing (bounded appsink); colour conversion and x264 run on the
//! encoder's threads behind a `queue` (see `encode`), so decode, draw and encode overlap.

use crate::compose::Bitmap;
use crate::decode::SAMPLE_RATE;
use crate::encode::{EncodeSettings, Encoder, crf_for_quality};
use crate::engine::{Engine, write_cover};
use crate::error::{MediaError, RenderError, Stage};
use crate::materials::Materials;
use reelforge_timeline::Rule;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Where a render stands, for progress bars and job events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// The current stage.
    pub stage: Stage,
    /// Frames done in this stage.
    pub done: u64,
    /// Frames in this stage.
    pub total: u64,
}

/// What to render besides the document itself.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Only these scenes (a segment that joins with its neighbours), or all.
    pub scenes: Option<Range<usize>>,
    /// Also write a cover JPEG here.
    pub cover: Option<PathBuf>,
    /// Time of the cover in seconds, or the first meaningful frame.
    pub cover_at: Option<f64>,
    /// The nice value the render's threads start from: x264's threads run at it, the drawing,
    /// the mix and the decoders [`DRAW_NICE`] nicer (at most 19). 0 keeps the caller's. `reelforge
    /// all` renders beside the API on the same cores and sets it (`worker.render_nice`).
    pub nice: i32,
}

/// What a finished render produced.
#[derive(Debug, Clone, PartialEq)]
pub struct RenderReport {
    /// Frames written.
    pub frames: u64,
    /// Output width and height.
    pub size: (u32, u32),
    /// Frame rate `(num, den)`.
    pub fps: (i32, i32),
    /// Duration in seconds.
    pub duration: f64,
    /// The mix's integrated loudness (EBU R128), LUFS; None when the video is silent.
    pub loudness: Option<f64>,
}

/// Renders `rule` with materials from `materials` into `out` (MP4).
///
/// The drawing runs on a thread of its own that yields to the encoder: x264's threads keep the
/// default priority and are the critical path, while drawing, the sound mix and scene
/// preparation run at a lower one and fill the cores x264 leaves idle (see [`DRAW_NICE`]).
pub fn render(
    rule: &Rule,
    materials: &Materials,
    out: &Path,
    opts: &RenderOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
    cancel: &AtomicBool,
) -> Result<RenderReport, RenderError> {
    bound_malloc_arenas();
    std::thread::scope(|s| {
        let drawn = std::thread::Builder::new()
            .name("reelforge-draw".to_owned())
            .spawn_scoped(s, || {
                // This thread is the render's own: every thread of the render inherits its
                // priority, and the caller's (a runtime's pooled thread) is left as it was.
                if opts.nice > 0 {
                    crate::threads::lower_priority(opts.nice.min(MAX_NICE));
                }
                render_here(rule, materials, out, opts, progress, cancel)
            })
            .map_err(|e| RenderError::stage(Stage::Compose, MediaError::Io(e)))?
            .join();
        crate::engine::joined(drawn, Stage::Compose, "the drawing thread")
    })
}

/// How many seconds the sound may lag the pictures while the mix is being made; past that
/// the drawing waits for the mix. The encoder holds the video meanwhile, x264's lookahead
/// included, which it can for longer ([`crate::encode::VIDEO_AHEAD_S`]).
const SOUND_LAG_S: i64 = 1;
const _: () = assert!((SOUND_LAG_S as u64) + 1 < crate::encode::VIDEO_AHEAD_S);

/// Malloc arenas a process that renders keeps ([`bound_malloc_arenas`]).
const MALLOC_ARENAS: i32 = 2;

/// Caps glibc's malloc arenas at [`MALLOC_ARENAS`] for the process, once. A render starts a
/// thread per scene (preparation) and GStreamer a few per clip; glibc gives new threads new
/// arenas (up to 8 per core) and keeps each one's freed pages, so a long render's peak RSS grew
/// with its length: 493 MB for 15 s of 1080×1920, 565–598 MB for 60 s of the same scenes;
/// with two arenas the 60 s render peaks at 481–494 MB in each quarter of its run
/// (`docs/benchmarks.md`, seventh pass). Frames are large allocations made by few threads:
/// the CPU time with two arenas was within the noise of the default.
fn bound_malloc_arenas() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        #[cfg(target_env = "gnu")]
        // SAFETY: `mallopt` only sets an allocator parameter; it takes no pointers.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, MALLOC_ARENAS);
        }
    });
}

/// How much nicer than the encoder the drawing thread (and the threads it starts) runs. With
/// two cores, x264 alone keeps about 1.7 of them busy; at equal priority the drawing competes
/// with x264's frame threads and delays them, while at a lower one it takes the idle time
/// first. Measured on ref-15s: 3–6 % less wall time (`docs/benchmarks.md`).
pub const DRAW_NICE: i32 = 10;

/// The nicest a thread can be on Linux.
const MAX_NICE: i32 = 19;

/// The calling thread's nice value.
pub(crate) fn own_nice() -> i32 {
    // SAFETY: reads the calling thread's priority; takes no pointers.
    unsafe { libc::getpriority(libc::PRIO_PROCESS, 0) }
}

/// The drawing's nice value for a render whose encoder runs at the calling thread's.
pub(crate) fn draw_nice() -> i32 {
    (own_nice() + DRAW_NICE).min(MAX_NICE)
}

/// Lowers the calling thread's priority to `nice` (a thread already that nice or nicer keeps its
/// own); threads it starts afterwards inherit it. Raising the nice value needs no privilege; a
/// failure leaves the priority as it was.
pub(crate) fn yield_to_encoder(nice: i32) {
    crate::threads::lower_priority(nice);
}

fn render_here(
    rule: &Rule,
    materials: &Materials,
    out: &Path,
    opts: &RenderOptions,
    progress: &mut (dyn FnMut(Progress) + Send),
    cancel: &AtomicBool,
) -> Result<RenderReport, RenderError> {
    let started = std::time::Instant::now();
    progress(Progress {
        stage: Stage::Fetch,
        done: 0,
        total: 1,
    });
    let mut engine = Engine::new(rule, materials)?;
    let dir = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    // Same directory as the output, so the final rename is atomic and nothing partial is left.
    let tmp = tempfile::Builder::new()
        .prefix(".reelforge-render-")
        .suffix(".mp4")
        .tempfile_in(dir)
        .map_err(|e| RenderError::stage(Stage::Upload, MediaError::Io(e)))?;
    let (first, last) = match &opts.scenes {
        Some(r) => engine.segment_frames(r.clone()),
        None => (0, engine.total_frames()),
    };
    let total = (last - first).max(0) as u64;
    progress(Progress {
        stage: Stage::Decode,
        done: 0,
        total,
    });
    let rate = engine.timeline.rate;
    let (w, h) = engine.size;
    let settings = EncodeSettings {
        width: w,
        height: h,
        fps: engine.fps(),
        crf: crf_for_quality(rule.video_quality),
        audio_bitrate: 128_000,
        // Silent documents still get a silent track, so segments and players behave alike.
        audio: true,
        watchdog_s: 60,
    };
    // The sound is mixed first of all, on a thread that lowers itself: decoding and measuring
    // it then overlaps the encoder's start instead of holding the drawing back (see below).
    let mut mixing = engine.has_audio().then(|| engine.mixing());
    // The first scene is prepared while the encoder is made (its thread lowers itself): loading
    // the encoder's GStreamer plugins (libav's alone takes ~70 ms) would otherwise hold the first
    // frame back with one core idle.
    engine.prepare_scenes_ahead(first);
    // The encoder's threads start at the default priority before this thread yields; the
    // threads started below (later scenes' clip decoders) inherit the lower one.
    let mut enc =
        Encoder::create(tmp.path(), settings).map_err(|e| RenderError::stage(Stage::Encode, e))?;
    yield_to_encoder(engine.draw_nice);
    let mut mix = None;
    let mut frame = Bitmap::new(w, h);
    let sample_at = |f: i64| rate.sample_of(f, SAMPLE_RATE);
    let mut audio_done = sample_at(first);
    // Per-stage wall time, printed to stderr when REELFORGE_RENDER_TIMING is set.
    let timing = std::env::var_os("REELFORGE_RENDER_TIMING").is_some();
    let mut stage_s = [0f64; 2];
    let setup_s = started.elapsed().as_secs_f64();
    let mut per_scene: Vec<f64> = Vec::new();
    for (n, f) in (first..last).enumerate() {
        if cancel.load(Ordering::Relaxed) {
            return Err(RenderError::Cancelled);
        }
        let t0 = std::time::Instant::now();
        // Drawn straight into I420 where the frame allows it, else in RGBA and converted.
        let mut planes = enc.planes();
        let (same, planar) = match engine.draw_i420(f, &mut planes)? {
            Some(same) => (same, true),
            None => (engine.draw(f, &mut frame)?, false),
        };
        let t1 = std::time::Instant::now();
        // A still frame repeats the last one: no conversion, and x264 meets the same buffer.
        let repeated = same
            && enc
                .push_repeat()
                .map_err(|e| RenderError::stage(Stage::Encode, e))?;
        let pushed = if repeated {
            enc.give_back(planes);
            Ok(())
        } else if planar {
            enc.push_planes(planes)
        } else {
            enc.give_back(planes);
            enc.push_frame(&frame.px)
        };
        pushed.map_err(|e| RenderError::stage(Stage::Encode, e))?;
        let t2 = std::time::Instant::now();
        if timing {
            stage_s[0] += (t1 - t0).as_secs_f64();
            stage_s[1] += (t2 - t1).as_secs_f64();
            let sec = (rate.seconds_of(f)) as usize;
            if per_scene.len() <= sec {
                per_scene.resize(sec + 1, 0.0);
            }
            per_scene[sec] += (t1 - t0).as_secs_f64();
        }
        // Audio goes in step with video (a third of a second at a time) so the muxer interleaves.
        // Until the mix is done the sound may lag the pictures by up to `SOUND_LAG_S`, so the
        // drawing never waits on the mix while x264 is still filling its lookahead.
        let upto = sample_at(f + 1);
        let lag = upto - audio_done;
        let mix_waits = mixing.as_ref().is_some_and(|m| !m.is_done())
            && lag < i64::from(SAMPLE_RATE) * SOUND_LAG_S
            && f + 1 != last;
        if !mix_waits && (lag >= i64::from(SAMPLE_RATE) / 3 || f + 1 == last) {
            if let Some(m) = mixing.take() {
                mix = Some(m.join()?);
            }
            let pcm = match &mix {
                Some(m) => m.slice(audio_done, upto),
                None => vec![0.0; (upto - audio_done).max(0) as usize * crate::decode::CHANNELS],
            };
            enc.push_audio(&pcm)
                .map_err(|e| RenderError::stage(Stage::Encode, e))?;
            audio_done = upto;
        }
        engine.release(f);
        progress(Progress {
            stage: Stage::Compose,
            done: n as u64 + 1,
            total,
        });
    }
    progress(Progress {
        stage: Stage::Mux,
        done: total,
        total,
    });
    let t3 = std::time::Instant::now();
    let pushed_samples = enc.samples();
    let finished = enc.finish();
    if timing {
        eprintln!(
            "timing: setup {setup_s:.3}s, draw {:.3}s, push (waiting on encoder) {:.3}s, finish {:.3}s; draw per second of video: {}",
            stage_s[0],
            stage_s[1],
            t3.elapsed().as_secs_f64(),
            per_scene
                .iter()
                .map(|s| format!("{:.0}ms", s * 1000.0))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    finished.map_err(|e| RenderError::stage(Stage::Mux, e))?;
    crate::mp4edit::hide_priming(tmp.path(), pushed_samples, u64::from(SAMPLE_RATE))
        .map_err(|e| RenderError::stage(Stage::Mux, e))?;
    if cancel.load(Ordering::Relaxed) {
        return Err(RenderError::Cancelled);
    }
    if let Some(cover) = &opts.cover {
        write_cover(&mut engine, opts.cover_at, cover)?;
    }
    progress(Progress {
        stage: Stage::Upload,
        done: 0,
        total: 1,
    });
    tmp.persist(out)
        .map_err(|e| RenderError::stage(Stage::Upload, MediaError::Io(e.error)))?;
    progress(Progress {
        stage: Stage::Upload,
        done: 1,
        total: 1,
    });
    Ok(RenderReport {
        frames: total,
        size: (w, h),
        fps: engine.fps(),
        duration: rate.seconds_of(last - first),
        loudness: mix.as_ref().and_then(crate::mix::Mixer::loudness),
    })
}
