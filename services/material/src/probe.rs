//! Probing an uploaded file with GStreamer: the Discoverer for duration, size, frame rate,
//! rotation, audio and codec; a decoding pipeline for the cover and the filmstrip (frames through
//! `videoflip video-direction=auto`, so a rotated phone video is shown upright); and one for the
//! audio's waveform peaks and loudness. HEIF/HEIC and AVIF pictures, which GStreamer cannot read,
//! go through libheif. Before any of that, `inspect` decides whether an upload is accepted at all.
//! Everything here blocks: run it on a blocking thread.
//!
//! Frame pipeline: `uridecodebin → videoflip → videoconvert → videoscale → RGBA at the wanted size
//! → appsink`, prerolled in Paused and seeked (flush, accurate) for each frame.
//! Audio pipeline: `uridecodebin → audioconvert → audioresample → mono F32LE 8 kHz → appsink`,
//! pulled to the end; only per-10 ms peaks and running sums are kept, never the samples.

use std::path::Path;

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use gstreamer_pbutils as pbutils;
use gstreamer_pbutils::prelude::*;

use crate::domain::{self, MaterialError, MaterialKind, Probed};

/// Seconds any one wait (discovery, preroll, a sample) may take before the file counts as broken.
const WATCHDOG_S: u64 = 20;
/// Frames in a filmstrip sprite.
pub const FILMSTRIP_FRAMES: u32 = 10;
/// Height of a filmstrip frame, pixels.
pub const FILMSTRIP_HEIGHT: u32 = 90;
/// Widest cover, pixels.
const COVER_MAX: u32 = 480;
/// Peaks in a waveform file.
pub const WAVEFORM_PEAKS: usize = 1000;
const AUDIO_RATE: usize = 8000;
/// Samples per stored peak block (10 ms).
const BLOCK: usize = AUDIO_RATE / 100;
/// Loudness written for digital silence, which has no finite dB value.
const FLOOR_DB: f64 = -200.0;

/// Longest side of a picture's preview, pixels: a browser shows it scaled anyway.
const PREVIEW_MAX: u32 = 4096;

/// Transcodes the video at `src` into an upright H.264/AAC MP4 at `out` (at most 720 lines, the
/// original's rate) for the browser; `has_audio` adds the AAC track. Waits at most four times the duration.
pub fn preview(src: &Path, out: &Path, has_audio: bool, duration: f64) -> Result<(), String> {
    gst::init().map_err(|e| format!("GStreamer: {e}"))?;
    let uri = gst::glib::filename_to_uri(std::path::absolute(src).map_err(|e| e.to_string())?, None)
        .map_err(|e| e.to_string())?
        .to_string();
    // Each branch starts with a queue, which answers caps queries from downstream, so the delayed
    // link from uridecodebin takes only the pad of its kind.
    // The preview is upright (the original's turn applied): mp4mux writes no turn of its own.
    let mut description = "uridecodebin name=src src. ! queue ! videoflip video-direction=auto ! videoconvert ! videoscale ! \
         video/x-raw,format=I420,height=[2,720],pixel-aspect-ratio=1/1 ! x264enc speed-preset=veryfast bitrate=2000 ! \
         video/x-h264,profile=main ! h264parse ! queue ! mux. mp4mux name=mux faststart=true ! filesink name=sink"
        .to_owned();
    if has_audio {
        description.push_str(" src. ! queue ! audioconvert ! audioresample ! avenc_aac ! aacparse ! queue ! mux.");
    }
    let pipeline = gst::parse::launch(&description)
        .map_err(|e| format!("GStreamer: {e}"))?
        .downcast::<gst::Pipeline>()
        .map_err(|_| "GStreamer: not a pipeline".to_owned())?;
    let running = Running(pipeline);
    running.0.by_name("src").ok_or("GStreamer: no source")?.set_property("uri", uri);
    let location = out.to_str().ok_or("preview path is not UTF-8")?;
    running.0.by_name("sink").ok_or("GStreamer: no sink")?.set_property("location", location);
    running.0.set_state(gst::State::Playing).map_err(|_| "cannot transcode the file".to_owned())?;
    let bus = running.0.bus().ok_or("GStreamer: no bus")?;
    let limit = (duration * 4.0).max(60.0) as u64;
    let msg = bus
        .timed_pop_filtered(gst::ClockTime::from_seconds(limit), &[gst::MessageType::Eos, gst::MessageType::Error])
        .ok_or_else(|| format!("the preview took longer than {limit} s"))?;
    match msg.view() {
        gst::MessageView::Error(e) => Err(format!("cannot transcode the file: {}", e.error().message())),
        _ => Ok(()),
    }
}

