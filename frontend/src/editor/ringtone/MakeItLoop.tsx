/**
 * "Make it loop" in the in-call panel (issue 26): a ringtone repeats while the phone rings, so its
 * end meets its start. Crossfades the music across the seam (or, without a music item that can
 * carry it, fades the whole mix in and out) and, as an option, ends on the
 * opening picture (the last scene's closing second becomes a copy of the opening scene, crossfaded
 * in). One undo step; the ring modal's check measures the seam of the next render.
 */
import { RetweetOutlined } from '@ant-design/icons';
import { Button, Checkbox, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';
import { selectDuration } from '@/editor/state/selectors';
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import { BRIDGE_SCOPE, closingPlan, seamCrossfade, seamFade } from './loop';

export function MakeItLoop() {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const [matchFrame, setMatchFrame] = useState(true);
  const seconds = useEditorSelector(selectDuration);
  const scenes = useEditorSelector((s) => s.doc.scenes);
  const audio = useEditorSelector((s) => s.doc.audio);
  const fade = seamFade(seconds);
  const music = (audio as AudioItem[]).find((x) => x.type !== 'voice' && x.scope !== BRIDGE_SCOPE);
  const cross = music ? seamCrossfade(music, seconds) : null;
  const plan = closingPlan(scenes);
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid="make-it-loop">
      <Typography.Text strong>{t('ring.loop.title')}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {cross ? t('ring.loop.crossfade', { seconds: cross.patch.fadeOutTime }) : t('ring.loop.fade', { seconds: fade.inTime })}
      </Typography.Text>
      <Checkbox checked={matchFrame && plan !== null} disabled={plan === null} onChange={(e) => setMatchFrame(e.target.checked)} data-testid="loop-match-frame">
        {t('ring.loop.matchFrame')}
      </Checkbox>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {plan ? t('ring.loop.matchFrameHint', { seconds: plan.closing }) : t('ring.loop.matchFrameNone')}
      </Typography.Text>
      <Button size="small" icon={<RetweetOutlined />} onClick={() => dispatch(a.makeLoop({ fade: true, matchFrame: matchFrame && plan !== null }))} data-testid="loop-apply">
        {t('ring.loop.apply')}
      </Button>
    </Space>
  );
}
