//! Test media made with GStreamer, for this crate's tests and those of the worker and gateway that
//! run tools: a clip's recipe (picture, sound or both), and a decode of a file's frames to measure
//! what a tool made against its source.

use std::path::{Path, PathBuf};

use gstreamer as gst;
use gstreamer::prelude::*;

use crate::error::ToolError;
use crate::gst_run::{PICTURES, app_sink, element, launch};

/// A test clip's recipe; the default is a 320×180, 25 fps, 4 s clip with a 997 Hz tone.
#[derive(Debug, Clone)]
pub struct Clip {
    /// Width, pixels.
    pub width: u32,
    /// Height, pixels.
    pub height: u32,
    /// Frames per second.
    pub fps: u32,
    /// Length, seconds.
    pub seconds: f64,
    /// videotestsrc's pattern and any extra properties, e.g. `smpte horizontal-speed=4`;
    /// `None` makes a sound-only clip (an `.m4a`).
    pub pattern: Option<&'static str>,
    /// Whether the clip has sound.
    pub sound: bool,
    /// The tone's frequency, Hz.
    pub tone: u32,
    /// A still high-contrast mark drawn over the picture (concentric rings, as sharp as a
    /// watermark's lettering): its box `(x, y, width, height)`.
    pub mark: Option<(u32, u32, u32, u32)>,
    /// A caption burnt in near the bottom of the picture (white text, outlined), as subtitles are.
    pub caption: Option<&'static str>,
    /// B-frames between references (x264's `bframes`): pictures decoded out of their order.
    pub bframes: u32,
}

impl Default for Clip {
    fn default() -> Self {
        Self {
            width: 320,
            height: 180,
            fps: 25,
            seconds: 4.0,
            pattern: Some("smpte horizontal-speed=4"),
            sound: true,
            tone: 997,
            mark: None,
            caption: None,
            bframes: 0,
        }
    }
}

/// The AAC encoder this machine has.
fn aac() -> &'static str {
    if gst::ElementFactory::find("voaacenc").is_some() { "voaacenc" } else { "avenc_aac" }
}

impl Clip {
    /// Encodes the clip into `dir/name` and returns its path.
    pub fn make(&self, dir: &Path, name: &str) -> Result<PathBuf, ToolError> {
        gst::init()?;
        let path = dir.join(name);
        let frames = (self.seconds * f64::from(self.fps)).round() as u32;
        let (w, h, fps, bframes) = (self.width, self.height, self.fps, self.bframes);
        let mark = match self.mark {
            Some((x, y, mw, mh)) => format!(
                " ! mix.sink_0 videotestsrc num-buffers={frames} pattern=circular \
                 ! video/x-raw,format=I420,width={mw},height={mh},framerate={fps}/1 ! mix.sink_1 \
                 compositor name=mix sink_1::xpos={x} sink_1::ypos={y} ! videoconvert"
            ),
            None => String::new(),
        };
        let caption = match self.caption {
            // The text is the test's own constant: no quote inside it.
            Some(text) => format!(" ! textoverlay text=\"{text}\" valignment=bottom halignment=center font-desc=\"Sans Bold 12\""),
            None => String::new(),
        };
        let video = match self.pattern {
            Some(pattern) => format!(
                "videotestsrc num-buffers={frames} pattern={pattern} ! video/x-raw,format=I420,width={w},height={h},framerate={fps}/1{mark}{caption} \
                 ! videoconvert ! video/x-raw,format=I420,width={w},height={h} ! x264enc speed-preset=ultrafast bframes={bframes} key-int-max=50 ! queue ! "
            ),
            None => String::new(),
        };
        let sound = if self.sound {
            // 10 ms buffers, so the sound lasts exactly as long as the pictures.
            format!(
                " audiotestsrc num-buffers={} samplesperbuffer=480 wave=sine freq={} volume=0.3 \
                 ! audio/x-raw,rate=48000,channels=2 ! audioconvert ! {} ! queue ! mux.",
                (self.seconds * 100.0).round() as u32,
                self.tone,
                aac()
            )
        } else {
            String::new()
        };
        let description = format!("{video}mp4mux name=mux faststart=true ! filesink name=sink{sound}");
        let running = launch(&description, None, Some(&path))?;
        crate::gst_run::play(&running, &std::sync::atomic::AtomicBool::new(false), &mut |_| {})?;
        Ok(path)
    }
}

