/**
 * The whole mix (audio tab): the document's fade in/out (`audioFade`, applied after every item)
 * and the loudness target (`loudness`: EBU R128 integrated loudness the render brings the mix to).
 */
import { Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';
import { Field, NumberField } from '@/editor/page/fields';

export function MixSettings() {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const fade = useEditorSelector((s) => s.doc.audioFade);
  const loudness = useEditorSelector((s) => s.doc.loudness);
  const { loudnessTargetMin: min, loudnessTargetMax: max, loudnessTargetLufs: standard } = CATALOGUE.audio;
  return (
    <div data-testid="mix-settings">
      <Field label={t('mix.fade')}>
        <Switch size="small" checked={fade.status} onChange={(status) => dispatch(a.setAudioFade({ status }))} aria-label={t('mix.fade')} data-testid="mix-fade" />
      </Field>
      <NumberField label={t('mix.fadeIn')} value={fade.inTime} min={0} suffix="s" disabled={!fade.status} onChange={(inTime) => dispatch(a.setAudioFade({ inTime }))} testId="mix-fade-in" />
      <NumberField label={t('mix.fadeOut')} value={fade.outTime} min={0} suffix="s" disabled={!fade.status} onChange={(outTime) => dispatch(a.setAudioFade({ outTime }))} testId="mix-fade-out" />
      <Field label={t('mix.loudness')}>
        <Switch size="small" checked={loudness.status} onChange={(status) => dispatch(a.setLoudness({ status }))} aria-label={t('mix.loudness')} data-testid="mix-loudness" />
      </Field>
      <NumberField
        label={t('mix.target')}
        value={loudness.target}
        min={min}
        max={max}
        step={1}
        suffix="LUFS"
        disabled={!loudness.status}
        onChange={(target) => dispatch(a.setLoudness({ target }))}
        testId="mix-target"
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('mix.loudnessHint', { standard, min, max })}
      </Typography.Text>
    </div>
  );
}
