//! A clip's decoder and the frame it last gave, shared by the layers of a scene that show the
//! same frames of the same clip: the most common portrait look is a clip blurred behind itself
//! (the scene background with `cover` and `bgBlur`, the same clip contained in the middle),
//! and decoding it once for both halves the decoding.

use super::prepare::{Content, Drawable};
use crate::decode::{Frame, VideoDecoder};
use reelforge_timeline::FrameRate;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// A decoder and its last frame.
#[derive(Default)]
pub struct Feed {
    /// The running decoder and the clip frame it gives next.
    pub decoder: Option<(VideoDecoder, i64)>,
    /// The clip frame decoded last, with its number: the layer drawn second takes it from here.
    pub current: Option<(i64, Frame)>,
}

/// A feed owned by one layer, or shared by several; `Send`, as scenes are prepared on a thread
/// of their own.
pub type SharedFeed = Arc<Mutex<Feed>>;

/// What makes two layers show the same clip frame at every frame of their scene.
#[derive(PartialEq)]
struct Key {
    path: PathBuf,
    cut_start: u64,
    /// The layer's first frame in the scene.
    start: i64,
    /// How a layer frame becomes a clip frame past the clip's end (loop or hold, and the
    /// clip's length), or `None` when the clip lasts as long as the layer shows in the scene.
    past_end: Option<(bool, Option<i64>)>,
}

/// Gives the clips of `layers` that show the same frames of the same file one feed: decoded
/// once, at the largest size any of them needs; a clip shown smaller is scaled from the shared
/// frame before it is converted (`VideoState::scale_to`). A clip whose finishing is planned on
/// its own decoded size (`cut`, a cropped or blurred background) joins only at that size;
/// clips with alpha and reversed clips keep their own decoders. Sharing is a matter of cost
/// only: each layer still asks for exactly the clip frame it shows, so layers that drift apart
/// (a transition drawing a scene's held last frame) still draw the right frames.
pub fn share(layers: &mut [Drawable], rate: FrameRate, scene_frames: i64) {
    let mut groups: Vec<(Key, Vec<usize>)> = Vec::new();
    for (i, l) in layers.iter().enumerate() {
        let Content::Video(v) = &l.content else {
            continue;
        };
        if v.transparent || v.reverse.is_some() {
            continue;
        }
        let start = rate.frames_for(l.timing.start);
        let span = rate.frames_for(l.timing.end).min(scene_frames) - start;
        let past_end = match v.frames {
            Some(n) if n >= span => None,
            other => Some((v.looped, other)),
        };
        let key = Key {
            path: v.path.clone(),
            cut_start: v.cut_start.to_bits(),
            start,
            past_end,
        };
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, members)) => members.push(i),
            None => groups.push((key, vec![i])),
        }
    }
    for (_, members) in groups.into_iter().filter(|(_, m)| m.len() > 1) {
        let video = |i: usize| match layers.get(i).map(|l| &l.content) {
            Some(Content::Video(v)) => Some(v),
            _ => None,
        };
        let area = |s: (u32, u32)| u64::from(s.0) * u64::from(s.1);
        let Some(size) = members
            .iter()
            .filter_map(|&i| video(i).map(|v| v.size))
            .max_by_key(|&s| area(s))
        else {
            continue;
        };
        let joined: Vec<usize> = members
            .into_iter()
            .filter(|&i| video(i).is_some_and(|v| v.cut.is_none() || v.size == size))
            .collect();
        if joined.len() < 2 {
            continue;
        }
        let feed = SharedFeed::default();
        for i in joined {
            if let Some(Content::Video(v)) = layers.get_mut(i).map(|l| &mut l.content) {
                if v.size != size {
                    v.scale_to = v.scale_to.or(Some(v.size));
                    v.size = size;
                }
                v.feed = feed.clone();
            }
        }
    }
}
