import { normaliseProfile, orderListParams, outputSize, anySetting, ringStateName, type RingProfile } from '@/api/ring';
import { order, QS_PROFILE } from '@/test/ringFixtures';
import { renderHook } from '@testing-library/react';
import '@/app/i18n';
import { formatNumber, formatRingValue, limitKind, useViolationText } from './violationText';

const t = (key: string) => ({ 'ring.check.listSeparator': '、', 'ring.orientation.landscape': '横屏', 'ring.check.yes': '是' })[key] ?? key;

describe('violation words', () => {
  it('writes numbers with a true minus and at most one decimal', () => {
    expect(formatNumber(-9.84)).toBe('−9.8');
    expect(formatNumber(-14)).toBe('−14');
    expect(formatNumber(29.97)).toBe('30');
    expect(formatNumber(0)).toBe('0');
  });

  it('gives each rule its unit, sizes as W×H and lists joined', () => {
    expect(formatRingValue('loudness', -9.8, t)).toBe('−9.8 LUFS');
    expect(formatRingValue('truePeak', -0.2, t)).toBe('−0.2 dBTP');
    expect(formatRingValue('bitrate', 9000, t)).toBe('9000 kbit/s');
    expect(formatRingValue('frameRate', 60, t)).toBe('60 fps');
    expect(formatRingValue('duration', 75, t)).toBe('75 s');
    expect(formatRingValue('size', { width: 1280, height: 720 }, t)).toBe('1280×720');
    expect(formatRingValue('size', [{ width: 1080, height: 1920 }, { width: 720, height: 1280 }], t)).toBe('1080×1920、720×1280');
    expect(formatRingValue('orientation', 'landscape', t)).toBe('横屏');
    // As the server sends a size rule's limit: the sizes allowed, as a list of WIDTHxHEIGHT.
    expect(formatRingValue('size', ['1080x1920', '720x1280'], t)).toBe('1080×1920、720×1280');
    expect(formatRingValue('orientation', ['landscape'], t)).toBe('横屏');
    expect(formatRingValue('container', 'mov', t)).toBe('MOV');
    expect(formatRingValue('h264Level', '5.1', t)).toBe('5.1');
    expect(formatRingValue('duration', { min: 5, max: 60 }, t)).toBe('5–60 s');
    expect(formatRingValue('cover', true, t)).toBe('是');
    expect(formatRingValue('loudness', null, t)).toBe('');
  });

  it('reads a file size measured in bytes as MB', () => {
    expect(formatRingValue('fileSize', 42 * 1024 * 1024, t)).toBe('42 MB');
    expect(formatRingValue('fileSize', 30, t)).toBe('30 MB');
    expect(limitKind({ measured: 42 * 1024 * 1024, limit: 30 }, 'fileSize')).toBe('max');
  });

  it('says a video stored turned is shown on its side by players that ignore the turn', () => {
    const { result } = renderHook(() => useViolationText());
    const text = result.current({ rule: 'turned', measured: '90°', limit: '0°', message: 'turn 90°, the limit is 0°', fixable: true });
    expect(text).toContain('90°');
    expect(text).toContain('手机竖拍');
  });

  it('calls a limit a ceiling or a floor by where the measured value lies, else what is allowed', () => {
    expect(limitKind({ measured: -9.8, limit: -14 }, 'loudness')).toBe('max');
    expect(limitKind({ measured: -25, limit: -18 }, 'loudness')).toBe('min');
    expect(limitKind({ measured: 3, limit: 5 }, 'duration')).toBe('min');
    expect(limitKind({ measured: 'landscape', limit: ['portrait'] }, 'orientation')).toBe('allowed');
  });
});

describe('ring API helpers', () => {
  it('reads profile sizes written as WIDTHxHEIGHT or as objects', () => {
    const raw = { ...QS_PROFILE, sizes: ['1080x1920', { width: 720, height: 1280 }, 'odd'] } as unknown as RingProfile;
    expect(normaliseProfile(raw).sizes).toEqual([
      { width: 1080, height: 1920 },
      { width: 720, height: 1280 },
    ]);
  });

  it('sends the state filter only when set', () => {
    expect(orderListParams({ page: 2, size: 10 })).toEqual({ page: 2, size: 10 });
    expect(orderListParams({ page: 1, size: 10, state: -1 })).toEqual({ page: 1, size: 10, state: -1 });
  });

  it('computes the output size as the renderer does: target width, height in ratio, both even', () => {
    expect(outputSize({ width: 540, height: 960, targetWidth: 1080 })).toEqual({ width: 1080, height: 1920 });
    expect(outputSize({ width: 960, height: 540, targetWidth: 1280 })).toEqual({ width: 1280, height: 720 });
    expect(outputSize({ width: 500, height: 333, targetWidth: 0 })).toEqual({ width: 500, height: 334 });
  });

  it('polls only while an order is being set, and names the states', () => {
    expect(anySetting({ total: 2, list: [order(1, 1), order(2, 2)] })).toBe(true);
    expect(anySetting({ total: 1, list: [order(1, 1)] })).toBe(false);
    expect(anySetting(undefined)).toBe(false);
    expect([-2, -1, 0, 1, 2, 3, 9].map(ringStateName)).toEqual(['notJoin', 'error', 'notSet', 'success', 'setting', 'cancelSetting', null]);
  });
});
