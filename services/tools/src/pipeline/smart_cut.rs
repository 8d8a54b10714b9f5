//! QUICK_CUT_VIDEO's smart cut: the pictures of each kept range are copied as they are encoded
//! (whole GOPs, from one IDR frame to the next) and only the partial GOPs at its edges are decoded
//! and re-encoded, by x264 at the source's profile, level, size and frame rate, so the joined
//! H.264 stream plays through. Every piece begins with an IDR frame carrying its own SPS and PPS;
//! the MP4 keeps them in the stream (`avc3`), so a decoder takes each piece's parameters as it
//! reaches it. The sound is re-encoded as the frame-exact cut does it (1 ms buffers).
//!
//! Steps: the source's access units are read without decoding (`qtdemux → h264parse`, byte-stream
//! with the parameter sets before each IDR) with their stream times; each range is planned as
//! [head re-encoded] [whole GOPs copied] [the last GOP's units copied as far as they show exactly
//! the frames before some time] [the rest of the tail re-encoded] (all re-encoded when no IDR frame
//! lies inside); without B-frames, as phones record, a tail is copied whole. Each edge is
//! decoded from its GOP's IDR (`appsrc → h264parse → avdec_h264`), its frames outside the edge
//! dropped, and encoded; the pieces are joined in order, their decode
//! times renumbered one frame apart and their presentation times shifted by the largest reorder
//! delay (the segment starting there, as x264enc's output does), and muxed with the sound.
//!
//! A clip stored on its side (a phone's portrait clip) is cut as stored, edges included, and the
//! output's track header gets the input's turn (`orientation::set_turn`).
//!
//! The full re-encode runs instead, saying why, when the input is not H.264 in an MP4/MOV, is not
//! 8-bit 4:2:0 progressive of a profile x264 writes, has no fixed frame rate, or a stream whose
//! first picture is not an IDR frame, or is mirrored. The output's `comment` tag says which path
//! ran.

use std::collections::VecDeque;
use std::sync::Mutex;

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;

use super::{Job, Output, OutputKind, aac};
use crate::error::ToolError;
use crate::gst_run::{app_sink, element, launch, pull, sound_only};
use crate::orientation::set_turn;
use crate::params::MsRange;
use crate::probe::Coding;

/// The `comment` tag of a smart cut's output begins with this.
pub const SMART_TAG: &str = "reelforge cut: smart";
/// The `comment` tag of a re-encoded cut's output begins with this.
pub const REENCODE_TAG: &str = "reelforge cut: re-encoded";

/// One access unit of the source, in decode order.
struct Au {
    buffer: gst::Buffer,
    /// Presentation time on the clip's stream time, nanoseconds.
    t: u64,
    /// Whether it holds an IDR slice (a GOP starts here).
    idr: bool,
}

/// The source's pictures, parsed and not decoded.
struct Source {
    /// Byte-stream caps of the source (size, frame rate, profile, level).
    caps: gst::Caps,
    aus: Vec<Au>,
    /// One frame, nanoseconds.
    frame_ns: u64,
    /// x264's caps profile and level option for the edges.
    profile: String,
    level: String,
}

/// One piece of the output, in order.
enum Piece {
    /// Source access units `from..to` (whole GOPs) copied.
    Copy { from: usize, to: usize, out_ns: u64, start_ns: u64 },
    /// The frames in `[start_ns, end_ns)` decoded from access units `from..to` and re-encoded.
    Encode { from: usize, to: usize, out_ns: u64, start_ns: u64, end_ns: u64 },
}

/// An access unit of the output, before its times are final.
struct OutAu {
    buffer: gst::Buffer,
    /// Presentation time on the output, nanoseconds.
    pts: u64,
}