/// What probing made: the facts, and the derived files' bytes.
#[derive(Debug, Default)]
pub struct ProbeOutput {
    /// The facts (keys are left empty: the caller stores the files).
    pub probed: Probed,
    /// The cover, JPEG.
    pub cover: Option<Vec<u8>>,
    /// The filmstrip sprite, JPEG.
    pub filmstrip: Option<Vec<u8>>,
    /// The waveform peaks, a JSON array of numbers in 0..=1.
    pub waveform: Option<String>,
    /// A picture's browser preview and its file name (`preview.jpg`, or `preview.png` with alpha).
    pub preview: Option<(Vec<u8>, &'static str)>,
    /// Whether the video needs an H.264 preview (its container or its codec is not played by
    /// browsers).
    pub transcode: bool,
}

fn uri_of(path: &Path) -> Result<String, String> {
    gst::init().map_err(|e| format!("GStreamer: {e}"))?;
    Ok(gst::glib::filename_to_uri(std::path::absolute(path).map_err(|e| e.to_string())?, None)
        .map_err(|e| e.to_string())?
        .to_string())
}

/// Decides whether the upload at `path` (kind `kind`, extension `ext`) is accepted: it must decode
/// as what it claims to be, within the limits. Pictures are decoded whole (header and dimensions
/// first, the pixel count checked before the pixels), GIFs frame by frame (counting frames), videos
/// and audio prerolled through their decoders (their streams, duration and frame size within
/// `media`), pptx files as OOXML packages.
pub fn inspect(path: &Path, kind: MaterialKind, ext: &str, media: &domain::MediaLimits) -> Result<(), MaterialError> {
    match kind {
        MaterialKind::Picture if domain::HEIF_EXTENSIONS.contains(&ext) => heif(path).map(|_| ()),
        MaterialKind::Picture => inspect_picture(path, ext),
        MaterialKind::Gif => inspect_gif(path),
        MaterialKind::Video | MaterialKind::Audio => {
            let p = preroll(path).map_err(MaterialError::unreadable)?;
            if p.streams > media.streams {
                return Err(MaterialError::too_large(format!(
                    "the file has {} streams, more than {} (upload.media_max_streams)",
                    p.streams, media.streams
                )));
            }
            if kind == MaterialKind::Audio && !p.audio {
                return Err(MaterialError::unreadable("the file has no audio stream"));
            }
            if kind == MaterialKind::Video {
                let Some((w, h)) = p.video else {
                    return Err(MaterialError::unreadable("the file has no video stream"));
                };
                if u64::from(w) * u64::from(h) > media.video_pixels {
                    return Err(MaterialError::too_large(format!(
                        "the video's frames are {w}x{h}, more than {} pixels (upload.video_max_pixels, 8K is 7680x4320)",
                        media.video_pixels
                    )));
                }
            }
            // In push mode an MPEG program stream has no duration yet: the Discoverer reads it then.
            let seconds = match p.seconds {
                Some(s) => s,
                None => discover(&uri_of(path).map_err(MaterialError::unreadable)?).map_err(MaterialError::unreadable)?.probed.duration,
            };
            if seconds > media.seconds as f64 {
                return Err(MaterialError::too_large(format!(
                    "the file lasts {seconds:.0} s, more than {} s (upload.media_max_seconds)",
                    media.seconds
                )));
            }
            Ok(())
        }
        MaterialKind::Pptx => {
            let file = std::fs::File::open(path).map_err(|e| MaterialError::unreadable(format!("reading the upload: {e}")))?;
            reelforge_kit::ooxml::check(std::io::BufReader::new(file), reelforge_kit::ooxml::Package::Presentation, &domain::PPTX_LIMITS)
                .map_err(|e| if e.is_limit() { MaterialError::too_large(e.to_string()) } else { MaterialError::unreadable(e.to_string()) })
        }
        other => Err(MaterialError::Invalid(format!("type: `{}` is not uploaded", other.as_str()))),
    }
}

fn too_many_pixels(w: u64, h: u64) -> MaterialError {
    MaterialError::too_large(format!("the picture is {w}x{h} pixels, more than {} million", domain::MAX_PICTURE_PIXELS / 1_000_000))
}

/// Decodes a picture in the format its extension names (not a guessed one).
fn inspect_picture(path: &Path, ext: &str) -> Result<(), MaterialError> {
    let format = image::ImageFormat::from_extension(ext).ok_or_else(|| MaterialError::unreadable(format!("`{ext}` is not a picture format")))?;
    let unreadable = |e: image::ImageError| match e {
        image::ImageError::Limits(l) => MaterialError::too_large(format!("the picture is too large to decode: {l}")),
        other => MaterialError::unreadable(format!("the picture cannot be decoded: {other}")),
    };
    let reader = || -> Result<_, MaterialError> {
        let mut r = image::ImageReader::open(path).map_err(|e| MaterialError::unreadable(format!("reading the upload: {e}")))?;
        r.set_format(format);
        Ok(r)
    };
    // The header alone first (no limits apply to reading it), so the refusal names the size.
    let mut header = reader()?;
    header.no_limits();
    let (w, h) = header.into_dimensions().map_err(unreadable)?;
    if w == 0 || h == 0 {
        return Err(MaterialError::unreadable("the picture has no pixels"));
    }
    if u64::from(w) * u64::from(h) > domain::MAX_PICTURE_PIXELS {
        return Err(too_many_pixels(u64::from(w), u64::from(h)));
    }
    // Then every pixel, under the decoder's default memory limit.
    reader()?.decode().map_err(unreadable)?;
    Ok(())
}

/// Reads every frame of a GIF (decompressing it, not expanding it to RGBA), counting frames and
/// the pixels decoding it whole would make.
fn inspect_gif(path: &Path) -> Result<(), MaterialError> {
    let file = std::fs::File::open(path).map_err(|e| MaterialError::unreadable(format!("reading the upload: {e}")))?;
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let unreadable = |e: gif::DecodingError| MaterialError::unreadable(format!("the GIF cannot be decoded: {e}"));
    let mut decoder = options.read_info(std::io::BufReader::new(file)).map_err(unreadable)?;
    let (w, h) = (u64::from(decoder.width()), u64::from(decoder.height()));
    if w == 0 || h == 0 {
        return Err(MaterialError::unreadable("the GIF has no pixels"));
    }
    if w * h > domain::MAX_PICTURE_PIXELS {
        return Err(too_many_pixels(w, h));
    }
    let mut frames = 0usize;
    while decoder.read_next_frame().map_err(unreadable)?.is_some() {
        frames += 1;
        if frames > domain::MAX_GIF_FRAMES {
            return Err(MaterialError::too_large(format!("the GIF has more than {} frames", domain::MAX_GIF_FRAMES)));
        }
        if frames as u64 * w * h > domain::MAX_GIF_PIXELS {
            return Err(MaterialError::too_large(format!(
                "the GIF's {frames} frames of {w}x{h} are more than {} million pixels to decode",
                domain::MAX_GIF_PIXELS / 1_000_000
            )));
        }
    }
    if frames == 0 {
        return Err(MaterialError::unreadable("the GIF has no frames"));
    }
    Ok(())
}

/// Decodes a HEIF/HEIC or AVIF picture through libheif, within the pixel limit.
fn heif(path: &Path) -> Result<reelforge_heif::Picture, MaterialError> {
    let bytes = std::fs::read(path).map_err(|e| MaterialError::unreadable(format!("reading the upload: {e}")))?;
    reelforge_heif::decode(&bytes, domain::MAX_PICTURE_PIXELS).map_err(|e| match e {
        reelforge_heif::HeifError::TooLarge { width, height, .. } => too_many_pixels(u64::from(width), u64::from(height)),
        other => MaterialError::unreadable(format!("the picture cannot be decoded: {other}")),
    })
}

/// Probes a HEIF/HEIC or AVIF picture: size, cover and, when browsers need one, a preview.
fn probe_heif(path: &Path, ext: &str) -> Result<ProbeOutput, String> {
    let pic = heif(path).map_err(|e| e.to_string())?;
    let rgba = image::RgbaImage::from_raw(pic.width, pic.height, pic.rgba).ok_or("a picture of the wrong size")?;
    let mut out = ProbeOutput { cover: Some(cover_of(&rgba)?), ..ProbeOutput::default() };
    out.probed.width = i32::try_from(rgba.width()).map_err(|e| e.to_string())?;
    out.probed.height = i32::try_from(rgba.height()).map_err(|e| e.to_string())?;
    out.probed.codec = if ext == "avif" { "AVIF (AV1)" } else { "HEIF (HEVC)" }.to_owned();
    if domain::PICTURE_NEEDS_PREVIEW.contains(&ext) {
        out.preview = Some(picture_preview(rgba, pic.has_alpha)?);
    }
    Ok(out)
}

/// A picture browsers show: at most [`PREVIEW_MAX`] pixels on its longest side, JPEG, or PNG when
/// it has alpha.
fn picture_preview(rgba: image::RgbaImage, has_alpha: bool) -> Result<(Vec<u8>, &'static str), String> {
    let (bytes, ext) = reelforge_pixels::still::preview(rgba, has_alpha, PREVIEW_MAX).map_err(|e| format!("preview: {e}"))?;
    Ok((bytes, if ext == "png" { "preview.png" } else { "preview.jpg" }))
}

/// Probes the file at `path` of kind `kind` and extension `ext`; the error is the reason shown to
/// the user.
pub fn probe_file(path: &Path, kind: MaterialKind, ext: &str) -> Result<ProbeOutput, String> {
    if kind == MaterialKind::Picture && domain::HEIF_EXTENSIONS.contains(&ext) {
        return probe_heif(path, ext);
    }
    let uri = uri_of(path)?;
    let found = discover(&uri)?;
    let mut out = ProbeOutput { probed: found.probed, ..ProbeOutput::default() };
    out.transcode = kind == MaterialKind::Video
        && (domain::VIDEO_NEEDS_PREVIEW.contains(&ext) || !domain::PLAYABLE_VIDEO_CODECS.contains(&found.video_caps.as_str()));
    let p = &mut out.probed;
    match kind {
        MaterialKind::Video => {
            if p.width <= 0 || p.height <= 0 {
                return Err("the file has no video stream".into());
            }
            if p.duration <= 0.0 {
                return Err("the video has no duration".into());
            }
            let (w, h) = upright(p);
            let at = if p.duration > 1.5 { 1.0 } else { 0.0 };
            let cover = grab(&uri, &[at], fit(w, h, COVER_MAX))?;
            out.cover = Some(reelforge_pixels::still::jpeg(&cover[0])?);
            let n = FILMSTRIP_FRAMES;
            let times: Vec<f64> = (0..n).map(|i| p.duration * (f64::from(i) + 0.5) / f64::from(n)).collect();
            let frame = (even((f64::from(FILMSTRIP_HEIGHT) * f64::from(w) / f64::from(h)).round() as u32), FILMSTRIP_HEIGHT);
            let frames = grab(&uri, &times, frame)?;
            out.filmstrip = Some(reelforge_pixels::still::jpeg(&sprite(&frames, frame))?);
        }
        MaterialKind::Picture | MaterialKind::Gif => {
            if p.width <= 0 || p.height <= 0 {
                return Err("the file is not a picture that can be decoded".into());
            }
            // A photo stored on its side (EXIF orientation, which GStreamer's JPEG decoding does
            // not read) is upright in a browser: its size and cover are the upright ones.
            let turned = if kind == MaterialKind::Picture { exif_upright(path, ext) } else { None };
            if let Some((turn, picture)) = turned {
                p.rotation = turn;
                out.cover = Some(cover_of(&picture)?);
            } else {
                let (w, h) = upright(p);
                let cover = grab(&uri, &[0.0], fit(w, h, COVER_MAX))?;
                out.cover = Some(reelforge_pixels::still::jpeg(&cover[0])?);
            }
            if kind == MaterialKind::Picture {
                p.duration = 0.0;
            }
            p.frame_rate = 0.0;
        }
        MaterialKind::Audio => {
            if !p.has_audio {
                return Err("the file has no audio stream".into());
            }
            let a = audio(&uri)?;
            p.mean_db = Some(a.mean_db);
            p.peak_db = Some(a.peak_db);
            out.waveform = Some(serde_json::to_string(&a.peaks).map_err(|e| e.to_string())?);
            p.width = 0;
            p.height = 0;
        }
        _ => {}
    }
    Ok(out)
}

/// A picture whose EXIF orientation turns it: the clockwise degrees it is turned by to be shown
/// (a mirrored one counts by its turn) and the picture upright; `None` without a turn or when the
/// picture cannot be read so (its inspection at upload has refused what cannot be decoded).
fn exif_upright(path: &Path, ext: &str) -> Option<(i32, image::RgbaImage)> {
    use image::metadata::Orientation as O;
    let mut reader = image::ImageReader::open(path).ok()?;
    reader.set_format(image::ImageFormat::from_extension(ext)?);
    let mut decoder = reader.into_decoder().ok()?;
    let orientation = image::ImageDecoder::orientation(&mut decoder).ok()?;
    let turn = match orientation {
        O::NoTransforms | O::FlipHorizontal => return None,
        O::Rotate90 | O::Rotate90FlipH => 90,
        O::Rotate180 | O::FlipVertical => 180,
        O::Rotate270 | O::Rotate270FlipH => 270,
    };
    let mut picture = image::DynamicImage::from_decoder(decoder).ok()?;
    picture.apply_orientation(orientation);
    Some((turn, picture.into_rgba8()))
}

/// Width and height as displayed, after the rotation.
fn upright(p: &Probed) -> (u32, u32) {
    let (w, h) = (p.width.max(1) as u32, p.height.max(1) as u32);
    if p.rotation % 180 == 0 { (w, h) } else { (h, w) }
}

fn even(n: u32) -> u32 {
    (n.max(2) + 1) & !1
}

/// `w`×`h` shrunk (never grown) to at most `max` wide and high, even sides.
fn fit(w: u32, h: u32, max: u32) -> (u32, u32) {
    let scale = (f64::from(max) / f64::from(w.max(h))).min(1.0);
    (even((f64::from(w) * scale).round() as u32), even((f64::from(h) * scale).round() as u32))
}

/// What prerolling a file showed: its decoded streams.
struct Prerolled {
    /// The first video stream's size.
    video: Option<(u32, u32)>,
    /// Whether an audio stream decodes.
    audio: bool,
    /// How many streams decode.
    streams: u64,
    /// The duration, where the pipeline knows it once prerolled.
    seconds: Option<f64>,
}

/// Prerolls the file at `path` through its decoders: every stream's first buffer is decoded.
/// Pipeline: `filesrc → queue → decodebin → fakesink` per decoded pad, in Paused, the bus read
/// here. The queue puts the demuxer in push mode: in pull mode (`uridecodebin`, the Discoverer) a
/// demuxer that fails at once, as qtdemux does on an MP4 without its moov, fails while decodebin
/// is still trying it, and decodebin drops the error: the pipeline then waits out its whole
/// watchdog (seen on 1 run in 5 of a truncated MP4).
fn preroll(path: &Path) -> Result<Prerolled, String> {
    gst::init().map_err(|e| format!("GStreamer: {e}"))?;
    let pipeline = gst::parse::launch("filesrc name=file ! queue ! decodebin name=decode")
        .map_err(|e| format!("GStreamer: {e}"))?
        .downcast::<gst::Pipeline>()
        .map_err(|_| "GStreamer: not a pipeline".to_owned())?;
    let location = path.to_str().ok_or("the upload's path is not UTF-8")?;
    pipeline.by_name("file").ok_or("GStreamer: no source")?.set_property("location", location);
    let decode = pipeline.by_name("decode").ok_or("GStreamer: no decoder")?;
    let weak = pipeline.downgrade();
    decode.connect_pad_added(move |_, pad| {
        let Some(pipeline) = weak.upgrade() else { return };
        let Ok(sink) = gst::ElementFactory::make("fakesink").property("sync", false).build() else { return };
        if pipeline.add(&sink).is_err() {
            return;
        }
        let _ = sink.sync_state_with_parent();
        if let Some(sinkpad) = sink.static_pad("sink") {
            let _ = pad.link(&sinkpad);
        }
    });
    let running = Running(pipeline);
    let bus = running.0.bus().ok_or("GStreamer: no bus")?;
    if running.0.set_state(gst::State::Paused).is_err() {
        return Err(first_error(&running.0).unwrap_or_else(|| "cannot read the file".into()));
    }
    let msg = bus
        .timed_pop_filtered(gst::ClockTime::from_seconds(WATCHDOG_S), &[gst::MessageType::AsyncDone, gst::MessageType::Error])
        .ok_or("reading the file took too long")?;
    if let gst::MessageView::Error(e) = msg.view() {
        return Err(format!("cannot read the file: {}", e.error().message()));
    }
    let seconds = running.0.query_duration::<gst::ClockTime>().map(|d| d.nseconds() as f64 / 1e9);
    let mut out = Prerolled { video: None, audio: false, streams: 0, seconds };
    for pad in decode.src_pads() {
        out.streams += 1;
        let Some(st) = pad.current_caps().and_then(|c| c.structure(0).map(|st| st.to_owned())) else { continue };
        if st.name().starts_with("video/") && out.video.is_none() {
            let (w, h) = (st.get::<i32>("width").unwrap_or(0), st.get::<i32>("height").unwrap_or(0));
            if w > 0 && h > 0 {
                out.video = Some((w.unsigned_abs(), h.unsigned_abs()));
            }
        } else if st.name().starts_with("audio/") {
            out.audio = true;
        }
    }
    Ok(out)
}

/// What the Discoverer found: the facts, and the video stream's caps name (`video/x-h265`, …).
struct Discovered {
    probed: Probed,
    video_caps: String,
}

fn discover(uri: &str) -> Result<Discovered, String> {
    let discoverer = pbutils::Discoverer::new(gst::ClockTime::from_seconds(WATCHDOG_S)).map_err(|e| e.to_string())?;
    let info = discoverer.discover_uri(uri).map_err(|e| format!("cannot read the file: {}", e.message()))?;
    match info.result() {
        pbutils::DiscovererResult::Ok => {}
        pbutils::DiscovererResult::Timeout => return Err("reading the file took too long".into()),
        pbutils::DiscovererResult::MissingPlugins => return Err("unsupported format: no decoder for it".into()),
        other => return Err(format!("cannot read the file ({other:?})")),
    }
    let mut p = Probed {
        duration: info.duration().map(|d| d.nseconds() as f64 / 1e9).unwrap_or(0.0),
        has_audio: !info.audio_streams().is_empty(),
        ..Probed::default()
    };
    let mut video_caps = String::new();
    if let Some(v) = info.video_streams().into_iter().next() {
        video_caps = v.caps().and_then(|c| c.structure(0).map(|st| st.name().to_string())).unwrap_or_default();
        p.width = i32::try_from(v.width()).unwrap_or(0);
        p.height = i32::try_from(v.height()).unwrap_or(0);
        let fr = v.framerate();
        if !v.is_image() && fr.denom() > 0 {
            p.frame_rate = f64::from(fr.numer()) / f64::from(fr.denom());
        }
        p.rotation = v.tags().and_then(|t| t.get::<gst::tags::ImageOrientation>().map(|o| rotation(o.get()))).unwrap_or(0);
        p.codec = v.caps().map(|c| pbutils::pb_utils_get_codec_description(&c).to_string()).unwrap_or_default();
    } else if let Some(a) = info.audio_streams().into_iter().next() {
        p.codec = a.caps().map(|c| pbutils::pb_utils_get_codec_description(&c).to_string()).unwrap_or_default();
    }
    Ok(Discovered { probed: p, video_caps })
}

/// Degrees from an `image-orientation` tag ("rotate-90", "flip-rotate-270", …).
fn rotation(tag: &str) -> i32 {
    tag.rsplit('-').next().and_then(|d| d.parse().ok()).filter(|d| matches!(d, 90 | 180 | 270)).unwrap_or(0)
}

/// Stops the pipeline on every exit.
struct Running(gst::Pipeline);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.set_state(gst::State::Null);
    }
}

