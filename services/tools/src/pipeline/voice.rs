//! EXTRACT_PERSON_AUDIO: the voice of a stereo mix by centre-channel extraction, no model. A mix
//! puts its voice in the middle (the same in both channels) and spreads its instruments to the
//! sides, so the voice is what the two channels share. The sound is decoded to 48 kHz stereo and
//! cut into 2048-sample Hann windows every 512 samples; in each window every frequency bin of the
//! two channels, L and R, is compared: `2·Re(L·R̄) / (|L|² + |R|²)` is 1 where they are the same
//! (centred) and 0 or less where one is silent or they are opposed. Its square (0 below zero)
//! weights the bin's mid `(L + R) / 2`: that is the voice, kept between 100 Hz and 8 kHz (speech's
//! band; the edges fade over a quarter of an octave). The accompaniment is the mix less the
//! centre (each channel less the weighted mid, at every frequency): karaoke's L − R without its
//! loss of the centred bass and drums. The windows are added back (Hann² at a quarter overlap
//! sums to 1.5). A mono sound has no sides to tell the voice by and is refused.
//!
//! `decodebin → audioconvert → audioresample → F32 stereo appsink` → the separation in Rust →
//! `appsrc → audioconvert → AAC → mp4mux` (`voice.m4a` mono, `accompaniment.m4a` stereo).

use std::f32::consts::PI;

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;

use super::{Job, Output, OutputKind, Progress, aac};
use crate::error::{ParamError, ToolError};
use crate::gst_run::{app_sink, element, launch, pull, sound_only};
use crate::params::Vocals;

/// The window, samples.
const N: usize = 2048;
/// The step between windows, samples.
const HOP: usize = N / 4;
/// The sample rate the separation runs at.
const RATE: usize = 48_000;
/// The speech band kept in the voice, Hz.
const BAND: (f32, f32) = (100.0, 8000.0);

/// A complex number.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct C {
    re: f32,
    im: f32,
}

impl C {
    fn add(self, o: Self) -> Self {
        Self { re: self.re + o.re, im: self.im + o.im }
    }
    fn sub(self, o: Self) -> Self {
        Self { re: self.re - o.re, im: self.im - o.im }
    }
    fn mul(self, o: Self) -> Self {
        Self { re: self.re * o.re - self.im * o.im, im: self.re * o.im + self.im * o.re }
    }
    fn scale(self, k: f32) -> Self {
        Self { re: self.re * k, im: self.im * k }
    }
    fn conj(self) -> Self {
        Self { re: self.re, im: -self.im }
    }
    fn norm2(self) -> f32 {
        self.re * self.re + self.im * self.im
    }
}

/// An in-place radix-2 FFT of `N` points (`inverse`: without the 1/N, which the caller applies).
fn fft(x: &mut [C], twiddles: &[C], inverse: bool) {
    let n = x.len();
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            x.swap(i, j);
        }
    }
    let mut len = 2;
    while len <= n {
        let step = n / len;
        for start in (0..n).step_by(len) {
            for k in 0..len / 2 {
                let w = if inverse { twiddles[k * step].conj() } else { twiddles[k * step] };
                let a = x[start + k];
                let b = x[start + k + len / 2].mul(w);
                x[start + k] = a.add(b);
                x[start + k + len / 2] = a.sub(b);
            }
        }
        len <<= 1;
    }
}

/// The streaming separation: stereo samples in, the voice (mono) and the accompaniment (stereo) out,
/// `N − HOP` samples late; [`Separator::finish`] flushes the rest.
struct Separator {
    window: Vec<f32>,
    twiddles: Vec<C>,
    /// The speech band's gain per bin.
    band: Vec<f32>,
    /// Input not yet past every window that covers it, per channel.
    input: [Vec<f32>; 2],
    /// The sums of the windows added back, from the first sample not yet given out.
    voice: Vec<f32>,
    accompaniment: [Vec<f32>; 2],
    /// Samples taken in, and given out (counting the leading latency, which is dropped).
    taken: usize,
    given: usize,
}