/// The frames of the video at `path` as 8-bit luma at its own size, with their times in
/// milliseconds.
pub fn luma_frames(path: &Path) -> Result<Vec<(u64, Vec<u8>)>, ToolError> {
    let running = launch(
        &format!("filesrc name=src ! decodebin name=d {PICTURES} ! queue ! videoconvert ! video/x-raw,format=GRAY8 ! appsink name=out sync=false"),
        Some(path),
        None,
    )?;
    let sink = app_sink(&running.0, "out")?;
    running.0.set_state(gst::State::Playing)?;
    let mut frames = Vec::new();
    while let Ok(sample) = sink.pull_sample() {
        let caps = sample.caps().and_then(|c| c.structure(0).map(|s| (s.get::<i32>("width"), s.get::<i32>("height"))));
        let Some((Ok(w), Ok(h))) = caps else { continue };
        let Some(buffer) = sample.buffer() else { continue };
        let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
        // GRAY8 rows are padded to 4 bytes.
        let (w, h) = (usize::try_from(w).unwrap_or(0), usize::try_from(h).unwrap_or(0));
        let stride = w.div_ceil(4) * 4;
        let luma: Vec<u8> = (0..h).flat_map(|y| map.get(y * stride..y * stride + w).unwrap_or_default().to_vec()).collect();
        frames.push((buffer.pts().map_or(0, gst::ClockTime::mseconds), luma));
    }
    Ok(frames)
}

/// The peak signal-to-noise ratio of two 8-bit pictures of one size, dB (infinite when equal).
pub fn psnr(a: &[u8], b: &[u8]) -> f64 {
    let n = a.len().min(b.len()).max(1) as f64;
    let mse: f64 = a.iter().zip(b).map(|(x, y)| (f64::from(*x) - f64::from(*y)).powi(2)).sum::<f64>() / n;
    if mse == 0.0 { f64::INFINITY } else { 10.0 * (255.0f64 * 255.0 / mse).log10() }
}

/// Writes a `width`×`height` PNG of SMPTE bars into `dir/name` and returns its path.
pub fn picture(dir: &Path, name: &str, width: u32, height: u32) -> Result<PathBuf, ToolError> {
    let path = dir.join(name);
    let description = format!(
        "videotestsrc num-buffers=1 pattern=smpte ! video/x-raw,width={width},height={height} ! videoconvert ! pngenc ! filesink name=sink"
    );
    let running = launch(&description, None, Some(&path))?;
    crate::gst_run::play(&running, &std::sync::atomic::AtomicBool::new(false), &mut |_| {})?;
    Ok(path)
}

/// The amplitude of each of `freqs` (Hz) in the sound of the file at `path` (its channels mixed
/// down), averaged over 100 ms blocks: a tone at full scale reads 1.
pub fn tone_levels(path: &Path, freqs: &[f64]) -> Result<Vec<f64>, ToolError> {
    levels(path, None, freqs)
}

/// The amplitude of each of `freqs` (Hz) in channel `channel` (0 left, 1 right) of the sound at `path`.
pub fn channel_tone_levels(path: &Path, channel: usize, freqs: &[f64]) -> Result<Vec<f64>, ToolError> {
    levels(path, Some(channel.min(1)), freqs)
}