fn first_error(pipeline: &gst::Pipeline) -> Option<String> {
    let bus = pipeline.bus()?;
    while let Some(msg) = bus.pop_filtered(&[gst::MessageType::Error]) {
        if let gst::MessageView::Error(e) = msg.view() {
            return Some(format!("cannot decode the file: {}", e.error().message()));
        }
    }
    None
}

fn settle(pipeline: &gst::Pipeline) -> Result<(), String> {
    let (res, _, _) = pipeline.state(gst::ClockTime::from_seconds(WATCHDOG_S));
    if let Some(e) = first_error(pipeline) {
        return Err(e);
    }
    match res {
        Ok(gst::StateChangeSuccess::Async) => Err("decoding the file took too long".into()),
        Ok(_) => Ok(()),
        Err(_) => Err("cannot decode the file".into()),
    }
}

fn pipeline(description: &str, uri: &str) -> Result<(Running, gst_app::AppSink), String> {
    let pipeline = gst::parse::launch(description)
        .map_err(|e| format!("GStreamer: {e}"))?
        .downcast::<gst::Pipeline>()
        .map_err(|_| "GStreamer: not a pipeline".to_owned())?;
    let running = Running(pipeline);
    let src = running.0.by_name("src").ok_or("GStreamer: no source")?;
    src.set_property("uri", uri);
    let sink = running
        .0
        .by_name("sink")
        .and_then(|s| s.downcast::<gst_app::AppSink>().ok())
        .ok_or("GStreamer: no sink")?;
    Ok((running, sink))
}

