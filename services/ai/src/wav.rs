//! 16-bit PCM WAV as the voices give it. espeak-ng writing to a pipe cannot know its length, so its
//! header declares an "unknown" size (about 2 GiB); [`Wav::mend`] sets the sizes to the bytes that
//! came, so that every reader (the material probe, browsers) measures the true duration.

use std::ops::Range;

/// A WAV whose header matches its bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wav {
    bytes: Vec<u8>,
    sample_rate: u32,
    channels: u16,
    data: Range<usize>,
}

/// The format chunk's facts and where the data starts, with the size its header declares.
struct Header {
    sample_rate: u32,
    channels: u16,
    /// Offset of the data chunk's size field.
    size_at: usize,
    /// Offset of the first sample.
    start: usize,
    declared: usize,
}

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    b.get(at..at + 2).map(|s| u16::from_le_bytes([s[0], s[1]]))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    b.get(at..at + 4).map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// Reads the header of a (possibly still arriving) WAV: RIFF/WAVE, a 16-bit PCM format chunk, and
/// the start of the data chunk.
fn header(b: &[u8]) -> Result<Header, String> {
    if b.get(0..4) != Some(b"RIFF".as_slice()) || b.get(8..12) != Some(b"WAVE".as_slice()) {
        return Err("not a RIFF/WAVE file".into());
    }
    let mut at = 12;
    let mut format = None;
    loop {
        let id = b.get(at..at + 4).ok_or("no data chunk")?;
        let size = u32_at(b, at + 4).ok_or("no data chunk")? as usize;
        if id == b"fmt " {
            let tag = u16_at(b, at + 8).ok_or("a short format chunk")?;
            let channels = u16_at(b, at + 10).ok_or("a short format chunk")?;
            let rate = u32_at(b, at + 12).ok_or("a short format chunk")?;
            let bits = u16_at(b, at + 22).ok_or("a short format chunk")?;
            // 1: PCM; 0xFFFE: extensible, whose sub-format a 16-bit voice uses as PCM.
            if !matches!(tag, 1 | 0xFFFE) || bits != 16 || channels == 0 || rate == 0 {
                return Err(format!("format {tag:#x} with {bits}-bit samples, {channels} channels at {rate} Hz; 16-bit PCM is taken"));
            }
            format = Some((rate, channels));
        } else if id == b"data" {
            let (sample_rate, channels) = format.ok_or("the data comes before its format")?;
            return Ok(Header { sample_rate, channels, size_at: at + 4, start: at + 8, declared: size });
        }
        // Chunks are padded to an even length.
        at = at.checked_add(8 + size + (size & 1)).ok_or("a chunk past any file")?;
    }
}

impl Wav {
    /// Takes a WAV, setting its RIFF and data sizes to what is there when the header declares more
    /// (the data is cut to whole frames). Refused: not 16-bit PCM, no data chunk.
    pub fn mend(mut bytes: Vec<u8>) -> Result<Self, String> {
        let h = header(&bytes)?;
        let frame = 2 * usize::from(h.channels);
        let present = bytes.len().saturating_sub(h.start);
        let len = if h.declared <= present { h.declared } else { present - present % frame };
        if h.declared > present {
            bytes.truncate(h.start + len);
            let size = u32::try_from(len).map_err(|_| "a data chunk over 4 GiB")?;
            bytes[h.size_at..h.size_at + 4].copy_from_slice(&size.to_le_bytes());
        }
        let riff = u32::try_from(bytes.len() - 8).map_err(|_| "a file over 4 GiB")?;
        bytes[4..8].copy_from_slice(&riff.to_le_bytes());
        Ok(Self { sample_rate: h.sample_rate, channels: h.channels, data: h.start..h.start + len, bytes })
    }

    /// Milliseconds of sound in the first bytes of a WAV still arriving (0 before its header).
    pub fn playing_ms(partial: &[u8]) -> u64 {
        header(partial).map_or(0, |h| {
            let bytes_per_second = u64::from(h.sample_rate) * 2 * u64::from(h.channels);
            partial.len().saturating_sub(h.start) as u64 * 1000 / bytes_per_second
        })
    }

    /// The file's bytes.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Samples per second.
    pub fn sample_rate(&self) -> u32 {
        self.sample_rate
    }

    /// Sample frames (one sample of every channel).
    pub fn frames(&self) -> u64 {
        (self.data.len() / (2 * usize::from(self.channels))) as u64
    }

    /// Length, milliseconds.
    pub fn duration_ms(&self) -> u64 {
        self.frames() * 1000 / u64::from(self.sample_rate)
    }

    /// The sound as mono samples in -1..1 (channels averaged).
    pub fn mono(&self) -> Vec<f32> {
        let channels = usize::from(self.channels);
        self.bytes[self.data.clone()]
            .chunks_exact(2 * channels)
            .map(|frame| {
                let sum: f32 = frame.chunks_exact(2).map(|s| f32::from(i16::from_le_bytes([s[0], s[1]]))).sum();
                sum / (channels as f32 * 32768.0)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A mono 16-bit WAV header at `rate` declaring `declared` bytes of data, then `samples`.
    fn wav(rate: u32, declared: u32, samples: &[i16]) -> Vec<u8> {
        let mut b = b"RIFF".to_vec();
        b.extend_from_slice(&declared.wrapping_add(36).to_le_bytes());
        b.extend_from_slice(b"WAVEfmt ");
        b.extend_from_slice(&16u32.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&rate.to_le_bytes());
        b.extend_from_slice(&(rate * 2).to_le_bytes());
        b.extend_from_slice(&2u16.to_le_bytes());
        b.extend_from_slice(&16u16.to_le_bytes());
        b.extend_from_slice(b"data");
        b.extend_from_slice(&declared.to_le_bytes());
        for s in samples {
            b.extend_from_slice(&s.to_le_bytes());
        }
        b
    }

    #[test]
    fn a_streamed_header_is_mended_to_the_bytes_that_came() -> Result<(), String> {
        let mut streamed = wav(1000, 0x7fff_f000, &[0, 16384, -16384, 32767]);
        streamed.push(7); // half a sample
        let w = Wav::mend(streamed)?;
        assert_eq!((w.frames(), w.duration_ms(), w.sample_rate()), (4, 4, 1000));
        assert_eq!(w.bytes().len(), 44 + 8);
        assert_eq!(u32_at(w.bytes(), 40), Some(8));
        assert_eq!(u32_at(w.bytes(), 4), Some(44));
        assert_eq!(w.mono(), vec![0.0, 0.5, -0.5, 32767.0 / 32768.0]);
        assert_eq!(Wav::playing_ms(&wav(1000, 0, &[0; 500])), 500);
        assert_eq!(Wav::playing_ms(b"RIFF"), 0);
        Ok(())
    }

    #[test]
    fn a_true_header_is_kept_and_other_formats_are_refused() -> Result<(), String> {
        let exact = wav(8000, 4, &[1, 2]);
        assert_eq!(Wav::mend(exact.clone())?.bytes(), exact.as_slice());
        let mut float = wav(8000, 4, &[1, 2]);
        float[20] = 3;
        assert!(Wav::mend(float).err().is_some_and(|e| e.contains("16-bit PCM")));
        assert!(Wav::mend(b"ID3\x03not a wav at all".to_vec()).is_err());
        Ok(())
    }
}