/// The levels of `freqs` in one channel of the sound at `path`, or in its mix down when `None`.
fn levels(path: &Path, channel: Option<usize>, freqs: &[f64]) -> Result<Vec<f64>, ToolError> {
    const RATE: usize = 48_000;
    const BLOCK: usize = RATE / 10;
    let channels = if channel.is_some() { 2 } else { 1 };
    let running = launch(
        &format!(
            "filesrc name=src ! decodebin name=d d. ! audio/x-raw ! queue ! audioconvert ! audioresample \
             ! audio/x-raw,format=F32LE,layout=interleaved,rate=48000,channels={channels} ! appsink name=out sync=false"
        ),
        Some(path),
        None,
    )?;
    crate::gst_run::sound_only(&running.0, "d")?;
    let sink = app_sink(&running.0, "out")?;
    running.0.set_state(gst::State::Playing)?;
    let at = channel.unwrap_or(0) * 4;
    let mut samples: Vec<f32> = Vec::new();
    while let Ok(sample) = sink.pull_sample() {
        let Some(buffer) = sample.buffer() else { continue };
        let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
        samples.extend(map.chunks_exact(4 * channels).map(|b| f32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])));
    }
    let blocks: Vec<&[f32]> = samples.chunks_exact(BLOCK).collect();
    let n = blocks.len().max(1) as f64;
    Ok(freqs.iter().map(|f| blocks.iter().map(|b| goertzel(b, *f, RATE as f64)).sum::<f64>() / n).collect())
}

/// The amplitude of the `freq` component of `block` (Goertzel's algorithm).
fn goertzel(block: &[f32], freq: f64, rate: f64) -> f64 {
    let w = 2.0 * std::f64::consts::PI * freq / rate;
    let coeff = 2.0 * w.cos();
    let (mut s1, mut s2) = (0.0f64, 0.0f64);
    for x in block {
        let s0 = f64::from(*x) + coeff * s1 - s2;
        s2 = s1;
        s1 = s0;
    }
    let power = s1 * s1 + s2 * s2 - coeff * s1 * s2;
    2.0 * power.max(0.0).sqrt() / block.len().max(1) as f64
}

/// Encodes a 320×180 video of `segments` (videotestsrc's pattern and any properties, frames), one
/// after another at `fps`, without sound, into `dir/name`: a clip whose scene changes are known.
pub fn scenes(dir: &Path, name: &str, segments: &[(&str, u32)], fps: u32) -> Result<PathBuf, ToolError> {
    gst::init()?;
    let path = dir.join(name);
    let parts: String = segments
        .iter()
        .map(|(pattern, frames)| {
            format!(" videotestsrc num-buffers={frames} pattern={pattern} ! video/x-raw,format=I420,width=320,height=180,framerate={fps}/1 ! c.")
        })
        .collect();
    let description = format!("concat name=c ! x264enc speed-preset=ultrafast key-int-max=50 ! mp4mux faststart=true ! filesink name=sink{parts}");
    let running = launch(&description, None, Some(&path))?;
    crate::gst_run::play(&running, &std::sync::atomic::AtomicBool::new(false), &mut |_| {})?;
    Ok(path)
}

/// Encodes `frames` (one picture's bytes each, in the caps of `description`'s `appsrc` named
/// `src`, `frame_ms` apart) through `description`, whose `filesink` named `sink` writes `path`: a
/// clip drawn pixel by pixel, where what a tool must find in it is known exactly.
pub fn encode_frames(description: &str, path: &Path, frames: impl IntoIterator<Item = Vec<u8>>, frame_ms: u64) -> Result<(), ToolError> {
    gst::init()?;
    let running = launch(description, None, Some(path))?;
    let src = element(&running.0, "src")?
        .downcast::<gstreamer_app::AppSrc>()
        .map_err(|_| ToolError::Gst("src is not an appsrc".to_owned()))?;
    running.0.set_state(gst::State::Playing)?;
    for (f, data) in (0u64..).zip(frames) {
        let mut buffer = gst::Buffer::from_slice(data);
        if let Some(b) = buffer.get_mut() {
            b.set_pts(gst::ClockTime::from_mseconds(f * frame_ms));
            b.set_duration(gst::ClockTime::from_mseconds(frame_ms));
        }
        src.push_buffer(buffer).map_err(|e| ToolError::Gst(format!("frame {f} was not taken: {e:?}")))?;
    }
    src.end_of_stream().map_err(|e| ToolError::Gst(format!("the end was not taken: {e:?}")))?;
    crate::gst_run::play(&running, &std::sync::atomic::AtomicBool::new(false), &mut |_| {})
}