impl Job<'_> {
    /// The smart cut of `kept` into `name`; `Ok(Err(why))` when it cannot run on this input and
    /// the full re-encode must (nothing written then).
    pub(super) fn smart_keep(&mut self, kept: &[MsRange], name: &str) -> Result<Result<Output, String>, ToolError> {
        let orientation = self.facts.orientation;
        if orientation.mirrored {
            return Ok(Err("the pictures are mirrored, which the output could not say".to_owned()));
        }
        if self.facts.coding != Coding::H264 {
            return Ok(Err("the pictures are not H.264".to_owned()));
        }
        let source = match read_source(self.input, self.cancel)? {
            Ok(s) => s,
            Err(why) => return Ok(Err(why)),
        };
        let pieces = match plan(&source, kept) {
            Ok(p) => p,
            Err(why) => return Ok(Err(why)),
        };
        let total_ms: u64 = kept.iter().map(|r| r.end_ms - r.start_ms).sum();
        let encode_ns: u64 = pieces.iter().map(|p| if let Piece::Encode { start_ns, end_ns, .. } = p { end_ns - start_ns } else { 0 }).sum();
        let mut edges = encode_edges(&source, &pieces, self.cancel, &mut |encoded_ns| {
            let done = 0.5 * encoded_ns as f64 / encode_ns.max(1) as f64;
            (self.progress)(super::Progress { done_ms: (done * total_ms as f64) as u64, total_ms: total_ms.max(1) });
        })?
        .into_iter();
        let mut out_aus = Vec::new();
        let (mut copied, mut encoded) = (0usize, 0usize);
        for piece in &pieces {
            match *piece {
                Piece::Copy { from, to, out_ns, start_ns } => {
                    copied += to - from;
                    out_aus.extend(source.aus[from..to].iter().map(|a| OutAu { buffer: a.buffer.clone(), pts: out_ns + (a.t - start_ns) }));
                }
                Piece::Encode { out_ns, start_ns, .. } => {
                    let made = edges.next().ok_or_else(|| ToolError::Failed("an edge was not encoded".to_owned()))?;
                    encoded += made.len();
                    out_aus.extend(made.into_iter().map(|(buffer, t)| OutAu { buffer, pts: out_ns + (t - start_ns) }));
                }
            }
        }
        let tag = format!("{SMART_TAG}: {copied} frames copied, {encoded} re-encoded");
        let out = self.partial(name);
        self.mux(&source, out_aus, kept, &out, &tag, total_ms)?;
        // The pictures are copied as stored: the output says how to turn them, as the input did.
        if orientation.turn != 0 {
            set_turn(&out, orientation.turn)?;
        }
        let mut made = self.output(out, OutputKind::Video, name)?;
        made.ranges = kept.to_vec();
        Ok(Ok(made))
    }

    /// Writes the output: the access units (decode order) as `avc3` beside the cut sound.
    fn mux(&mut self, source: &Source, aus: Vec<OutAu>, kept: &[MsRange], out: &std::path::Path, tag: &str, total_ms: u64) -> Result<(), ToolError> {
        let f = source.frame_ns;
        // Decode times one frame apart; presentation times shifted by the largest reorder delay,
        // so that no picture is shown before it is decoded.
        let shift = aus.iter().enumerate().map(|(n, a)| (n as u64 * f).saturating_sub(a.pts)).max().unwrap_or(0);
        let queue: VecDeque<gst::Buffer> = aus
            .into_iter()
            .enumerate()
            .map(|(n, a)| {
                let mut b = a.buffer;
                let m = b.make_mut();
                m.set_pts(gst::ClockTime::from_nseconds(a.pts + shift));
                m.set_dts(gst::ClockTime::from_nseconds(n as u64 * f));
                m.set_duration(gst::ClockTime::from_nseconds(f));
                b
            })
            .collect();
        let with_audio = self.facts.audio;
        let audio = if with_audio {
            format!(
                " filesrc name=src ! decodebin name=d d. ! audio/x-raw ! queue ! audioconvert ! audio/x-raw,format=F32LE \
                 ! audiobuffersplit name=aq output-buffer-duration=1/1000 ! audioconvert ! audioresample ! {} bitrate=128000 ! queue ! mux.",
                aac()
            )
        } else {
            String::new()
        };
        let description = format!(
            "appsrc name=v format=time ! h264parse config-interval=-1 ! video/x-h264,stream-format=avc3,alignment=au \
             ! queue ! mp4mux name=mux faststart=true ! filesink name=sink{audio}"
        );
        let running = launch(&description, with_audio.then_some(self.input), Some(out))?;
        if with_audio {
            sound_only(&running.0, "d")?;
            let pad = element(&running.0, "aq")?.static_pad("src").ok_or_else(|| ToolError::Gst("aq without a src pad".to_owned()))?;
            let kept = kept.to_vec();
            crate::gst_run::retime(&pad, 1.0, move |pts| super::joined(&kept, pts));
        }
        super::set_comment(&running.0, tag)?;
        let src = element(&running.0, "v")?.downcast::<gst_app::AppSrc>().map_err(|_| ToolError::Gst("v is not an appsrc".to_owned()))?;
        src.set_caps(Some(&source.caps));
        // The segment starts at the shift: the first picture is at 0 on the running time, its
        // decode time before it.
        if let Some(pad) = src.static_pad("src") {
            pad.add_probe(gst::PadProbeType::EVENT_DOWNSTREAM, move |_, info| {
                if let Some(gst::PadProbeData::Event(event)) = &mut info.data
                    && let gst::EventView::Segment(s) = event.view()
                    && let Ok(mut seg) = s.segment().clone().downcast::<gst::ClockTime>()
                {
                    seg.set_start(gst::ClockTime::from_nseconds(shift));
                    seg.set_time(gst::ClockTime::ZERO);
                    *event = gst::event::Segment::new(&seg);
                }
                gst::PadProbeReturn::Ok
            });
        }
        let queue = Mutex::new(queue);
        src.set_callbacks(
            gst_app::AppSrcCallbacks::builder()
                .need_data(move |src, _| {
                    let Ok(mut q) = queue.lock() else { return };
                    for _ in 0..32 {
                        match q.pop_front() {
                            Some(b) => {
                                if src.push_buffer(b).is_err() {
                                    return;
                                }
                            }
                            None => {
                                let _ = src.end_of_stream();
                                return;
                            }
                        }
                    }
                })
                .build(),
        );
        self.play(&running, total_ms, (0.5, 0.5))
    }
}

