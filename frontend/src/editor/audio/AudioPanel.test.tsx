import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { initialUserState } from '@/auth/userSlice';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { editorActions as a } from '@/editor/state/editorSlice';
import { material, page } from '@/test/materials';
import { SIGNED_IN } from '@/test/renderApp';
import { useEditorKeys } from '@/editor/page/useEditorKeys';
import { applyLanguage } from '@/app/i18n';
import { libraryNameKey } from '@/components/material/libraryName';
import { musicItem } from './audioCommands';
import { dbText, SelectedAudioProps } from './AudioItemProps';
import { AudioPanel } from './AudioPanel';

jest.setTimeout(120_000);

const track = material('s1', { type: 'audio', materialName: '晨光', duration: 20, categoryId: 6001 });

/** What a test answers beyond the library: text to speech available or not, and other POSTs. */
interface Serve {
  tts?: boolean;
  post?: (url: string, body: unknown) => Promise<unknown> | undefined;
}

function setup(ui: React.ReactNode, serve: Serve = {}) {
  const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
  store.dispatch(a.newDocument());
  const queryClient = makeQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
    if (url === '/material/ofdefault') return page([track]);
    if (url === '/material/ofuser') return page([]);
    const answer = serve.post?.(url, body);
    if (answer) return answer;
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/ai/abilities') return [{ key: 'text-to-speech', group: 'analyze', nameZh: '语音合成', nameEn: 'Text to speech', hasPage: true, available: serve.tts ?? false, reasonCode: serve.tts ? '' : 'not-configured' }];
    throw new Error(`unexpected GET ${url}`);
  });
  render(
    <Providers store={store} queryClient={queryClient}>
      {ui}
    </Providers>,
  );
  return { store, post, ed: () => store.getState().editor };
}

