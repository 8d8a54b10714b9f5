//! Speech recognition on real speech (docs/ai.md, "Speech recognition"): English synthesised by
//! the local voice through the dubbing's own path (`Espeak::synthesise`), its sound made 16 kHz mono
//! by the worker's GStreamer step (`speech_wav`), recognised by the local PocketSphinx. Nothing is
//! expected by hand: the text recognised is measured against the text spoken, and the word times
//! against the times the words were placed at.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use reelforge_ai::asr::{PocketSphinx, SAMPLE_RATE, Word};
use reelforge_ai::speech::{Espeak, Speech, Voice};
use reelforge_ai::{AiError, Wav};

type Error = Box<dyn std::error::Error>;

const MODEL: &str = "/usr/share/pocketsphinx/model/en-us";

fn recogniser() -> PocketSphinx {
    PocketSphinx::new("pocketsphinx_continuous", Path::new(MODEL))
}

fn speak(text: &str) -> Result<Wav, Error> {
    let speech = Speech { text: text.to_owned(), voice: Voice::English, rate: 1.0, pitch: 50 };
    Ok(Espeak::new("espeak-ng").synthesise(&speech, &AtomicBool::new(false), &mut |_| {})?)
}

/// Writes `wav`'s sound to `dir/name`, makes it the recogniser's 16 kHz WAV, and recognises it.
fn recognise(dir: &Path, name: &str, wav: &[u8]) -> Result<Result<Vec<Word>, AiError>, Error> {
    let (source, speech) = (dir.join(format!("{name}.wav")), dir.join(format!("{name}-16k.wav")));
    std::fs::write(&source, wav)?;
    reelforge_tools::speech_sound::speech_wav(&source, &speech, SAMPLE_RATE, &AtomicBool::new(false), &mut |_| {})?;
    let ms = std::fs::metadata(&speech)?.len().saturating_sub(44) * 1000 / u64::from(SAMPLE_RATE * 2);
    Ok(recogniser().recognise(&speech, ms, Duration::from_secs(120), &AtomicBool::new(false)).map(|t| t.words))
}

/// Lower case letters and digits, every other run of characters one space (an apostrophe none:
/// `o'clock` is `oclock` either way).
fn letters(text: &str) -> String {
    let kept: String =
        text.to_lowercase().chars().filter(|c| *c != '\'').map(|c| if c.is_alphanumeric() { c } else { ' ' }).collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The share of `said`'s characters that `heard` matches: 1 − edit distance / length of `said`.
fn similarity(said: &str, heard: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (said.chars().collect(), heard.chars().collect());
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (row[j + 1] + 1).min(row[j] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = row[j + 1];
            row[j + 1] = next;
        }
    }
    1.0 - row[b.len()] as f64 / a.len().max(1) as f64
}

#[test]
fn english_spoken_by_the_local_voice_is_recognised_back() -> Result<(), Error> {
    let text = "Welcome to the video editing platform, this is a short test of speech recognition. Please open the door \
                and bring me a cup of coffee before the meeting starts. We will meet at the station tomorrow morning at \
                nine o'clock. The weather was cold and windy, so we stayed at home and read a book. Every morning she \
                walks her dog in the park next to the old church.";
    let dir = tempfile::tempdir()?;
    let wav = speak(text)?;
    let words = recognise(dir.path(), "paragraph", wav.bytes())??;
    let heard = words.iter().map(|w| w.word.as_str()).collect::<Vec<_>>().join(" ");
    let score = similarity(&letters(text), &letters(&heard));
    println!("said:  {}\nheard: {}\ncharacters matched: {:.1} %", letters(text), letters(&heard), score * 100.0);
    assert!(score >= 0.8, "{:.1} % of the characters recognised back (goal ≥ 80 %)", score * 100.0);
    // The words come in order, each inside the sound.
    assert!(words.windows(2).all(|p| p[0].end_ms <= p[1].start_ms), "{words:?}");
    assert!(words.iter().all(|w| w.start_ms < w.end_ms && w.end_ms <= wav.duration_ms() + 50), "{words:?}");
    Ok(())
}

/// The samples of a mono WAV made by the local voice, as 16-bit integers.
fn samples(wav: &Wav) -> Vec<i16> {
    wav.mono().iter().map(|s| (s * 32767.0).round() as i16).collect()
}

