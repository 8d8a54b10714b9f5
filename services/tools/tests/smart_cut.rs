//! QUICK_CUT_VIDEO's smart cut: whole GOPs copied packet for packet, the edges re-encoded and
//! frame-exact against a decode of the source, and the full re-encode where it cannot run.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use reelforge_tools::testing::{Clip, luma_frames, psnr};
use reelforge_tools::{Output, Params, REENCODE_TAG, SMART_TAG, ToolType, cut_comment, probe, run, run_as};
use serde_json::json;

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

fn cut(params: serde_json::Value, input: &Path, dir: &Path, smart: bool) -> Result<Output> {
    let params = Params::parse(ToolType::QuickCutVideo, &params)?;
    let mut outputs = if smart {
        run(&params, &[input.to_path_buf()], dir, &mut |_| {}, &AtomicBool::new(false))?
    } else {
        run_as(&params, &[input.to_path_buf()], dir, &mut |_| {}, &AtomicBool::new(false), false)?
    };
    Ok(outputs.remove(0))
}

/// The video's packets as its MP4 holds them, in decode order: bytes and whether a GOP starts.
fn packets(path: &Path) -> Result<Vec<(Vec<u8>, bool)>> {
    gst::init()?;
    let pipeline = gst::parse::launch("filesrc name=src ! qtdemux name=d d.video_0 ! appsink name=out sync=false")?
        .downcast::<gst::Pipeline>()
        .map_err(|_| "not a pipeline")?;
    pipeline.by_name("src").ok_or("no src")?.set_property("location", path.to_string_lossy().to_string());
    let sink = pipeline.by_name("out").ok_or("no out")?.downcast::<gst_app::AppSink>().map_err(|_| "not an appsink")?;
    pipeline.set_state(gst::State::Playing)?;
    let mut out = Vec::new();
    while let Ok(sample) = sink.pull_sample() {
        let buffer = sample.buffer().ok_or("no buffer")?;
        let key = !buffer.flags().contains(gst::BufferFlags::DELTA_UNIT);
        out.push((buffer.map_readable()?.to_vec(), key));
    }
    pipeline.set_state(gst::State::Null)?;
    Ok(out)
}

/// Checks each `(output frame, source ms)` edge: PSNR ≥ 40 dB against its source frame, and
/// closer to it than to its neighbours. The source frame is found by its place at 25 fps: a decode's
/// times of a clip with B-frames are shifted by its edit list, the clip's stream time is not.
fn edges_hold(out: &[(u64, Vec<u8>)], source: &[(u64, Vec<u8>)], edges: &[(usize, u64)]) -> Result {
    for &(o, ms) in edges {
        let i = usize::try_from(ms / 40)?;
        if i >= source.len() {
            return Err(format!("no source frame at {ms} ms").into());
        }
        let same = psnr(&out[o].1, &source[i].1);
        assert!(same >= 40.0, "frame {o}: {same:.1} dB against its source at {ms} ms");
        for n in [i.saturating_sub(1), (i + 1).min(source.len() - 1)].into_iter().filter(|n| *n != i) {
            assert!(psnr(&out[o].1, &source[n].1) < same, "frame {o} matches a neighbour of {ms} ms better");
        }
    }
    Ok(())
}

#[test]
fn a_smart_cut_copies_whole_gops_and_reencodes_only_the_edges() -> Result {
    let dir = tempfile::tempdir()?;
    // IDR frames every 2 s (key-int-max 50 at 25 fps).
    let input = Clip { seconds: 8.0, ..Clip::default() }.make(dir.path(), "in.mp4")?;
    let source = luma_frames(&input)?;
    // 1.0–6.4 s: a head (1–2 s) re-encoded, two whole GOPs (2–6 s) and a tail (6–6.4 s) copied
    // (without B-frames the GOP's first units show exactly its first frames); 7.0–7.6 s holds no
    // IDR frame and is re-encoded whole. 135 + 15 frames.
    let params = json!({"mode": "keep", "ranges": [{"startMs": 1000, "endMs": 6400}, {"startMs": 7000, "endMs": 7600}]});
    let o = cut(params, &input, &dir.path().join("smart"), true)?;
    let comment = cut_comment(&o.path)?.unwrap_or_default();
    assert!(comment.starts_with(SMART_TAG), "{comment}");
    assert!(comment.contains("110 frames copied, 40 re-encoded"), "{comment}");
    let frames = luma_frames(&o.path)?;
    assert_eq!(frames.len(), 150);
    edges_hold(&frames, &source, &[(0, 1000), (24, 1960), (25, 2000), (124, 5960), (125, 6000), (134, 6360), (135, 7000), (149, 7560)])?;
    // The copied GOPs decode to the very source frames.
    for k in 25..125 {
        assert!(frames[k].1 == source[50 + k - 25].1, "copied frame {k} differs from its source");
    }
    // …because they are the source's packets: 2–6 s is decode positions 50–149 of the source and
    // 25–124 of the cut (the head's 25 pictures before them). A GOP's first packet carries its
    // parameter sets in the cut (avc3), so the pictures after it are compared.
    let (src, made) = (packets(&input)?, packets(&o.path)?);
    assert_eq!(made.len(), 150);
    assert!(made[25].1 && made[75].1 && made[125].1 && made[135].1, "each piece starts a GOP");
    let deltas = |p: &[(Vec<u8>, bool)]| p.iter().filter(|(_, key)| !key).map(|(b, _)| b.clone()).collect::<Vec<_>>();
    let copied = deltas(&made[25..125]);
    assert_eq!(copied.len(), 98);
    assert!(copied == deltas(&src[50..150]), "the middle of the kept range is not the source's packets");
    let facts = probe(&o.path)?;
    assert!(facts.duration_ms.abs_diff(6000) <= 40, "{} ms", facts.duration_ms);
    assert!(facts.audio);
    Ok(())
}

