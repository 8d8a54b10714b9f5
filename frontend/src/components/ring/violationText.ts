/**
 * A profile violation in words (docs/ringtone.md rule names): the rule's name, the measured value
 * and the limit with the rule's unit, e.g. 响度 −9.8 LUFS，上限 −14 LUFS. The server owns the rules;
 * this only words what it answered.
 */
import { useTranslation } from 'react-i18next';
import { RING_RULES, type RingValue, type RingViolation } from '@/api/ring';

/** The unit each rule's numbers are in (none: shown as they are). */
const UNITS: Partial<Record<string, string>> = {
  frameRate: 'fps',
  bitrate: 'kbit/s',
  duration: 's',
  loudness: 'LUFS',
  truePeak: 'dBTP',
  fileSize: 'MB',
  cover: 'KB',
};

/** Rules whose words are names of formats, shown in capitals (mp4 → MP4). */
const FORMAT_RULES = new Set(['container', 'videoCodec', 'audioCodec', 'cover']);
const MIB = 1024 * 1024;

/** Writes a number with at most one decimal and a true minus sign. */
export function formatNumber(n: number): string {
  const text = String(Math.round(n * 10) / 10);
  return text.startsWith('-') ? `−${text.slice(1)}` : text;
}

/** Words a value of `rule`: numbers with the rule's unit, sizes as W×H, lists joined, orientations translated. */
export function formatRingValue(rule: string, value: RingValue, t: (key: string) => string): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => formatRingValue(rule, v, t)).join(t('ring.check.listSeparator'));
  if (typeof value === 'boolean') return t(value ? 'ring.check.yes' : 'ring.check.no');
  if (typeof value === 'object') {
    if ('width' in value && 'height' in value) return `${String(value.width)}×${String(value.height)}`;
    if ('min' in value && 'max' in value) {
      const unit = UNITS[rule];
      const range = `${formatRingValue('', value.min ?? null, t)}–${formatRingValue('', value.max ?? null, t)}`;
      return unit ? `${range} ${unit}` : range;
    }
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    // A file size is measured in bytes (`fileBytes`) and limited in MiB (`maxFileMb`).
    const n = rule === 'fileSize' && value >= MIB ? value / MIB : value;
    const unit = UNITS[rule];
    return unit ? `${formatNumber(n)} ${unit}` : formatNumber(n);
  }
  if (rule === 'orientation' && (value === 'portrait' || value === 'landscape')) return t(`ring.orientation.${value}`);
  // The server writes frame sizes as WIDTHxHEIGHT.
  if (rule === 'size' && /^\d+x\d+$/i.test(value)) return value.replace(/x/i, '×');
  return FORMAT_RULES.has(rule) ? value.toUpperCase() : value;
}

/** How the limit reads: a ceiling, a floor, or what is allowed. */
export function limitKind(v: Pick<RingViolation, 'measured' | 'limit'>, rule: string): 'max' | 'min' | 'allowed' {
  const { measured, limit } = v;
  if (typeof measured === 'number' && typeof limit === 'number') {
    const m = rule === 'fileSize' && measured >= MIB && limit < MIB ? measured / MIB : measured;
    return m < limit ? 'min' : 'max';
  }
  return 'allowed';
}

/** True for the rules this client can word. */
export function isKnownRule(rule: string): boolean {
  return (RING_RULES as readonly string[]).includes(rule);
}

/** Returns a function wording a violation in the page's language. */
export function useViolationText(): (v: RingViolation) => string {
  const { t } = useTranslation();
  return (v) => {
    if (!isKnownRule(v.rule)) return v.message || v.rule;
    const name = t(`ring.rule.${v.rule}`);
    if (v.rule === 'noAudio') return t('ring.check.noAudio');
    if (v.rule === 'turned') return t('ring.check.turned', { measured: String(v.measured) });
    const measured = formatRingValue(v.rule, v.measured, t);
    const limit = formatRingValue(v.rule, v.limit, t);
    if (measured === '' && limit === '') return name;
    if (limit === '') return t('ring.check.measuredOnly', { name, measured });
    return t(`ring.check.${limitKind(v, v.rule)}`, { name, measured, limit });
  };
}
