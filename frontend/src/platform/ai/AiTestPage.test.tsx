import { fireEvent, screen, within } from '@testing-library/react';
import type { Ability } from '@/api/ai';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

jest.setTimeout(60_000);

const LIST: Ability[] = [
  { key: 'text-generation', group: 'create', nameZh: '文本生成', nameEn: 'Text generation', hasPage: true, available: false, provider: 'none', reasonCode: 'not-configured', reason: 'set provider = "http"' },
  { key: 'title-generation', group: 'create', nameZh: '标题生成', nameEn: 'Title generation', hasPage: true, available: true, provider: 'local', reasonCode: '', reason: '' },
  { key: 'smart-reply', group: 'create', nameZh: '智能回复', nameEn: 'Smart reply', hasPage: true, available: true, provider: 'http', reasonCode: '', reason: '' },
  { key: 'keyword-extraction', group: 'analyze', nameZh: '关键词提取', nameEn: 'Keyword extraction', hasPage: true, available: true, provider: 'local', reasonCode: '', reason: '' },
  { key: 'music-climax-cut', group: 'create', nameZh: '音乐高潮截取', nameEn: 'Music climax cut', hasPage: true, available: true, provider: 'local', reasonCode: '', reason: '' },
];

afterEach(() => jest.restoreAllMocks());

describe('/ai/test', () => {
  it('runs each available text ability on the sample, shows its answer and skips the unconfigured with the reason', async () => {
    jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
      if (url === '/ai/abilities') return LIST;
      throw new Error(`unexpected GET ${url}`);
    });
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
      const body = data as { ability?: string; text: string };
      if (url === '/ai/keywords') return [{ word: '日落', weight: 1.2 }, { word: '彩铃', weight: 0.8 }];
      if (url === '/ai/text' && body.ability === 'title-generation') return { text: '海边日落视频彩铃', model: 'local-extractive (TextRank over sentences)' };
      if (url === '/ai/text' && body.ability === 'smart-reply') {
        throw new ApiError({ kind: 'business', url, message: 'provider unreachable', code: 5000, desc: 'the provider did not answer within 20 s' });
      }
      throw new Error(`unexpected POST ${url}`);
    });
    renderApp('/ai/test', SIGNED_IN);
    const sample = (await screen.findByTestId('ai-test-sample')).textContent ?? '';
    expect(sample).toContain('日落');
    // The climax cut takes a music material, not a text: the page does not list it.
    expect(screen.queryByText('音乐高潮截取')).toBeNull();
    fireEvent.click(screen.getByTestId('ai-test-run'));
    expect(await within(screen.getByTestId('ai-test-state-title-generation')).findByText('通过')).toBeInTheDocument();
    expect(await within(screen.getByTestId('ai-test-state-keyword-extraction')).findByText('通过')).toBeInTheDocument();
    expect(await within(screen.getByTestId('ai-test-state-smart-reply')).findByText('失败')).toBeInTheDocument();
    expect(within(screen.getByTestId('ai-test-state-text-generation')).getByText('已跳过')).toBeInTheDocument();
    expect(screen.getByText('海边日落视频彩铃')).toBeInTheDocument();
    expect(screen.getByText('日落 · 彩铃')).toBeInTheDocument();
    expect(screen.getByText('the provider did not answer within 20 s')).toBeInTheDocument();
    // Every call carried the same sample; the unconfigured ability was never called.
    const calls = post.mock.calls.map(([url, data]) => [url, (data as { ability?: string; text: string })]);
    expect(calls.every(([, d]) => (d as { text: string }).text === sample)).toBe(true);
    expect(calls.some(([, d]) => (d as { ability?: string }).ability === 'text-generation')).toBe(false);
  });
});
