/**
 * The volume slider (0–200) and decibels in 32 steps: the port of services/timeline/src/volume.rs.
 * Step k gives amplitude k/16: slider 100 is 0 dB, the default 50 is −6.02 dB, 0 is silence (−∞).
 */

export const SLIDER_MAX = 200;
export const STEPS = 32;
export const STEP_SIZE = SLIDER_MAX / STEPS;
export const UNITY_STEP = 16;
export const DEFAULT_SLIDER = 50;
export const ORIGINAL_DB = -30;
export const FALLBACK_DB = -20;
export const MIN_DB = -96;

/** Returns the step (0..32) of a slider value, rounding half up. */
export function sliderStep(slider: number): number {
  if (Number.isNaN(slider)) return 0;
  return Math.floor(Math.min(Math.max(slider, 0), SLIDER_MAX) / STEP_SIZE + 0.5);
}

/** Returns the amplitude factor of a slider value. */
export function sliderToGain(slider: number): number {
  return sliderStep(slider) / UNITY_STEP;
}

/** Returns the gain in dB of an amplitude factor; 0 gives −∞. */
export function gainToDb(gain: number): number {
  return gain <= 0 ? -Infinity : 20 * Math.log10(gain);
}

/** Returns the amplitude factor of a gain in dB. */
export function dbToGain(db: number): number {
  return 10 ** (db / 20);
}

/** Returns the gain in dB of a slider value (−∞ for silence). */
export function sliderToDb(slider: number): number {
  return gainToDb(sliderToGain(slider));
}

/** Returns the slider value (a multiple of 6.25) nearest to a gain in dB. */
export function dbToSlider(db: number): number {
  if (Number.isNaN(db) || db === -Infinity) return 0;
  const k = Math.min(Math.max(Math.floor(dbToGain(db) * UNITY_STEP + 0.5), 0), STEPS);
  return k * STEP_SIZE;
}

/** Returns a fetched loudness if usable; below −96 dB (or NaN) is an error (undefined). */
export function checkMeasuredDb(db: number): number | undefined {
  return Number.isNaN(db) || db < MIN_DB ? undefined : db;
}

/** Returns a fetched loudness, or −20 dB when fetching failed or gave an error value. */
export function measuredDbOrFallback(db: number | undefined): number {
  return (db === undefined ? undefined : checkMeasuredDb(db)) ?? FALLBACK_DB;
}
