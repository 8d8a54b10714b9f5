/**
 * A WAV file (RIFF, 16-bit PCM) of decoded sound. The browser records Opus in WebM or Ogg, which
 * the material library does not take (its audio extensions are the catalogue's mediaTypes: mp3,
 * aac, wav, wma, m4a), so a recording is decoded and written as WAV before upload; 16-bit PCM,
 * not 32-bit float, because Chromium's <audio> does not play float WAV (docs/editor.md).
 */

/** Returns the channels mixed down to one (their mean). */
export function downmix(channels: ReadonlyArray<Float32Array>): Float32Array {
  const first = channels[0];
  if (!first) return new Float32Array(0);
  if (channels.length === 1) return first;
  const out = new Float32Array(first.length);
  for (const c of channels) for (let i = 0; i < out.length; i++) out[i] = (out[i] ?? 0) + (c[i] ?? 0) / channels.length;
  return out;
}

/** Returns the bytes of a mono 16-bit PCM WAV of samples in −1..1 (clipped). */
export function wavBytes(samples: Float32Array, sampleRate: number): ArrayBuffer {
  const bytes = samples.length * 2;
  const view = new DataView(new ArrayBuffer(44 + bytes));
  const text = (at: number, s: string) => [...s].forEach((ch, i) => view.setUint8(at + i, ch.charCodeAt(0)));
  text(0, 'RIFF');
  view.setUint32(4, 36 + bytes, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, bytes, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i] ?? 0));
    view.setInt16(44 + i * 2, Math.round(s * 0x7fff), true);
  }
  return view.buffer;
}

/** Returns a mono 16-bit PCM WAV file of samples in −1..1. */
export function encodeWav(samples: Float32Array, sampleRate: number, name: string): File {
  return new File([wavBytes(samples, sampleRate)], name, { type: 'audio/wav' });
}