/// Frames at `times` (seconds), upright, as RGB pictures of `size`.
fn grab(uri: &str, times: &[f64], size: (u32, u32)) -> Result<Vec<image::RgbImage>, String> {
    let (w, h) = size;
    let description = format!(
        "uridecodebin name=src ! videoflip video-direction=auto ! videoconvert ! videoscale ! \
         video/x-raw,format=RGBA,width={w},height={h},pixel-aspect-ratio=1/1 ! appsink name=sink sync=false max-buffers=1"
    );
    let (running, sink) = pipeline(&description, uri)?;
    running.0.set_state(gst::State::Paused).map_err(|_| "cannot decode the file".to_owned())?;
    settle(&running.0)?;
    let mut frames = Vec::with_capacity(times.len());
    for (i, t) in times.iter().enumerate() {
        if i > 0 || *t > 0.0 {
            let pos = gst::ClockTime::from_nseconds((t * 1e9) as u64);
            running
                .0
                .seek_simple(gst::SeekFlags::FLUSH | gst::SeekFlags::ACCURATE, pos)
                .map_err(|_| format!("cannot seek to {t:.1} s"))?;
            settle(&running.0)?;
        }
        let sample = sink
            .try_pull_preroll(gst::ClockTime::from_seconds(WATCHDOG_S))
            .ok_or_else(|| first_error(&running.0).unwrap_or_else(|| format!("no picture at {t:.1} s")))?;
        let buffer = sample.buffer().ok_or("a frame without data")?;
        let map = buffer.map_readable().map_err(|_| "an unreadable frame".to_owned())?;
        let rgba = image::RgbaImage::from_raw(w, h, map.as_slice().to_vec()).ok_or("a frame of the wrong size")?;
        frames.push(image::DynamicImage::ImageRgba8(rgba).to_rgb8());
    }
    Ok(frames)
}

