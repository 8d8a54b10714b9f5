/**
 * "Cut to the climax" on a music item (issue 26 and 28, one analysis): asks the server where the
 * strongest section of the document's length lies and sets the item's cut to it, one undo step.
 */
import { ThunderboltOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useClimaxCut } from '@/api/ai';
import { ApiError, errorText } from '@/api/errors';
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { climaxPatch } from '@/editor/ringtone/loop';
import { editorActions as a } from '@/editor/state/editorSlice';
import { selectDuration } from '@/editor/state/selectors';

export function ClimaxButton({ index, item }: { index: number; item: AudioItem }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const seconds = useEditorSelector((s) => Math.round(selectDuration(s) * 1000) / 1000);
  const cut = useClimaxCut();
  const materialId = item.id === undefined ? '' : String(item.id);
  const short = item.len > 0 && item.len < seconds;
  const run = () => {
    if (short) {
      const patch = climaxPatch(item, 0, seconds);
      if (patch) dispatch(a.updateAudio({ index, changes: patch }));
      message.info(t('audioProps.climax.short', { len: item.len.toFixed(1), seconds: seconds.toFixed(1) }));
      return;
    }
    cut.mutate(
      { materialId, seconds },
      {
        onSuccess: (found) => {
          const patch = climaxPatch(item, found.startMs, seconds);
          if (!patch) return;
          dispatch(a.updateAudio({ index, changes: patch }));
          message.success(t('audioProps.climax.done', { from: (patch.start ?? 0).toFixed(1), to: (patch.end ?? 0).toFixed(1) }));
        },
        onError: (err) => message.error(t('audioProps.climax.failed', { reason: err instanceof ApiError ? errorText(err) : String(err) })),
      },
    );
  };
  return (
    <Button size="small" icon={<ThunderboltOutlined />} loading={cut.isPending} disabled={!materialId || seconds <= 0} onClick={run} data-testid="audio-climax" title={t('audioProps.climax.hint', { seconds: seconds.toFixed(1) })}>
      {t('audioProps.climax.action')}
    </Button>
  );
}