/// Reads the source's H.264 access units without decoding them, or says why the smart cut cannot
/// copy them.
fn read_source(input: &std::path::Path, cancel: &std::sync::atomic::AtomicBool) -> Result<Result<Source, String>, ToolError> {
    if gst::ElementFactory::find("avdec_h264").is_none() || gst::ElementFactory::find("x264enc").is_none() {
        return Ok(Err("no H.264 decoder or encoder on this worker".to_owned()));
    }
    let running = launch(
        "filesrc name=src ! qtdemux name=demux demux.video_0 ! h264parse config-interval=-1 \
         ! video/x-h264,stream-format=byte-stream,alignment=au ! appsink name=au sync=false",
        Some(input),
        None,
    )?;
    let sink = app_sink(&running.0, "au")?;
    let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
    if running.0.set_state(gst::State::Playing).is_err() {
        return Ok(Err("the file is not an MP4 or MOV".to_owned()));
    }
    let mut aus = Vec::new();
    let mut caps = None;
    loop {
        let sample = match pull(&bus, &sink, cancel) {
            Ok(Some(s)) => s,
            Ok(None) => break,
            Err(ToolError::Cancelled) => return Err(ToolError::Cancelled),
            Err(e) => return Ok(Err(format!("the pictures could not be read as they are: {e}"))),
        };
        if caps.is_none() {
            caps = sample.caps_owned();
        }
        let Some(buffer) = sample.buffer_owned() else { continue };
        let Some(pts) = buffer.pts() else { return Ok(Err("a picture without a time".to_owned())) };
        let t = sample.segment().and_then(|s| s.downcast_ref::<gst::ClockTime>().and_then(|s| s.to_stream_time(pts))).unwrap_or(pts);
        let idr = buffer.map_readable().map(|m| holds_idr(&m)).unwrap_or(false);
        aus.push(Au { buffer, t: t.nseconds(), idr });
    }
    drop(running);
    let Some(caps) = caps else { return Ok(Err("no pictures".to_owned())) };
    let Some(s) = caps.structure(0) else { return Ok(Err("no pictures".to_owned())) };
    let text = |k: &str| s.get::<String>(k).unwrap_or_default();
    let profile = match text("profile").as_str() {
        "baseline" | "constrained-baseline" => "constrained-baseline",
        "main" => "main",
        "high" | "progressive-high" | "constrained-high" => "high",
        other => return Ok(Err(format!("profile {other:?} is not one the edges can be encoded in"))),
    };
    if text("chroma-format") != "4:2:0" || s.get::<u32>("bit-depth-luma").unwrap_or(8) != 8 {
        return Ok(Err("the pictures are not 8-bit 4:2:0".to_owned()));
    }
    if s.get::<String>("interlace-mode").is_ok_and(|m| m != "progressive") {
        return Ok(Err("the pictures are interlaced".to_owned()));
    }
    let frame_ns = match s.get::<gst::Fraction>("framerate") {
        Ok(r) if r.numer() > 0 && r.denom() > 0 => 1_000_000_000 * r.denom() as u64 / r.numer() as u64,
        _ => return Ok(Err("the frame rate is not fixed".to_owned())),
    };
    if !aus.first().is_some_and(|a| a.idr) {
        return Ok(Err("the first picture is not an IDR frame".to_owned()));
    }
    let level = text("level");
    Ok(Ok(Source { caps, aus, frame_ns, profile: profile.to_owned(), level }))
}

