import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
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

function setup(ui: React.ReactNode) {
  const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
  store.dispatch(a.newDocument());
  const queryClient = makeQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
    if (url === '/material/ofdefault') return page([track]);
    if (url === '/material/ofuser') return page([]);
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/ai/abilities') return [{ key: 'text-to-speech', group: 'analyze', nameZh: '语音合成', nameEn: 'Text to speech', hasPage: true, available: false }];
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

  it('offers dubbing only as not available', async () => {
    setup(<AudioPanel />);
    expect(screen.getByTestId('dubbing')).toBeDisabled();
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
