/** The 'import subtitles (SRT)' action: a file picker, the parse, the placement and a message saying what happened. */
import { App } from 'antd';
import { useCallback, useRef, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '@/app/hooks';
import { useEditorDispatch } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';
import { parseSrt, placeSubtitles, SRT_MAX_CHARS, SrtError } from './srt';

/** Returns `pick` (opens the file picker) and the hidden input to render once. */
export function useSubtitleImport(): { pick: () => void; input: ReactElement } {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const store = useAppStore();
  const dispatch = useEditorDispatch();
  const ref = useRef<HTMLInputElement>(null);

  const read = useCallback(
    async (file: File) => {
      // Bytes, not characters, bound what is read: a huge file is refused before it is decoded.
      if (file.size > SRT_MAX_CHARS * 4) {
        void message.error(t('editor.subtitles.failed', { reason: t('editor.subtitles.tooLarge') }));
        return;
      }
      try {
        const cues = parseSrt(await file.text());
        const scenes = store.getState().editor.doc.scenes.map((s) => s.timeLength);
        const { placed, dropped } = placeSubtitles(scenes, cues);
        if (placed.length > 0) dispatch(a.addSubtitles(placed));
        void message.success(t('editor.subtitles.added', { count: cues.length - dropped, dropped }));
      } catch (e) {
        const reason = e instanceof SrtError ? t('editor.subtitles.badLine', { line: e.line, reason: e.reason }) : String(e);
        void message.error(t('editor.subtitles.failed', { reason }));
      }
    },
    [dispatch, message, store, t],
  );

  const input = (
    <input
      ref={ref}
      type="file"
      accept=".srt,application/x-subrip,text/plain"
      data-testid="subtitle-file"
      style={{ display: 'none' }}
      onChange={(e) => {
        const file = e.target.files?.[0];
        e.target.value = '';
        if (file) void read(file);
      }}
    />
  );
  return { pick: () => ref.current?.click(), input };
}