/// Encodes `seconds` of sound into `dir/name` (`.m4a`): a `centre` Hz tone the same in both
/// channels and, where given, a `left` Hz tone in the left channel alone, each at amplitude 0.25;
/// with `mono`, the centre tone alone in one channel.
pub fn stereo_mix(dir: &Path, name: &str, centre: u32, left: Option<u32>, mono: bool, seconds: f64) -> Result<PathBuf, ToolError> {
    gst::init()?;
    let path = dir.join(name);
    let buffers = (seconds * 100.0).round() as u32;
    let tone = |freq: u32| format!("audiotestsrc num-buffers={buffers} samplesperbuffer=480 wave=sine freq={freq} volume=0.25 ! audio/x-raw,rate=48000,channels=1");
    let channels = if mono { 1 } else { 2 };
    let panned = match left {
        Some(freq) => format!(" {} ! audiopanorama method=simple panorama=-1 ! audioconvert ! m.", tone(freq)),
        None => String::new(),
    };
    let description = format!(
        "audiomixer name=m ! audioconvert ! audio/x-raw,channels={channels} ! {} ! mp4mux faststart=true ! filesink name=sink \
         {} ! audioconvert ! audio/x-raw,channels={channels} ! m.{panned}",
        aac(),
        tone(centre)
    );
    let running = launch(&description, None, Some(&path))?;
    crate::gst_run::play(&running, &std::sync::atomic::AtomicBool::new(false), &mut |_| {})?;
    Ok(path)
}


/// A picture file's (PNG, JPEG…) size and its pixels as packed RGB.
pub fn picture_rgb(bytes: &[u8]) -> Result<(u32, u32, Vec<u8>), ToolError> {
    let rgb = image::load_from_memory(bytes).map_err(|e| ToolError::Failed(format!("reading a picture: {e}")))?.to_rgb8();
    Ok((rgb.width(), rgb.height(), rgb.into_raw()))
}

/// The mean red, green and blue of packed RGB, 0–255.
pub fn mean_rgb(rgb: &[u8]) -> [f64; 3] {
    let n = (rgb.len() / 3).max(1) as f64;
    let mut sum = [0.0; 3];
    for px in rgb.chunks_exact(3) {
        for (s, v) in sum.iter_mut().zip(px) {
            *s += f64::from(*v);
        }
    }
    sum.map(|s| s / n)
}

/// The luma (BT.601, full range) of packed RGB, as [`luma_frames`] gives a frame's.
pub fn rgb_luma(rgb: &[u8]) -> Vec<u8> {
    rgb.chunks_exact(3).map(|p| (0.299 * f64::from(p[0]) + 0.587 * f64::from(p[1]) + 0.114 * f64::from(p[2])).round().clamp(0.0, 255.0) as u8).collect()
}

/// Writes `samples` (−1 to 1) as a 16-bit mono WAV of `rate` Hz into `dir/name`.
pub fn write_wav(dir: &Path, name: &str, rate: u32, samples: &[f32]) -> Result<PathBuf, ToolError> {
    let path = dir.join(name);
    let data = u32::try_from(samples.len() * 2).map_err(|e| ToolError::Failed(e.to_string()))?;
    let mut bytes = Vec::with_capacity(44 + samples.len() * 2);
    bytes.extend_from_slice(b"RIFF");
    bytes.extend_from_slice(&(36 + data).to_le_bytes());
    bytes.extend_from_slice(b"WAVEfmt ");
    for v in [16u32.to_le_bytes().as_slice(), &1u16.to_le_bytes(), &1u16.to_le_bytes(), &rate.to_le_bytes(), &(rate * 2).to_le_bytes(), &2u16.to_le_bytes(), &16u16.to_le_bytes()] {
        bytes.extend_from_slice(v);
    }
    bytes.extend_from_slice(b"data");
    bytes.extend_from_slice(&data.to_le_bytes());
    for s in samples {
        bytes.extend_from_slice(&((s.clamp(-1.0, 1.0) * 32767.0).round() as i16).to_le_bytes());
    }
    std::fs::write(&path, bytes)?;
    Ok(path)
}