fn sprite(frames: &[image::RgbImage], (w, h): (u32, u32)) -> image::RgbImage {
    let mut out = image::RgbImage::new(w * frames.len() as u32, h);
    for (i, f) in frames.iter().enumerate() {
        image::imageops::replace(&mut out, f, i64::from(w) * i as i64, 0);
    }
    out
}

/// The cover of a picture already in memory, made as an upload's is: at most 480 px, JPEG.
pub(crate) fn cover_of(picture: &image::RgbaImage) -> Result<Vec<u8>, String> {
    let (w, h) = fit(picture.width(), picture.height(), COVER_MAX);
    reelforge_pixels::still::cover(picture, w, h)
}

/// The waveform and loudness of an audio file.
struct Audio {
    peaks: Vec<f32>,
    mean_db: f64,
    peak_db: f64,
}

fn audio(uri: &str) -> Result<Audio, String> {
    let description = format!(
        "uridecodebin name=src ! audioconvert ! audioresample ! \
         audio/x-raw,format=F32LE,channels=1,rate={AUDIO_RATE} ! appsink name=sink sync=false max-buffers=16"
    );
    let (running, sink) = pipeline(&description, uri)?;
    running.0.set_state(gst::State::Playing).map_err(|_| "cannot decode the audio".to_owned())?;
    let mut blocks: Vec<f32> = Vec::new();
    let (mut block_peak, mut in_block) = (0f32, 0usize);
    let (mut sum_sq, mut count, mut peak) = (0f64, 0u64, 0f32);
    loop {
        let Some(sample) = sink.try_pull_sample(gst::ClockTime::from_seconds(WATCHDOG_S)) else {
            if let Some(e) = first_error(&running.0) {
                return Err(e);
            }
            if sink.is_eos() {
                break;
            }
            return Err("decoding the audio took too long".into());
        };
        let Some(buffer) = sample.buffer() else { continue };
        let map = buffer.map_readable().map_err(|_| "an unreadable audio buffer".to_owned())?;
        for b in map.as_slice().chunks_exact(4) {
            let v = f32::from_le_bytes([b[0], b[1], b[2], b[3]]).abs();
            sum_sq += f64::from(v) * f64::from(v);
            count += 1;
            peak = peak.max(v);
            block_peak = block_peak.max(v);
            in_block += 1;
            if in_block == BLOCK {
                blocks.push(block_peak);
                (block_peak, in_block) = (0.0, 0);
            }
        }
    }
    if in_block > 0 {
        blocks.push(block_peak);
    }
    if count == 0 {
        return Err("the audio has no samples".into());
    }
    // Power ratio to dB; digital silence (0) has no finite value.
    let db = |power: f64| if power > 0.0 { (10.0 * power.log10()).max(FLOOR_DB) } else { FLOOR_DB };
    let peak = f64::from(peak);
    Ok(Audio { peaks: peaks(&blocks, WAVEFORM_PEAKS), mean_db: db(sum_sq / count as f64), peak_db: db(peak * peak) })
}

