/**
 * "Make it loop" in the in-call panel (issue 26): a ringtone repeats while the phone rings, so its
 * end meets its start. Fades the whole mix in and out at the seam and, as an option, ends on the
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
import { closingPlan, seamFade } from './loop';

export function MakeItLoop() {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const [matchFrame, setMatchFrame] = useState(true);
  const seconds = useEditorSelector(selectDuration);
  const scenes = useEditorSelector((s) => s.doc.scenes);
  const fade = seamFade(seconds);
  const plan = closingPlan(scenes);
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid="make-it-loop">
      <Typography.Text strong>{t('ring.loop.title')}</Typography.Text>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('ring.loop.fade', { seconds: fade.inTime })}
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