/// Whether a byte-stream access unit holds an IDR slice (NAL type 5).
fn holds_idr(au: &[u8]) -> bool {
    au.windows(4).any(|w| w[0] == 0 && w[1] == 0 && w[2] == 1 && w[3] & 0x1f == 5)
}

/// Whether no other picture refers to this access unit: all its slices (NAL types 1 and 5) have
/// `nal_ref_idc` 0. Leaving such a unit out changes no other picture's decoding (the frame numbers
/// of reference pictures count only references).
fn disposable(au: &Au) -> bool {
    let Ok(m) = au.buffer.map_readable() else { return false };
    let mut slices = m.windows(4).filter(|w| w[0] == 0 && w[1] == 0 && w[2] == 1 && matches!(w[3] & 0x1f, 1 | 5)).peekable();
    slices.peek().is_some() && slices.all(|w| w[3] & 0x60 == 0)
}

/// The pieces of the output for `kept`, or why the stream cannot be cut so.
fn plan(source: &Source, kept: &[MsRange]) -> Result<Vec<Piece>, String> {
    let aus = &source.aus;
    let idrs: Vec<usize> = (0..aus.len()).filter(|&i| aus[i].idr).collect();
    // The GOP (its IDR's index) holding time `t`, and the first GOP at or after it.
    let gop_of = |t: u64| idrs.iter().rev().copied().find(|&i| aus[i].t <= t).unwrap_or(0);
    let gop_from = |t: u64| idrs.iter().copied().find(|&i| aus[i].t >= t);
    let end_of = |i: usize| idrs.iter().copied().find(|&j| j > i).unwrap_or(aus.len());
    let mut pieces = Vec::new();
    let mut out_ns = 0;
    for r in kept {
        let (s, e) = (r.start_ms * 1_000_000, r.end_ms * 1_000_000);
        let first = gop_from(s).filter(|&i| aus[i].t < e);
        let last = idrs.iter().rev().copied().find(|&i| aus[i].t <= e);
        let edge = |pieces: &mut Vec<Piece>, a: u64, b: u64, out_ns: u64| {
            if a < b {
                let from = gop_of(a);
                let to = gop_from(b).unwrap_or(aus.len()).max(end_of(from));
                pieces.push(Piece::Encode { from, to, out_ns, start_ns: a, end_ns: b });
            }
        };
        match (first, last) {
            (Some(k1), Some(k2)) => {
                let (t1, t2) = (aus[k1].t, aus[k2].t);
                edge(&mut pieces, s, t1, out_ns);
                // A copied GOP must hold exactly the frames of its time span.
                if aus[k1..k2].iter().any(|a| a.t < t1 || a.t >= t2) {
                    return Err("a GOP shows pictures outside its span (open GOPs)".to_owned());
                }
                // The last GOP's units are copied too as far as they show exactly the frames
                // before some time `b`: only the frames from `b` to the end are encoded again.
                let (n, b) = closed_prefix(aus, k2, end_of(k2), e);
                if k2 + n > k1 {
                    pieces.push(Piece::Copy { from: k1, to: k2 + n, out_ns: out_ns + (t1 - s), start_ns: t1 });
                }
                edge(&mut pieces, b, e, out_ns + (b - s));
            }
            _ => edge(&mut pieces, s, e, out_ns),
        }
        out_ns += e - s;
    }
    // With nothing to copy, one decode of the clip (the full re-encode) costs less than one
    // per range.
    if !pieces.iter().any(|p| matches!(p, Piece::Copy { .. })) {
        return Err("no IDR frame lies inside the kept ranges".to_owned());
    }
    Ok(pieces)
}