/// At most `n` peaks: the largest of each of `n` equal runs of `blocks`, rounded to 3 decimals.
fn peaks(blocks: &[f32], n: usize) -> Vec<f32> {
    let runs = blocks.len().min(n).max(1);
    (0..runs)
        .map(|i| {
            let (a, b) = (i * blocks.len() / runs, ((i + 1) * blocks.len() / runs).max(i * blocks.len() / runs + 1));
            let m = blocks.get(a..b.min(blocks.len())).unwrap_or(&[]).iter().fold(0f32, |m, v| m.max(*v));
            (m.min(1.0) * 1000.0).round() / 1000.0
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peaks_cover_every_block() {
        let blocks: Vec<f32> = (0..2500).map(|i| if i == 2499 { 0.9 } else { 0.1 }).collect();
        let p = peaks(&blocks, 1000);
        assert_eq!(p.len(), 1000);
        assert_eq!(p[999], 0.9, "the last block lands in the last peak");
        assert_eq!(peaks(&[0.5, 0.25], 1000), vec![0.5, 0.25]);
    }

    /// A PNG chunk with its CRC.
    fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
        let mut c = 0xFFFF_FFFFu32;
        for b in kind.iter().chain(data) {
            c ^= u32::from(*b);
            for _ in 0..8 {
                c = if c & 1 == 1 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 };
            }
        }
        let mut out = (data.len() as u32).to_be_bytes().to_vec();
        out.extend_from_slice(kind);
        out.extend_from_slice(data);
        out.extend_from_slice(&(!c).to_be_bytes());
        out
    }

    fn png_header(w: u32, h: u32) -> Vec<u8> {
        let mut ihdr = w.to_be_bytes().to_vec();
        ihdr.extend_from_slice(&h.to_be_bytes());
        ihdr.extend_from_slice(&[8, 6, 0, 0, 0]);
        let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
        out.extend(chunk(b"IHDR", &ihdr));
        out
    }

    fn reason(r: Result<(), MaterialError>) -> Option<&'static str> {
        r.err().and_then(|e| e.reason())
    }

    #[test]
    fn pictures_are_decoded_whole_within_the_pixel_limit() -> Result<(), Box<dyn std::error::Error>> {
        let (dir, limits) = (tempfile::tempdir()?, domain::MediaLimits::default());
        let at = |name: &str, bytes: &[u8]| -> Result<std::path::PathBuf, std::io::Error> {
            let p = dir.path().join(name);
            std::fs::write(&p, bytes)?;
            Ok(p)
        };
        let mut good = Vec::new();
        image::RgbaImage::from_pixel(8, 6, image::Rgba([1, 2, 3, 255])).write_to(&mut std::io::Cursor::new(&mut good), image::ImageFormat::Png)?;
        assert!(inspect(&at("ok.png", &good)?, MaterialKind::Picture, "png", &limits).is_ok());
        let mut html = png_header(8, 6);
        html.extend_from_slice(b"<html><script>alert(1)</script></html>");
        assert_eq!(reason(inspect(&at("html.png", &html)?, MaterialKind::Picture, "png", &limits)), Some(domain::UNREADABLE_FILE));
        let mut huge = png_header(20_000, 20_000);
        huge.extend(chunk(b"IDAT", &[0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01]));
        huge.extend(chunk(b"IEND", &[]));
        let refused = inspect(&at("huge.png", &huge)?, MaterialKind::Picture, "png", &limits).err().ok_or("a 400 MP picture passed")?;
        assert_eq!(refused.reason(), Some(domain::CONTENT_TOO_LARGE));
        assert!(refused.to_string().contains("20000x20000"), "{refused}");
        let png_as_jpg = inspect(&at("png.jpg", &good)?, MaterialKind::Picture, "jpg", &limits);
        assert_eq!(reason(png_as_jpg), Some(domain::UNREADABLE_FILE), "a PNG named .jpg");
        let heic = reelforge_heif::encode(&[9u8; 8 * 6 * 4], 8, 6, reelforge_heif::Codec::Hevc, 50)?;
        assert!(inspect(&at("ok.heic", &heic)?, MaterialKind::Picture, "heic", &limits).is_ok());
        let half = inspect(&at("half.heic", &heic[..heic.len() / 2])?, MaterialKind::Picture, "heic", &limits);
        assert_eq!(reason(half), Some(domain::UNREADABLE_FILE));
        Ok(())
    }

    #[test]
    fn gifs_are_counted_frame_by_frame() -> Result<(), Box<dyn std::error::Error>> {
        let (dir, limits) = (tempfile::tempdir()?, domain::MediaLimits::default());
        let gif_of = |frames: usize| -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
            let mut out = Vec::new();
            {
                let mut enc = gif::Encoder::new(&mut out, 2, 2, &[0, 0, 0, 255, 255, 255])?;
                for i in 0..frames {
                    enc.write_frame(&gif::Frame::from_indexed_pixels(2, 2, vec![(i % 2) as u8; 4], None))?;
                }
            }
            let p = dir.path().join(format!("{frames}.gif"));
            std::fs::write(&p, out)?;
            Ok(p)
        };
        assert!(inspect(&gif_of(3)?, MaterialKind::Gif, "gif", &limits).is_ok());
        let long = inspect(&gif_of(domain::MAX_GIF_FRAMES + 1)?, MaterialKind::Gif, "gif", &limits);
        let long = long.err().ok_or("too many frames passed")?;
        assert_eq!(long.reason(), Some(domain::CONTENT_TOO_LARGE));
        assert!(long.to_string().contains("more than 1000 frames"), "{long}");
        let p = dir.path().join("cut.gif");
        let whole = std::fs::read(gif_of(3)?)?;
        std::fs::write(&p, &whole[..whole.len() - 8])?;
        assert_eq!(reason(inspect(&p, MaterialKind::Gif, "gif", &limits)), Some(domain::UNREADABLE_FILE));
        Ok(())
    }

    #[test]
    fn a_photo_stored_on_its_side_has_its_turn_and_an_upright_cover() -> Result<(), Box<dyn std::error::Error>> {
        // 48×32 stored, red left and blue right, EXIF orientation 6: shown 32×48, red on top.
        let dir = tempfile::tempdir()?;
        let stored = image::RgbImage::from_fn(48, 32, |x, _| if x < 24 { image::Rgb([255, 0, 0]) } else { image::Rgb([0, 0, 255]) });
        let mut jpeg = Vec::new();
        let mut encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 95);
        let exif = vec![0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0];
        image::ImageEncoder::set_exif_metadata(&mut encoder, exif)?;
        image::ImageEncoder::write_image(encoder, stored.as_raw(), 48, 32, image::ExtendedColorType::Rgb8)?;
        let path = dir.path().join("photo.jpg");
        std::fs::write(&path, &jpeg)?;
        let out = probe_file(&path, MaterialKind::Picture, "jpg")?;
        assert_eq!((out.probed.width, out.probed.height, out.probed.rotation), (48, 32, 90));
        let cover = image::load_from_memory(out.cover.as_deref().ok_or("no cover")?)?.to_rgb8();
        assert!(cover.height() > cover.width(), "the cover is upright: {:?}", cover.dimensions());
        let (top, bottom) = (cover.get_pixel(cover.width() / 2, 2), cover.get_pixel(cover.width() / 2, cover.height() - 3));
        assert!(top[0] > 200 && top[2] < 60 && bottom[2] > 200 && bottom[0] < 60, "red on top, blue below: {top:?} {bottom:?}");
        // Without an orientation, nothing turns.
        let plain = dir.path().join("plain.jpg");
        stored.save(&plain)?;
        assert_eq!(probe_file(&plain, MaterialKind::Picture, "jpg")?.probed.rotation, 0);
        Ok(())
    }

    #[test]
    fn sizes_and_rotations() {
        assert_eq!(fit(1920, 1080, 480), (480, 270));
        assert_eq!(fit(100, 50, 480), (100, 50));
        assert_eq!(rotation("rotate-90"), 90);
        assert_eq!(rotation("flip-rotate-270"), 270);
        assert_eq!(rotation("rotate-0"), 0);
    }
}