/// The first and last sample of `pcm` in a 10 ms window louder than −30 dBFS: where speech is.
fn spoken_bounds(pcm: &[i16], rate: u32) -> Option<(usize, usize)> {
    let window = (rate / 100) as usize;
    let loud = |w: &[i16]| w.iter().any(|s| i32::from(*s).abs() > 1036);
    let first = pcm.chunks(window).position(loud)?;
    let last = pcm.chunks(window).rposition(loud)?;
    Some((first * window, ((last + 1) * window).min(pcm.len())))
}

fn wav_file(pcm: &[i16], rate: u32) -> Vec<u8> {
    let data = (pcm.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data.to_le_bytes());
    for s in pcm {
        out.extend_from_slice(&s.to_le_bytes());
    }
    out
}

#[test]
fn word_timings_are_within_300_ms_of_when_the_words_were_said() -> Result<(), Error> {
    // Each word spoken alone and placed in the clip at a known offset, a pause after it: its
    // spoken time is where its own sound is loud, shifted by that offset.
    let said = ["welcome", "to", "the", "video", "editing", "platform", "please", "open", "the", "window", "every", "morning"];
    let (mut clip, mut spans, mut rate) = (Vec::new(), Vec::new(), 0);
    for word in said {
        let wav = speak(word)?;
        rate = wav.sample_rate();
        let pcm = samples(&wav);
        let (from, to) = spoken_bounds(&pcm, rate).ok_or_else(|| format!("`{word}` made no sound"))?;
        let at = clip.len();
        let ms = |i: usize| (i as u64) * 1000 / u64::from(rate);
        spans.push((word, ms(at + from), ms(at + to)));
        clip.extend_from_slice(&pcm);
        clip.extend(std::iter::repeat_n(0i16, rate as usize * 35 / 100));
    }
    let dir = tempfile::tempdir()?;
    let words = recognise(dir.path(), "words", &wav_file(&clip, rate))??;
    println!("spoken: {spans:?}\nheard:  {words:?}");
    // Every word heard lies within 300 ms of a word said; every word said that was heard starts
    // and ends within 300 ms of its first and last word heard.
    const SLACK: u64 = 300;
    for w in &words {
        let near = spans.iter().any(|(_, s, e)| w.start_ms + SLACK >= *s && w.end_ms <= e + SLACK);
        assert!(near, "{w:?} was heard where nothing was said: {spans:?}");
    }
    let mut heard = 0;
    for (word, s, e) in &spans {
        let inside: Vec<&Word> = words.iter().filter(|w| w.start_ms + SLACK >= *s && w.end_ms <= e + SLACK).collect();
        let (Some(first), Some(last)) = (inside.first(), inside.last()) else { continue };
        heard += 1;
        assert!(first.start_ms.abs_diff(*s) <= SLACK, "`{word}` said at {s} ms, heard from {} ms", first.start_ms);
        assert!(last.end_ms.abs_diff(*e) <= SLACK, "`{word}` said until {e} ms, heard until {} ms", last.end_ms);
    }
    assert!(heard * 4 >= spans.len() * 3, "only {heard} of {} words were heard at all", spans.len());
    Ok(())
}

#[test]
fn a_sound_with_no_speech_says_so() -> Result<(), Error> {
    let dir = tempfile::tempdir()?;
    let silence = wav_file(&vec![0i16; 22_050 * 2], 22_050);
    match recognise(dir.path(), "silence", &silence)? {
        Err(AiError::BadInput(why)) => assert!(why.contains("no speech"), "{why}"),
        other => panic!("silence recognised as {other:?}"),
    }
    Ok(())
}

#[test]
fn a_recogniser_without_its_model_is_not_configured() {
    let missing = PocketSphinx::new("pocketsphinx_continuous", Path::new("/nonexistent/model"));
    assert!(missing.check().is_err_and(|why| why.contains("pocketsphinx-en-us")));
    let absent = PocketSphinx::new("/nonexistent/pocketsphinx_continuous", Path::new(MODEL));
    assert!(absent.check().is_err_and(|why| why.contains("cannot run")));
    assert!(recogniser().check().is_ok(), "install pocketsphinx and pocketsphinx-en-us (make deps)");
}
