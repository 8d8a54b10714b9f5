import type { TFunction } from 'i18next';
import zh from '@/locales/zh-CN.json';
import { toolName } from './toolText';

/** Looks `key` up in the zh-CN locale, as i18next would. */
const t = ((key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], zh) ?? key) as unknown as TFunction;

describe('a tool run without a page', () => {
  it('is named in the page language, the editor reverse and the AI media runs alike', () => {
    expect(toolName(t, { path: '', type: 'VIDEO_REVERSE' })).toBe('视频倒放（编辑器）');
    expect(toolName(t, { path: '', type: 'VIDEO_COVER' })).toBe('封面自动生成');
    expect(toolName(t, { path: '', type: 'SOMETHING_NEW' })).toBe('SOMETHING_NEW');
  });
});
