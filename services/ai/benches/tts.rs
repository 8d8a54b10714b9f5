//! `make bench-ai`: text to speech's real-time factor through the local voice (synthesis seconds /
//! audio seconds: the whole path a dubbing job runs — espeak-ng started, the text on its stdin,
//! the WAV read from its stdout and its header mended), and in the same run plain `espeak-ng -w`
//! writing the same texts to a file, the baseline. Median of five runs each, taking turns, over a
//! Mandarin and an English paragraph; prints `tts rtf: N` (goal ≤ 0.2) and
//! `tts rtf vs plain espeak-ng wav: R` (R ≈ 1: the path adds nothing to espeak-ng's own time).

use std::process::Command;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use reelforge_ai::speech::{Espeak, Speech};
use serde_json::json;

type Error = Box<dyn std::error::Error>;

/// Runs per side; the median is printed.
const RUNS: usize = 5;

const TEXTS: [(&str, &str); 2] = [
    (
        "cmn",
        "人工智能技术正在改变视频制作行业。借助人工智能，视频剪辑、字幕生成和配音都可以自动完成。越来越多的视频创作者使用智能工具来提高制作效率，\
         短视频平台也在推广智能剪辑功能。一段好的配音能让视频更有感染力，也能帮助观众更快地理解内容。",
    ),
    (
        "en",
        "Artificial intelligence is changing how videos are made. Editing, subtitles and voice overs can now be done \
         automatically, and more and more creators use smart tools to work faster. A good voice over makes a video more \
         engaging and helps viewers understand it sooner.",
    ),
];

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() -> Result<(), Error> {
    let dir = tempfile::tempdir()?;
    let espeak = Espeak::new("espeak-ng");
    espeak.check()?;
    let (mut ours, mut plain, mut audio) = (Vec::new(), Vec::new(), 0.0);
    for (voice, text) in TEXTS {
        let speech = Speech::parse(&json!({"text": text, "voice": voice}))?;
        let file = dir.path().join(format!("{voice}.txt"));
        std::fs::write(&file, text)?;
        let out = dir.path().join(format!("{voice}.wav"));
        let (mut a, mut b, mut seconds) = (Vec::new(), Vec::new(), 0.0);
        for _ in 0..RUNS {
            let t = Instant::now();
            let wav = espeak.synthesise(&speech, &AtomicBool::new(false), &mut |_| {})?;
            a.push(t.elapsed().as_secs_f64());
            seconds = wav.duration_ms() as f64 / 1000.0;
            let t = Instant::now();
            let status = Command::new("espeak-ng")
                .args(["-b", "1", "-v", speech.voice.espeak_with_variant(), "-w"])
                .arg(&out)
                .arg("-f")
                .arg(&file)
                .status()?;
            b.push(t.elapsed().as_secs_f64());
            if !status.success() {
                return Err(format!("plain espeak-ng failed: {status}").into());
            }
        }
        let (a, b) = (median(a), median(b));
        println!("{voice}: {} characters, {seconds:.2} s of audio; synthesis {a:.3} s, plain espeak-ng -w {b:.3} s", text.chars().count());
        ours.push(a);
        plain.push(b);
        audio += seconds;
    }
    let (ours, plain): (f64, f64) = (ours.iter().sum(), plain.iter().sum());
    println!("plain espeak-ng wav rtf: {:.4}", plain / audio);
    println!("tts rtf: {:.4}", ours / audio);
    println!("tts rtf vs plain espeak-ng wav: {:.2}", ours / plain);
    Ok(())
}