impl Separator {
    fn new() -> Self {
        let window = (0..N).map(|i| 0.5 - 0.5 * (2.0 * PI * i as f32 / N as f32).cos()).collect();
        let twiddles = (0..N / 2).map(|k| C { re: (2.0 * PI * k as f32 / N as f32).cos(), im: -(2.0 * PI * k as f32 / N as f32).sin() }).collect();
        let band = (0..=N / 2)
            .map(|k| {
                let hz = k as f32 * RATE as f32 / N as f32;
                // A quarter octave's fade outside each edge.
                let below = ((hz / BAND.0).log2() * 4.0 + 1.0).clamp(0.0, 1.0);
                let above = ((BAND.1 / hz.max(1.0)).log2() * 4.0 + 1.0).clamp(0.0, 1.0);
                below.min(above)
            })
            .collect();
        // The first window starts N − HOP samples before the sound, so every sample gets N / HOP windows.
        let lead = vec![0.0; N - HOP];
        Self {
            window,
            twiddles,
            band,
            input: [lead.clone(), lead],
            voice: vec![0.0; N],
            accompaniment: [vec![0.0; N], vec![0.0; N]],
            taken: 0,
            given: 0,
        }
    }

    /// Takes interleaved stereo samples; gives out what is final as (voice, interleaved accompaniment).
    fn push(&mut self, interleaved: &[f32], out: &mut (Vec<f32>, Vec<f32>)) {
        for pair in interleaved.chunks_exact(2) {
            self.input[0].push(pair[0]);
            self.input[1].push(pair[1]);
        }
        self.taken += interleaved.len() / 2;
        while self.input[0].len() >= N {
            self.window_once(out);
        }
    }

    /// Pads the end with silence until every sample taken has been given out.
    fn finish(&mut self, out: &mut (Vec<f32>, Vec<f32>)) {
        while self.given < self.taken + (N - HOP) {
            let pad = N.saturating_sub(self.input[0].len());
            for ch in &mut self.input {
                ch.extend(std::iter::repeat_n(0.0, pad));
            }
            self.window_once(out);
        }
        let extra = self.given - (self.taken + (N - HOP));
        out.0.truncate(out.0.len() - extra.min(out.0.len()));
        out.1.truncate(out.1.len() - (2 * extra).min(out.1.len()));
    }

    /// Separates the window at the start of the input and gives out the `HOP` samples now final.
    fn window_once(&mut self, out: &mut (Vec<f32>, Vec<f32>)) {
        // Both channels in one transform: z = l + i·r.
        let mut z: Vec<C> = (0..N).map(|i| C { re: self.input[0][i] * self.window[i], im: self.input[1][i] * self.window[i] }).collect();
        fft(&mut z, &self.twiddles, false);
        let mut voice = vec![C::default(); N];
        let mut rest = vec![C::default(); N];
        for k in 0..=N / 2 {
            let (zk, zn) = (z[k], z[(N - k) % N].conj());
            let l = zk.add(zn).scale(0.5);
            // (zk − zn) / 2i
            let d = zk.sub(zn).scale(0.5);
            let r = C { re: d.im, im: -d.re };
            let energy = l.norm2() + r.norm2();
            let same = if energy > 1e-12 { (2.0 * l.mul(r.conj()).re / energy).max(0.0) } else { 0.0 };
            let centre = l.add(r).scale(0.5 * same * same);
            let v = centre.scale(self.band[k]);
            let (al, ar) = (l.sub(centre), r.sub(centre));
            // The voice alone; the accompaniment's two channels packed as al + i·ar.
            voice[k] = v;
            rest[k] = al.add(C { re: -ar.im, im: ar.re });
            if k > 0 && k < N / 2 {
                voice[N - k] = v.conj();
                rest[N - k] = al.conj().add(C { re: -ar.conj().im, im: ar.conj().re });
            }
        }
        fft(&mut voice, &self.twiddles, true);
        fft(&mut rest, &self.twiddles, true);
        // 1/N of the inverse, and Hann² at a quarter overlap sums to 1.5.
        let gain = 1.0 / (N as f32 * 1.5);
        for i in 0..N {
            let w = self.window[i] * gain;
            self.voice[i] += voice[i].re * w;
            self.accompaniment[0][i] += rest[i].re * w;
            self.accompaniment[1][i] += rest[i].im * w;
        }
        for i in 0..HOP {
            // The first N − HOP samples given out are the lead's silence.
            if self.given + i >= N - HOP {
                out.0.push(self.voice[i]);
                out.1.push(self.accompaniment[0][i]);
                out.1.push(self.accompaniment[1][i]);
            }
        }
        self.given += HOP;
        for ch in std::iter::once(&mut self.voice).chain(self.accompaniment.iter_mut()) {
            ch.drain(..HOP);
            ch.extend(std::iter::repeat_n(0.0, HOP));
        }
        for ch in &mut self.input {
            ch.drain(..HOP);
        }
    }
}