/// Of the GOP `from..to` (decode order, from its IDR), the longest run of units from its start
/// that shows exactly the frames before some time `b` ≤ `end` (no unit in it shows a frame at or
/// after `end`, no unit after it a frame before `b`): its length and `b`. In a stream without
/// B-frames that is every unit before `end`; with them, the units up to the last reference picture
/// whose B-frames are all before `end`.
fn closed_prefix(aus: &[Au], from: usize, to: usize, end: u64) -> (usize, u64) {
    // The earliest frame shown by the units from each one on.
    let mut later = vec![u64::MAX; to - from + 1];
    for i in (from..to).rev() {
        later[i - from] = later[i - from + 1].min(aus[i].t);
    }
    let mut best = (0, aus[from].t.min(end));
    let mut shown = 0;
    for i in from..to {
        if aus[i].t >= end {
            break;
        }
        shown = shown.max(aus[i].t);
        if shown < later[i - from + 1] {
            best = (i + 1 - from, later[i - from + 1].min(end));
        }
    }
    best
}

/// Edges encoded at once: the cores are shared between the edges' decoders and encoders, which
/// on a few dozen frames each leave them idle much of the time when run one after another.
const EDGES_AT_ONCE: usize = 4;

/// Encodes the edges among `pieces` ([`encode_edge`]), up to [`EDGES_AT_ONCE`] at a time, calling
/// `progress` with the nanoseconds of edge encoded so far as each ends: the edges' units in
/// the pieces' order.
fn encode_edges(
    source: &Source,
    pieces: &[Piece],
    cancel: &std::sync::atomic::AtomicBool,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<Vec<(gst::Buffer, u64)>>, ToolError> {
    let edges: Vec<(usize, usize, u64, u64)> = pieces
        .iter()
        .filter_map(|p| match *p {
            Piece::Encode { from, to, start_ns, end_ns, .. } => Some((from, to, start_ns, end_ns)),
            Piece::Copy { .. } => None,
        })
        .collect();
    let mut made = Vec::with_capacity(edges.len());
    let mut encoded_ns = 0;
    for batch in edges.chunks(EDGES_AT_ONCE) {
        // Edges side by side already share the cores: each decoder and encoder then runs on one
        // thread, which spends less on the same frames than their threads do (measured on the
        // bench's cut: 1.18 s against 1.02 s). An edge alone takes every thread.
        let threads = if batch.len() > 1 { 1 } else { 0 };
        let results: Vec<_> = std::thread::scope(|scope| {
            let running: Vec<_> = batch
                .iter()
                .map(|&(from, to, start_ns, end_ns)| scope.spawn(move || encode_edge(source, from, to, start_ns, end_ns, threads, cancel)))
                .collect();
            running.into_iter().map(|r| r.join().unwrap_or_else(|_| Err(ToolError::Failed("an edge's encoder stopped".to_owned())))).collect()
        });
        for (result, &(_, _, start_ns, end_ns)) in results.into_iter().zip(batch) {
            made.push(result?);
            encoded_ns += end_ns - start_ns;
            progress(encoded_ns);
        }
    }
    Ok(made)
}

/// Decodes access units `from..to` and re-encodes the frames in `[start_ns, end_ns)` with the
/// source's profile and level: the encoded units (decode order) with their source times. The
/// edges are a few frames at a high quality (quantizer 16, about 55 dB against their decode), so
/// x264's fastest preset costs some size on them and a third of veryfast's time. A unit before
/// `start_ns` that no other picture refers to is not even decoded. `threads`: the decoder's and
/// the encoder's (0: as many as they choose).
fn encode_edge(
    source: &Source,
    from: usize,
    to: usize,
    start_ns: u64,
    end_ns: u64,
    threads: u32,
    cancel: &std::sync::atomic::AtomicBool,
) -> Result<Vec<(gst::Buffer, u64)>, ToolError> {
    let level = if source.level.is_empty() { String::new() } else { format!(" option-string=level={}", source.level) };
    let description = format!(
        "appsrc name=in format=time ! h264parse ! avdec_h264 name=dec max-threads={threads} ! x264enc speed-preset=ultrafast threads={threads} pass=qual quantizer=16 \
         bitrate=2048000 vbv-buf-capacity=0 key-int-max=100000{level} \
         ! video/x-h264,profile={},stream-format=byte-stream,alignment=au ! appsink name=out sync=false",
        source.profile
    );
    let running = launch(&description, None, None)?;
    let src = element(&running.0, "in")?.downcast::<gst_app::AppSrc>().map_err(|_| ToolError::Gst("in is not an appsrc".to_owned()))?;
    src.set_caps(Some(&source.caps));
    src.set_max_bytes(0);
    let dec = element(&running.0, "dec")?.static_pad("src").ok_or_else(|| ToolError::Gst("a decoder without a src pad".to_owned()))?;
    dec.add_probe(gst::PadProbeType::BUFFER, move |_, info| match info.buffer().and_then(|b| b.pts()) {
        Some(pts) if pts.nseconds() >= start_ns && pts.nseconds() < end_ns => gst::PadProbeReturn::Ok,
        _ => gst::PadProbeReturn::Drop,
    });
    let sink = app_sink(&running.0, "out")?;
    let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
    running.0.set_state(gst::State::Playing)?;
    // Up to the last unit showing a frame before the end: the decoder needs nothing after it.
    let last = (from..to).rev().find(|&i| source.aus[i].t < end_ns).map_or(from, |i| i + 1);
    for a in source.aus[from..last].iter().filter(|a| a.t >= start_ns || !disposable(a)) {
        let mut b = a.buffer.copy();
        let m = b.make_mut();
        m.set_pts(gst::ClockTime::from_nseconds(a.t));
        m.set_dts(gst::ClockTime::NONE);
        src.push_buffer(b).map_err(|e| ToolError::Failed(format!("an edge could not be decoded: {e:?}")))?;
    }
    src.end_of_stream().map_err(|e| ToolError::Failed(format!("an edge could not be decoded: {e:?}")))?;
    let mut made = Vec::new();
    while let Some(sample) = pull(&bus, &sink, cancel)? {
        let Some(buffer) = sample.buffer_owned() else { continue };
        let pts = buffer.pts().ok_or_else(|| ToolError::Failed("an encoded edge picture without a time".to_owned()))?;
        // x264enc offsets its times (and its segment) to keep decode times positive.
        let t = sample.segment().and_then(|s| s.downcast_ref::<gst::ClockTime>().and_then(|s| s.to_stream_time(pts))).unwrap_or(pts);
        made.push((buffer, t.nseconds()));
    }
    let want = source.aus[from..last].iter().filter(|a| a.t >= start_ns && a.t < end_ns).count();
    if made.len() != want {
        return Err(ToolError::Failed(format!("an edge encoded {} pictures of {want}", made.len())));
    }
    Ok(made)
}

/// The `comment` tag of a cut's output: which path made it.
pub fn cut_comment(path: &std::path::Path) -> Result<Option<String>, ToolError> {
    use gstreamer_pbutils as pbutils;
    gst::init()?;
    let uri = crate::gst_run::file_uri(path)?;
    let disc = pbutils::Discoverer::new(gst::ClockTime::from_seconds(30))?;
    let info = disc.discover_uri(&uri).map_err(|e| ToolError::NotMedia(e.message().to_owned()))?;
    // The file's own tags (mp4mux writes them globally) are on the info's list, not on any stream's.
    #[allow(deprecated)]
    let tags = info.tags();
    Ok(tags.and_then(|t| t.get::<gst::tags::Comment>().map(|c| c.get().to_owned())))
}
