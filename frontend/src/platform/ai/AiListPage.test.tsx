import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Ability } from '@/api/ai';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

jest.setTimeout(60_000);

const LIST: Ability[] = [
  { key: 'text-generation', group: 'create', nameZh: '文本生成', nameEn: 'Text generation', hasPage: true, available: false, provider: 'none', reasonCode: 'not-configured', reason: 'set provider = "http"' },
  { key: 'music-climax-cut', group: 'create', nameZh: '音乐高潮截取', nameEn: 'Music climax cut', hasPage: true, available: true, provider: 'local', reasonCode: '', reason: '' },
  { key: 'makeup', group: 'create', nameZh: '美妆', nameEn: 'Makeup', hasPage: false, available: false, provider: 'none', reasonCode: 'not-configured', reason: '' },
  { key: 'text-to-speech', group: 'analyze', nameZh: '语音合成', nameEn: 'Text to speech', hasPage: true, available: true, provider: 'local', reasonCode: '', reason: '' },
  { key: 'keyword-extraction', group: 'analyze', nameZh: '关键词提取', nameEn: 'Keyword extraction', hasPage: true, available: true, provider: 'local', reasonCode: '', reason: '' },
  { key: 'title-generation', group: 'create', nameZh: '标题生成', nameEn: 'Title generation', hasPage: true, available: true, provider: 'local', reasonCode: '', reason: '' },
  { key: 'gesture-recognition', group: 'other', nameZh: '手势识别', nameEn: 'Gesture recognition', hasPage: true, available: false, provider: 'none', reasonCode: 'not-configured', reason: '' },
];

function serve() {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/ai/abilities') return LIST;
    throw new Error(`unexpected GET ${url}`);
  });
  return jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = (data ?? {}) as { text?: string; topN?: number };
    if (url === '/ai/keywords') return [{ word: '人工智能', weight: 1.2 }, { word: '视频', weight: 0.8 }].slice(0, body.topN);
    if (url === '/ai/text') return { text: '视频彩铃让来电变成一段短视频', model: 'local-extractive (TextRank over sentences)' };
    if (url === '/tts/textToVoice') {
      const desc = 'voice: "fr" is not a voice; use one of cmn, en';
      throw new ApiError({ kind: 'business', url, message: desc, code: 3000, desc, data: { field: 'voice' } });
    }
    throw new Error(`unexpected POST ${url}`);
  });
}

afterEach(() => jest.restoreAllMocks());

describe('/ai/list', () => {
  it('lists the server catalogue by group with each state and the localised reason', async () => {
    serve();
    renderApp('/ai/list', SIGNED_IN);
    const create = await screen.findByTestId('group-create');
    expect(create).toHaveTextContent('创作能力');
    expect(within(screen.getByTestId('ability-text-generation')).getByText('未配置')).toBeInTheDocument();
    expect(within(screen.getByTestId('ability-music-climax-cut')).getByText('可用')).toBeInTheDocument();
    expect(within(screen.getByTestId('ability-makeup')).getByText('仅介绍')).toBeInTheDocument();
    expect(within(screen.getByTestId('group-analyze')).getByText('关键词提取')).toBeInTheDocument();
    expect(within(screen.getByTestId('group-other')).getByText('手势识别')).toBeInTheDocument();
    expect(screen.getByTestId('ability-keyword-extraction').closest('a')).toHaveAttribute('href', '/ai/ability/analyze-keyword-extraction');
    expect(screen.getByTestId('ability-makeup').closest('a')).toBeNull();
  });
});

describe('/ai/ability', () => {
  it('extracts keywords from the typed text', async () => {
    const post = serve();
    renderApp('/ai/ability/analyze-keyword-extraction', SIGNED_IN);
    fireEvent.change(await screen.findByLabelText('文本'), { target: { value: '人工智能技术正在改变视频制作行业。' } });
    fireEvent.click(screen.getByRole('button', { name: /提取关键词/ }));
    const out = await screen.findByTestId('keywords');
    expect(out).toHaveTextContent('人工智能');
    expect(post).toHaveBeenCalledWith('/ai/keywords', { text: '人工智能技术正在改变视频制作行业。', topN: 10 }, { silent: true });
  });

  it('queues a speech from the typed text and words a refusal under its field', async () => {
    const post = serve();
    renderApp('/ai/ability/analyze-text-to-speech', SIGNED_IN);
    expect(await screen.findByTestId('speech-run')).toBeDisabled();
    fireEvent.change(screen.getByTestId('speech-text'), { target: { value: 'Hello there' } });
    fireEvent.click(screen.getByTestId('speech-voice-en'));
    fireEvent.click(screen.getByTestId('speech-run'));
    expect(await screen.findByText('请选择普通话或 English')).toBeInTheDocument();
    expect(post).toHaveBeenCalledWith('/tts/textToVoice', { text: 'Hello there', voice: 'en', rate: 1, pitch: 50 }, { silent: true });
  });

  it('makes a title and says it is the text’s own sentence, not a model’s', async () => {
    const post = serve();
    renderApp('/ai/ability/create-title-generation', SIGNED_IN);
    fireEvent.change(await screen.findByLabelText('文本'), { target: { value: '视频彩铃让来电变成一段短视频。午饭吃了面条。' } });
    fireEvent.click(screen.getByRole('button', { name: /生\s?成/ }));
    expect(await screen.findByTestId('generated')).toHaveTextContent('视频彩铃让来电变成一段短视频');
    expect(screen.getByTestId('generated-by')).toHaveTextContent('摘自原文的句子');
    expect(post).toHaveBeenCalledWith('/ai/text', { ability: 'title-generation', text: '视频彩铃让来电变成一段短视频。午饭吃了面条。', language: '' }, { silent: true });
  });

  it('shows why a text ability is unavailable', async () => {
    serve();
    renderApp('/ai/ability/create-text-generation', SIGNED_IN);
    expect(await screen.findByText('set provider = "http"')).toBeInTheDocument();
    await waitFor(() => expect(screen.getAllByText('未配置').length).toBeGreaterThan(0));
  });
});