/// The sound's channels (of its first sound stream).
fn channels(path: &std::path::Path) -> Result<u32, ToolError> {
    use gstreamer_pbutils as pbutils;
    let uri = crate::gst_run::file_uri(path)?;
    let disc = pbutils::Discoverer::new(gst::ClockTime::from_seconds(30))?;
    let info = disc.discover_uri(&uri).map_err(|e| ToolError::NotMedia(e.message().to_owned()))?;
    Ok(info.audio_streams().first().map_or(0, |a| a.channels()))
}

/// Pushes `samples` (F32, `channels` interleaved) into `src`, timed from `at` samples in.
fn push(src: &gst_app::AppSrc, samples: &[f32], channels: usize, at: &mut u64) -> Result<(), ToolError> {
    if samples.is_empty() {
        return Ok(());
    }
    let frames = (samples.len() / channels) as u64;
    let bytes: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    let mut buffer = gst::Buffer::from_mut_slice(bytes);
    {
        let b = buffer.get_mut().ok_or_else(|| ToolError::Failed("a new buffer is not writable".to_owned()))?;
        b.set_pts(gst::ClockTime::from_nseconds(*at * 1_000_000_000 / RATE as u64));
        b.set_duration(gst::ClockTime::from_nseconds(frames * 1_000_000_000 / RATE as u64));
    }
    *at += frames;
    src.push_buffer(buffer).map_err(|e| ToolError::Failed(format!("the encoder refused the sound: {e}")))?;
    Ok(())
}