#[test]
fn a_smart_cut_of_a_stream_with_b_frames_keeps_its_edges_and_order() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip { seconds: 6.0, bframes: 2, ..Clip::default() }.make(dir.path(), "b.mp4")?;
    let source = luma_frames(&input)?;
    let params = json!({"mode": "keep", "ranges": [{"startMs": 1200, "endMs": 4800}]});
    let o = cut(params, &input, &dir.path().join("smart"), true)?;
    let comment = cut_comment(&o.path)?.unwrap_or_default();
    assert!(comment.starts_with(SMART_TAG), "{comment}");
    // The head (1.2–2.0 s, 20 frames) is re-encoded, the GOP 2–4 s copied, and of the tail
    // (4.0–4.8 s) the units up to its last reference picture whose B-frames lie inside: at most
    // the last mini-GOP's frames are re-encoded.
    let count = |word: &str| comment.split([',', ':']).find_map(|p| p.trim().strip_suffix(word)?.trim().parse::<usize>().ok());
    let (copied, encoded) = (count("frames copied").unwrap_or(0), count("re-encoded").unwrap_or(0));
    assert!(copied + encoded == 90 && copied > 50 && encoded <= 23, "{comment}");
    let frames = luma_frames(&o.path)?;
    assert_eq!(frames.len(), 90);
    edges_hold(&frames, &source, &[(0, 1200), (19, 1960), (20, 2000), (69, 3960), (70, 4000), (89, 4760)])?;
    // In display order throughout, one frame apart.
    assert!(frames.windows(2).all(|w| w[1].0 == w[0].0 + 40), "the cut's frames are not 40 ms apart in order");
    Ok(())
}

#[test]
fn a_cut_the_smart_path_cannot_take_is_reencoded_and_says_why() -> Result {
    let dir = tempfile::tempdir()?;
    let input = Clip::default().make(dir.path(), "in.mp4")?;
    let params = json!({"mode": "keep", "ranges": [{"startMs": 400, "endMs": 2400}]});
    let o = cut(params, &input, &dir.path().join("full"), false)?;
    let comment = cut_comment(&o.path)?.unwrap_or_default();
    assert!(comment.starts_with(REENCODE_TAG), "{comment}");
    assert_eq!(luma_frames(&o.path)?.len(), 50);
    // A VP8 clip in WebM: not H.264, so re-encoded (frame-exact all the same).
    let webm = dir.path().join("in.webm");
    let p = gst::parse::launch(
        "videotestsrc num-buffers=100 pattern=smpte ! video/x-raw,width=320,height=180,framerate=25/1 ! vp8enc deadline=1 \
         ! webmmux ! filesink name=sink",
    )?
    .downcast::<gst::Pipeline>()
    .map_err(|_| "not a pipeline")?;
    p.by_name("sink").ok_or("no sink")?.set_property("location", webm.to_string_lossy().to_string());
    p.set_state(gst::State::Playing)?;
    let bus = p.bus().ok_or("no bus")?;
    bus.timed_pop_filtered(gst::ClockTime::from_seconds(30), &[gst::MessageType::Eos, gst::MessageType::Error]);
    p.set_state(gst::State::Null)?;
    let params = json!({"mode": "keep", "ranges": [{"startMs": 400, "endMs": 2400}]});
    let o = cut(params, &webm, &dir.path().join("vp8"), true)?;
    let comment = cut_comment(&o.path)?.unwrap_or_default();
    assert!(comment.starts_with(REENCODE_TAG) && comment.contains("not H.264"), "{comment}");
    assert_eq!(luma_frames(&o.path)?.len(), 50);
    Ok(())
}
