//! "Make it loop" measured where the ring modal measures it: a document whose music is cut from a
//! quiet passage into a loud one, rendered as the editor leaves it and as "make it loop" leaves it
//! (the item fading out over the last second while the music just before its cut fades in, see
//! `frontend/src/editor/ringtone/loop.ts`); the second's sound seam is much smaller.

use crate::R;
use reelforge_conform::measure;
use reelforge_render::{Materials, RenderOptions, render};
use reelforge_timeline::Rule;
use serde_json::{Value, json};
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// A music track: 4 s quiet, then 4 s loud (a 440 Hz sine, stereo 48 kHz WAV).
fn music(dir: &Path) -> R {
    let part = |volume: f64| {
        format!("audiotestsrc wave=sine freq=440 volume={volume} samplesperbuffer=4800 num-buffers=40 ! audio/x-raw,rate=48000,channels=2 ! c. ")
    };
    let launch = format!(
        "concat name=c ! audioconvert ! wavenc ! filesink location={} {}{}",
        dir.join("music.wav").display(),
        part(0.05),
        part(0.8)
    );
    let st = std::process::Command::new("gst-launch-1.0").arg("-q").args(launch.split_whitespace()).status()?;
    assert!(st.success(), "{launch}");
    Ok(())
}

/// Renders a 4 s document with `audio` and answers the sound seam the ring check reports, dB.
fn seam_of(dir: &Path, name: &str, audio: Value) -> Result<f64, Box<dyn std::error::Error>> {
    let doc = json!({
        "version": 1, "frameRate": 25, "videoQuality": 99,
        "resolutionRatio": {"name": "16:9", "width": 160, "height": 90, "ratio": 1.777, "sizeId": 41, "targetWidth": 160},
        "scenes": [{"bgColor": "#336699", "timeLength": 4, "effect": "", "effectTime": 0, "layers": []}],
        "audio": audio
    });
    let rule = Rule::parse(&doc.to_string()).map_err(|e| e.to_string())?;
    let out = dir.join(name);
    render(&rule, &Materials::new(dir), &out, &RenderOptions::default(), &mut |_| {}, &AtomicBool::new(false))?;
    Ok(measure(&out)?.seam.sound_jump_db.ok_or("no sound seam")?)
}

#[test]
fn make_it_loop_shrinks_the_sound_seam() -> R {
    let d = crate::media::dir()?;
    music(d.path())?;
    // Cut to 3–7 s of the track: it starts quiet and ends loud.
    let cut = json!({"src": "music.wav", "start": 3, "end": 7, "startTime": 0, "endTime": 4, "volume": 100});
    let plain = seam_of(d.path(), "plain.mp4", json!([cut.clone()]))?;
    let mut faded = cut.clone();
    faded["fadeOutTime"] = json!(1);
    let bridge = json!({"src": "music.wav", "start": 2, "end": 3, "startTime": 3, "endTime": 4, "volume": 100, "fadeInTime": 1});
    let looped = seam_of(d.path(), "looped.mp4", json!([faded, bridge]))?;
    assert!(plain > 15.0, "the plain cut jumps from quiet to loud: {plain:.1} dB");
    // What is left is the loud passage's fade-out tail under the bridge in the last 50 ms.
    assert!(looped < 6.0 && looped < plain / 4.0, "make it loop: {looped:.1} dB against {plain:.1} dB");
    Ok(())
}