impl Job<'_> {
    pub(super) fn vocals(&mut self, v: Vocals) -> Result<Vec<Output>, ToolError> {
        if channels(self.input)? < 2 {
            let why = "the sound is mono: the voice is told from the music by what a stereo mix's two channels share, and a mono sound has one channel; choose a stereo material";
            return Err(ParamError::new("materialIds", why).into());
        }
        let decode = launch(
            &format!(
                "filesrc name=src ! decodebin name=d d. ! audio/x-raw ! queue ! audioconvert ! audioresample \
                 ! audio/x-raw,format=F32LE,layout=interleaved,rate={RATE},channels=2 ! appsink name=sink sync=false max-buffers=8"
            ),
            Some(self.input),
            None,
        )?;
        sound_only(&decode.0, "d")?;
        let sink = app_sink(&decode.0, "sink")?;
        let encoder = |name: &str, channels: u32| {
            format!(
                "appsrc name={name} format=time block=true max-bytes=1048576 \
                 caps=audio/x-raw,format=F32LE,layout=interleaved,rate={RATE},channels={channels} \
                 ! audioconvert ! {} bitrate=192000 ! aacparse ! mp4mux faststart=true ! filesink name={name}-file",
                aac()
            )
        };
        let description = if v.accompaniment { format!("{} {}", encoder("voice", 1), encoder("rest", 2)) } else { encoder("voice", 1) };
        let encode = launch(&description, None, None)?;
        let voice_out = self.partial("voice.m4a");
        let rest_out = self.partial("accompaniment.m4a");
        element(&encode.0, "voice-file")?.set_property("location", voice_out.to_string_lossy().to_string());
        let src = |name: &str| -> Result<gst_app::AppSrc, ToolError> {
            element(&encode.0, name)?.downcast::<gst_app::AppSrc>().map_err(|_| ToolError::Gst(format!("{name} is not an appsrc")))
        };
        let voice_src = src("voice")?;
        let rest_src = if v.accompaniment {
            element(&encode.0, "rest-file")?.set_property("location", rest_out.to_string_lossy().to_string());
            Some(src("rest")?)
        } else {
            None
        };
        encode.0.set_state(gst::State::Playing)?;
        let decode_bus = decode.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        let encode_bus = encode.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
        decode.0.set_state(gst::State::Playing)?;
        let mut separator = Separator::new();
        let mut out = (Vec::new(), Vec::new());
        let (mut voice_at, mut rest_at) = (0u64, 0u64);
        let total = self.facts.duration_ms.max(1);
        let mut send = |out: &mut (Vec<f32>, Vec<f32>)| -> Result<(), ToolError> {
            push(&voice_src, &out.0, 1, &mut voice_at)?;
            if let Some(rest) = &rest_src {
                push(rest, &out.1, 2, &mut rest_at)?;
            }
            out.0.clear();
            out.1.clear();
            if let Some(msg) = encode_bus.pop_filtered(&[gst::MessageType::Error])
                && let gst::MessageView::Error(e) = msg.view()
            {
                return Err(crate::gst_run::bus_error(e));
            }
            Ok(())
        };
        while let Some(sample) = pull(&decode_bus, &sink, self.cancel)? {
            let Some(buffer) = sample.buffer() else { continue };
            let map = buffer.map_readable().map_err(|e| ToolError::Failed(e.to_string()))?;
            let samples: Vec<f32> = map.chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
            drop(map);
            separator.push(&samples, &mut out);
            send(&mut out)?;
            let at = (separator.taken as u64 * 1000 / RATE as u64).min(total);
            (self.progress)(Progress { done_ms: at * 95 / 100, total_ms: total });
        }
        drop(decode);
        separator.finish(&mut out);
        send(&mut out)?;
        for s in std::iter::once(&voice_src).chain(rest_src.as_ref()) {
            s.end_of_stream().map_err(|e| ToolError::Failed(format!("the encoder refused the end: {e}")))?;
        }
        crate::gst_run::play(&encode, self.cancel, &mut |_| {})?;
        drop(encode);
        (self.progress)(Progress { done_ms: total, total_ms: total });
        let mut outputs = vec![self.output(voice_out, OutputKind::Audio, "voice.m4a")?];
        if v.accompaniment {
            outputs.push(self.output(rest_out, OutputKind::Audio, "accompaniment.m4a")?);
        }
        Ok(outputs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs the separation on `frames` stereo samples made by `at(i) -> (l, r)`.
    fn separate(frames: usize, at: impl Fn(usize) -> (f32, f32)) -> (Vec<f32>, Vec<f32>) {
        let mut s = Separator::new();
        let mut out = (Vec::new(), Vec::new());
        let input: Vec<f32> = (0..frames).flat_map(|i| {
            let (l, r) = at(i);
            [l, r]
        }).collect();
        for chunk in input.chunks(1000) {
            s.push(chunk, &mut out);
        }
        s.finish(&mut out);
        out
    }

    #[test]
    fn the_voice_is_what_both_channels_share_and_every_sample_comes_back() {
        let tone = |hz: f32, i: usize| (2.0 * PI * hz * i as f32 / RATE as f32).sin();
        // A centred 440 Hz: all voice, no accompaniment, sample for sample after the edges.
        let (voice, rest) = separate(RATE, |i| (0.5 * tone(440.0, i), 0.5 * tone(440.0, i)));
        assert_eq!((voice.len(), rest.len()), (RATE, 2 * RATE));
        let mid = RATE / 2;
        assert!((voice[mid] - 0.5 * tone(440.0, mid)).abs() < 0.01, "{} against {}", voice[mid], 0.5 * tone(440.0, mid));
        assert!(rest[2 * mid].abs() < 0.01);
        // The same tone in the left channel alone: no voice, all accompaniment.
        let (voice, rest) = separate(RATE, |i| (0.5 * tone(440.0, i), 0.0));
        assert!(voice[N..RATE - N].iter().all(|v| v.abs() < 0.01));
        assert!((rest[2 * mid] - 0.5 * tone(440.0, mid)).abs() < 0.01);
    }
}
