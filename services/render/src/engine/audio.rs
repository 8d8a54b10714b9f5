//! The document's audio: every item (music, voice, video audio, extra audio) decoded, placed,
//! looped, gained with the volume mapping and faded, all sample exact; music ducked under the
//! voices; then the rule's audioFade, and the whole mix measured and brought to its loudness.

use crate::decode::{SAMPLE_RATE, decode_audio};
use crate::error::{MediaError, Place, RenderError, Stage};
use crate::materials::Materials;
use crate::mix::{Ducking, Mixer, Placement, samples_for};
use reelforge_timeline::audio::{AudioItem, DUCK_ATTACK_S, DUCK_RELEASE_S};
use reelforge_timeline::{Layer, Rule, Timeline, volume};

fn item_place(scene: Option<usize>, item: &AudioItem) -> Place {
    Place {
        scene,
        layer: Some(format!(
            "audio {}",
            item.id
                .as_ref()
                .map(|i| i.to_string())
                .unwrap_or_else(|| item.name.clone())
        )),
        material: Some(item.src.clone()),
    }
}

/// Returns the mix of the whole document (`total` samples per channel).
pub fn mix(
    rule: &Rule,
    tl: &Timeline,
    materials: &Materials,
    total: i64,
    watchdog_s: u64,
) -> Result<Mixer, RenderError> {
    let mut m = Mixer::new(total);
    let doc_len = total;
    // (scene, item, is a voice): voices first, so the music knows where they play.
    let mut items: Vec<(Option<usize>, &AudioItem, bool)> =
        rule.audio.iter().map(|a| (None, a, a.is_voice())).collect();
    for (i, s) in rule.scenes.iter().enumerate() {
        items.extend(
            s.audio
                .iter()
                .chain(&s.video_audios)
                .map(|a| (Some(i), a, a.is_voice())),
        );
        items.extend(s.voice.iter().map(|a| (Some(i), a, true)));
    }
    items.sort_by_key(|&(_, _, voice)| !voice);
    let mut voiced = Vec::new();
    let mut ducking = None;
    for (scene, item, voice) in items {
        let place = item_place(scene, item);
        let path = materials
            .resolve(&item.src)
            .map_err(|e| place.err(Stage::Fetch, e))?;
        let at = samples_for(item.start_time.max(0.0));
        let len = if item.end_time > item.start_time {
            samples_for(item.end_time - item.start_time)
        } else {
            doc_len - at
        };
        // Only what is heard is decoded: an unlooped item stops at its placed length.
        let heard = (!item.is_loop && len > 0).then(|| len as f64 / f64::from(SAMPLE_RATE));
        let cut = (item.end > item.start)
            .then_some(item.end - item.start)
            .into_iter()
            .chain(heard)
            .reduce(f64::min);
        let src = decode_audio(&path, item.start.max(0.0), cut, watchdog_s)
            .map_err(|e| place.err(Stage::Decode, e))?;
        let placement = Placement {
            at,
            len,
            looped: item.is_loop,
            gain: volume::slider_to_gain(item.volume) as f32,
            fade_in: samples_for(item.fade_in_time),
            fade_out: samples_for(item.fade_out_time),
        };
        if voice {
            // An unlooped voice is heard only as long as its source lasts.
            let heard = if item.is_loop {
                len
            } else {
                len.min((src.len() / crate::decode::CHANNELS) as i64)
            };
            if placement.gain > 0.0 {
                voiced.push((at, at + heard));
            }
            m.add(&src, &placement);
        } else if item.duck && item.kind != "video" {
            let ducking = ducking.get_or_insert_with(|| {
                Ducking::new(
                    voiced.iter().copied(),
                    samples_for(DUCK_ATTACK_S),
                    samples_for(DUCK_RELEASE_S),
                )
            });
            m.add_ducked(
                &src,
                &placement,
                ducking,
                10f64.powf(-item.duck_depth / 20.0) as f32,
            );
        } else {
            m.add(&src, &placement);
        }
    }
    // A video layer's own sound plays unless muted, or when the scene lists its video audio itself.
    for (i, s) in rule.scenes.iter().enumerate() {
        if !s.video_audios.is_empty() {
            continue;
        }
        let Some(plan) = tl.scenes.get(i) else {
            continue;
        };
        let scene_at = tl.rate.sample_of(plan.start, SAMPLE_RATE);
        for l in &s.layers {
            let Layer::Video(v) = l else { continue };
            if v.no_audio || volume::slider_to_gain(v.volume) == 0.0 {
                continue;
            }
            let src = v.video_path().unwrap_or("");
            let place = Place {
                scene: Some(i),
                layer: Some(v.common.id.to_string()),
                material: Some(src.to_owned()),
            };
            let path = materials
                .resolve(src)
                .map_err(|e| place.err(Stage::Fetch, e))?;
            let span = (v.common.end_time - v.common.start_time).max(0.0);
            let cut = v.cut_range().filter(|(s, e)| e > s);
            let start = cut.map_or(0.0, |c| c.0.max(0.0));
            // The cut plays once: a layer longer than its cut is silent after it.
            let heard = cut.map_or(span, |(s, e)| span.min(e - s.max(0.0)));
            let mut pcm = match decode_audio(&path, start, Some(heard), watchdog_s) {
                Ok(p) => p,
                Err(MediaError::NoStream(_)) => continue,
                Err(e) => return Err(place.err(Stage::Decode, e)),
            };
            if v.reversed() {
                reverse_frames(&mut pcm);
            }
            m.add(
                &pcm,
                &Placement {
                    at: scene_at + samples_for(v.common.start_time.max(0.0)),
                    len: samples_for(span),
                    looped: false,
                    gain: volume::slider_to_gain(v.volume) as f32,
                    fade_in: 0,
                    fade_out: 0,
                },
            );
        }
    }
    if rule.audio_fade.status {
        m.fade(
            samples_for(rule.audio_fade.in_time),
            samples_for(rule.audio_fade.out_time),
        );
    }
    m.normalise(rule.loudness.status.then_some(rule.loudness.target));
    Ok(m)
}

/// Reverses interleaved audio in time, keeping each sample frame's channels in order.
fn reverse_frames(pcm: &mut [f32]) {
    let ch = crate::decode::CHANNELS;
    let n = pcm.len() / ch;
    for i in 0..n / 2 {
        for c in 0..ch {
            pcm.swap(i * ch + c, (n - 1 - i) * ch + c);
        }
    }
}