/// The sound of the file at `path` decoded to mono 48 kHz samples.
pub fn mono_samples(path: &Path) -> Result<Vec<f32>, ToolError> {
    let running = launch(
        "filesrc name=src ! decodebin name=d d. ! audio/x-raw ! queue ! audioconvert ! audioresample \
         ! audio/x-raw,format=F32LE,layout=interleaved,rate=48000,channels=1 ! appsink name=out sync=false",
        Some(path),
        None,
    )?;
    crate::gst_run::sound_only(&running.0, "d")?;
    let sink = app_sink(&running.0, "out")?;
    running.0.set_state(gst::State::Playing)?;
    let mut samples = Vec::new();
    while let Ok(sample) = sink.pull_sample() {
        let Some(buffer) = sample.buffer() else { continue };
        let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
        samples.extend(map.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
    }
    Ok(samples)
}

/// A noisy tone at 48 kHz, `seconds` long: white noise of deviation `noise` throughout and, from
/// 1 s on, beeps of a 440 Hz tone of amplitude `tone`, 600 ms on and 600 ms off (a steady tone
/// would be taken for noise by a suppressor that learns the noise in the pauses).
pub fn noisy_beeps(seconds: f64, tone: f32, noise: f32) -> Vec<f32> {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    // A uniform variable of deviation 1 is ±√3.
    let half = noise * 3f32.sqrt();
    (0..(seconds * 48_000.0) as usize)
        .map(|i| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let u = (seed >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0;
            let t = i as f64 / 48_000.0;
            let on = beep_on(t);
            let v = if on { tone * (2.0 * std::f64::consts::PI * 440.0 * t).sin() as f32 } else { 0.0 };
            v + u * half
        })
        .collect()
}

/// Whether [`noisy_beeps`]' tone sounds at `t` seconds.
fn beep_on(t: f64) -> bool {
    t >= 1.0 && ((t - 1.0) / 0.6).floor() as i64 % 2 == 0
}

/// The signal-to-noise ratio (dB) of [`noisy_beeps`]' tone in `samples` (48 kHz) from 2 s on: the
/// tone's power (a 440 Hz sine fitted to each 20 ms block of the beeps) over the power of what is
/// left (the blocks of the beeps less their fitted tone, and the pauses), blocks within 100 ms of a
/// beep's start or end left out (the suppressor's gain moves there).
pub fn beeps_snr_db(samples: &[f32]) -> f64 {
    const RATE: f64 = 48_000.0;
    let block = (RATE * 0.02) as usize;
    let (mut tone, mut tone_n, mut rest, mut rest_n) = (0f64, 0f64, 0f64, 0f64);
    for (k, b) in samples.chunks_exact(block).enumerate() {
        let (start, end) = (k as f64 * 0.02, (k + 1) as f64 * 0.02);
        let phase = (start - 1.0).rem_euclid(0.6);
        if start < 2.0 || phase < 0.1 || phase + 0.02 > 0.5 || beep_on(start) != beep_on(end - 1e-6) {
            continue;
        }
        let (mut c, mut s) = (0.0, 0.0);
        let w = |i: usize| 2.0 * std::f64::consts::PI * 440.0 * (start + i as f64 / RATE);
        for (i, x) in b.iter().enumerate() {
            c += f64::from(*x) * w(i).cos();
            s += f64::from(*x) * w(i).sin();
        }
        let on = beep_on(start);
        let (a, bb) = if on { (2.0 * c / block as f64, 2.0 * s / block as f64) } else { (0.0, 0.0) };
        let residual: f64 = b.iter().enumerate().map(|(i, x)| (f64::from(*x) - a * w(i).cos() - bb * w(i).sin()).powi(2)).sum::<f64>() / block as f64;
        if on {
            tone += (a * a + bb * bb) / 2.0;
            tone_n += 1.0;
        }
        rest += residual;
        rest_n += 1.0;
    }
    10.0 * ((tone / tone_n.max(1.0)) / (rest / rest_n.max(1.0)).max(1e-12)).log10()
}
