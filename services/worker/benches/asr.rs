//! `make bench-ai`: speech recognition's real-time factor (seconds of work / seconds of sound) on
//! a ~30 s English clip synthesised by the local voice: the path a recognition job runs on its
//! material, the sound made 16 kHz mono by GStreamer and recognised by the local PocketSphinx.
//! Median of three runs; prints `asr rtf: N` (goal ≤ 0.3) and the recogniser's own share.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use reelforge_ai::asr::{PocketSphinx, SAMPLE_RATE};
use reelforge_ai::speech::{Espeak, Speech, Voice};

type Error = Box<dyn std::error::Error>;

const RUNS: usize = 3;

const TEXT: &str = "Welcome to the video editing platform, this is a short test of speech recognition. Please open the door \
    and bring me a cup of coffee before the meeting starts. We will meet at the station tomorrow morning at nine o'clock. \
    The weather was cold and windy, so we stayed at home and read a book. Every morning she walks her dog in the park next \
    to the old church. Artificial intelligence is changing how videos are made: editing, subtitles and voice overs can now \
    be done automatically, and more and more creators use smart tools to work faster.";

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Error> {
    let dir = tempfile::tempdir()?;
    let speech = Speech { text: TEXT.to_owned(), voice: Voice::English, rate: 1.0, pitch: 50 };
    let wav = Espeak::new("espeak-ng").synthesise(&speech, &AtomicBool::new(false), &mut |_| {})?;
    let (source, speech_wav) = (dir.path().join("clip.wav"), dir.path().join("clip-16k.wav"));
    std::fs::write(&source, wav.bytes())?;
    let seconds = wav.duration_ms() as f64 / 1000.0;
    let asr = PocketSphinx::new("pocketsphinx_continuous", Path::new("/usr/share/pocketsphinx/model/en-us"));
    asr.check()?;
    let (mut whole, mut recogniser, mut words) = (Vec::new(), Vec::new(), 0);
    for _ in 0..RUNS {
        let t = Instant::now();
        reelforge_tools::speech_sound::speech_wav(&source, &speech_wav, SAMPLE_RATE, &AtomicBool::new(false), &mut |_| {})?;
        let r = Instant::now();
        let heard = asr.recognise(&speech_wav, wav.duration_ms(), Duration::from_secs(600), &AtomicBool::new(false))?;
        recogniser.push(r.elapsed().as_secs_f64());
        whole.push(t.elapsed().as_secs_f64());
        words = heard.words.len();
    }
    let (whole, recogniser) = (median(whole), median(recogniser));
    println!("en: {} characters, {seconds:.2} s of sound, {words} words heard; decode + recognition {whole:.3} s, recognition alone {recogniser:.3} s", TEXT.chars().count());
    println!("asr rtf: {:.4}", whole / seconds);
    println!("asr rtf of the recogniser alone: {:.4}", recogniser / seconds);
    Ok(())
}