beforeEach(() => {
  jest.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('audio tab', () => {
  it('lists the starter music, previews a track and adds it under the whole document', async () => {
    const { post, ed } = setup(<AudioPanel />);
    const row = await screen.findByTestId('music-s1');
    expect(post.mock.calls.find(([u]) => u === '/material/ofdefault')?.[1]).toMatchObject({ categoryId: 6001, type: 'audio' });
    fireEvent.click(within(row).getByTestId('music-play'));
    await waitFor(() => expect(HTMLMediaElement.prototype.play).toHaveBeenCalled());
    expect(within(row).getByTestId('music-play').getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(within(row).getByTestId('music-add'));
    expect(ed().doc.audio).toEqual([expect.objectContaining({ id: 's1', type: 'audio', startTime: 0, endTime: 3, isLoop: false, volume: 100, duck: true })]);
    expect(await screen.findByTestId('doc-audio-0')).toHaveTextContent('晨光');
  });

  it("names the library's tracks in the page's language, and a user's own as they are", async () => {
    await applyLanguage('en-US');
    try {
      const { ed } = setup(<AudioPanel />);
      const row = await screen.findByTestId('music-s1');
      expect(row).toHaveTextContent('Morning Light');
      expect(within(row).getByTestId('music-add')).toHaveAttribute('aria-label', 'Add Morning Light to the whole video');
      fireEvent.click(within(row).getByTestId('music-add'));
      // The document keeps the library's own name; only what is shown is translated.
      expect(ed().doc.audio[0]).toMatchObject({ name: '晨光' });
      expect(await screen.findByTestId('doc-audio-0')).toHaveTextContent('Morning Light');
      expect(libraryNameKey('我的配乐')).toBeNull();
    } finally {
      await applyLanguage('zh-CN');
    }
  });

  it('says clearly when the browser cannot record, and when the microphone is refused', async () => {
    setup(<AudioPanel />);
    fireEvent.click(screen.getByTestId('voice-record'));
    expect(await screen.findByTestId('voice-error')).toHaveTextContent('此浏览器不支持录音');
    const denied = Object.assign(new Error('Permission denied'), { name: 'NotAllowedError' });
    Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: { getUserMedia: jest.fn().mockRejectedValue(denied) } });
    (globalThis as { MediaRecorder?: unknown }).MediaRecorder = jest.fn();
    try {
      fireEvent.click(screen.getByTestId('voice-record'));
      expect(await screen.findByText(/麦克风权限被拒绝/)).toBeTruthy();
    } finally {
      Object.defineProperty(navigator, 'mediaDevices', { configurable: true, value: undefined });
      delete (globalThis as { MediaRecorder?: unknown }).MediaRecorder;
    }
  });

  it('offers dubbing only as not available when the deployment has no text to speech', async () => {
    setup(<AudioPanel />);
    expect(screen.getByTestId('dubbing')).toBeDisabled();
  });

  it('dubs a text on the farm and places it as a voice at the playhead', async () => {
    const done = `id: 1\nevent: done\ndata: ${JSON.stringify({ taskId: 7, status: 10, percent: 100, stage: 'done', framesDone: 0, framesTotal: 0, etaSeconds: 0, videoRelativePath: '', reason: '' })}\n\n`;
    jest.spyOn(api, 'stream').mockImplementation(async () => new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(done)), c.close()) }));
    const voice = material('v1', { type: 'audio', materialName: 'dubbing-cmn.wav', duration: 2.5 });
    const { post, ed } = setup(<AudioPanel />, {
      tts: true,
      post: (url) => {
        if (url === '/tts/textToVoice') return Promise.resolve({ taskId: 7, jobId: 'job-7' });
        if (url === '/toolbox/use') return Promise.resolve({ materialId: 'v1' });
        if (url === '/material/info/v1') return Promise.resolve(voice);
        return undefined;
      },
    });
    // The button is disabled until the catalogue says the ability is available.
    await waitFor(() => expect(screen.getByTestId('dubbing')).toBeEnabled());
    fireEvent.click(screen.getByTestId('dubbing'));
    expect(await screen.findByTestId('dubbing-run')).toBeDisabled();
    fireEvent.change(screen.getByTestId('speech-text'), { target: { value: '  你好世界，欢迎使用视频编辑平台  ' } });
    fireEvent.click(screen.getByTestId('dubbing-run'));
    await waitFor(() => expect(ed().doc.audio).toHaveLength(1));
    expect(post.mock.calls.find(([u]) => u === '/tts/textToVoice')?.[1]).toEqual({ text: '  你好世界，欢迎使用视频编辑平台  ', voice: 'cmn', rate: 1, pitch: 50 });
    expect(post.mock.calls.find(([u]) => u === '/toolbox/use')?.[1]).toEqual({ taskId: 7, index: 0 });
    expect(ed().doc.audio[0]).toMatchObject({ id: 'v1', type: 'voice', startTime: 0, endTime: 2.5, duck: false, name: '配音：你好世界，欢迎使用视频编…' });
    await waitFor(() => expect(screen.queryByTestId('dubbing-dialog')).toBeNull());
  });

  it('shows a refusal under the field it names, and a failed run with its reason', async () => {
    const refusal = (field: string) =>
      Promise.reject(new ApiError({ kind: 'business', url: '/tts/textToVoice', message: `${field}: bad`, code: 3000, desc: `${field}: bad`, data: { field } }));
    const failed = `id: 1\nevent: error\ndata: ${JSON.stringify({ taskId: 8, status: 9, percent: 0, stage: 'error', framesDone: 0, framesTotal: 0, etaSeconds: 0, videoRelativePath: '', reason: 'text to speech: espeak-ng failed' })}\n\n`;
    jest.spyOn(api, 'stream').mockImplementation(async () => new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(failed)), c.close()) }));
    let calls = 0;
    const { post } = setup(<AudioPanel />, {
      tts: true,
      post: (url) => {
        if (url !== '/tts/textToVoice') return undefined;
        calls += 1;
        return calls === 1 ? refusal('pitch') : Promise.resolve({ taskId: 8, jobId: 'job-8' });
      },
    });
    // The button is disabled until the catalogue says the ability is available.
    await waitFor(() => expect(screen.getByTestId('dubbing')).toBeEnabled());
    fireEvent.click(screen.getByTestId('dubbing'));
    fireEvent.change(await screen.findByTestId('speech-text'), { target: { value: '你好' } });
    fireEvent.click(screen.getByTestId('dubbing-run'));
    expect(await screen.findByText('音调须为 0 到 99 的整数')).toBeTruthy();
    fireEvent.click(screen.getByTestId('dubbing-run'));
    expect(await screen.findByTestId('dubbing-error')).toHaveTextContent('text to speech: espeak-ng failed');
    expect(post.mock.calls.some(([u]) => u === '/toolbox/use')).toBe(false);
  });

  it('switches the mix fade and the loudness target', async () => {
    const { ed } = setup(<AudioPanel />);
    fireEvent.click(screen.getByTestId('mix-fade'));
    expect(ed().doc.audioFade.status).toBe(true);
    fireEvent.change(screen.getByTestId('mix-target'), { target: { value: '-23' } });
    fireEvent.blur(screen.getByTestId('mix-target'));
    await waitFor(() => expect(ed().doc.loudness.target).toBe(-23));
    fireEvent.click(screen.getByTestId('mix-loudness'));
    expect(ed().doc.loudness.status).toBe(false);
    expect(screen.getByTestId('mix-settings')).toHaveTextContent(`${CATALOGUE.audio.loudnessTargetLufs} LUFS`);
  });
});

describe('audio item properties', () => {
  it('shows the volume in dB', () => {
    expect([dbText(100), dbText(200), dbText(50), dbText(0)]).toEqual(['0.0 dB', '+6.0 dB', '−6.0 dB', '−∞ dB']);
  });

  it('edits the selected item with undo steps and deletes it', async () => {
    const Selected = () => <SelectedAudioProps />;
    const { store, ed } = setup(<Selected />);
    act(() => void store.dispatch(a.addAudio(musicItem(track, 3))));
    const fadeIn = await screen.findByTestId('audio-fade-in');
    expect(screen.getByTestId('audio-db')).toHaveTextContent('0.0 dB');
    fireEvent.change(fadeIn, { target: { value: '1' } });
    fireEvent.blur(fadeIn);
    await waitFor(() => expect(ed().doc.audio[0]?.fadeInTime).toBe(1));
    fireEvent.click(screen.getByTestId('audio-duck'));
    expect(ed().doc.audio[0]?.duck).toBe(false);
    act(() => void store.dispatch(a.undo()));
    expect(ed().doc.audio[0]?.duck).toBe(true);
    fireEvent.click(screen.getByTestId('audio-delete'));
    expect(ed().doc.audio).toHaveLength(0);
    expect(screen.queryByTestId('audio-props')).toBeNull();
  });

  it('deletes the selected item with the Delete key', () => {
    const Keys = () => {
      useEditorKeys(jest.fn(), jest.fn());
      return null;
    };
    const { store, ed } = setup(<Keys />);
    act(() => void store.dispatch(a.addAudio(musicItem(track, 3))));
    fireEvent.keyDown(window, { key: 'Delete' });
    expect(ed().doc.audio).toHaveLength(0);
  });
});
