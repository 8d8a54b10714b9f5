/**
 * The selected audio item's properties (property panel): placement on the document, cut in the
 * source (for music, "cut to the climax"), loop, volume (slider 0–200 with its dB), fades, and for music the ducking under voices;
 * delete. Every change is an editor command and an undo step.
 */
import { DeleteOutlined } from '@ant-design/icons';
import { Button, Collapse, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { SLIDER_MAX, sliderToDb } from '@/editor/model/volume';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';
import type { EditorState } from '@/editor/state/editorSlice';
import type { AudioPatch } from './audioCommands';
import { Field, NumberField, SliderField } from '@/editor/page/fields';
import { useLibraryName } from '@/components/material/libraryName';
import { ClimaxButton } from './ClimaxButton';

/** Returns the index of the selected audio item when it exists and no layer is selected, or null. */
export function selectAudioIndex(s: EditorState): number | null {
  const index = s.audioSelected ?? null;
  return index !== null && s.selection.length === 0 && index < s.doc.audio.length ? index : null;
}

/** A slider value's gain as text: "+6.0 dB", "0.0 dB", "−∞ dB". */
export function dbText(slider: number): string {
  const db = sliderToDb(slider);
  if (db === -Infinity) return '−∞ dB';
  return `${db > 0 ? '+' : db < 0 ? '−' : ''}${Math.abs(db).toFixed(1)} dB`;
}

export function AudioItemProps({ index, item }: { index: number; item: AudioItem }) {
  const { t } = useTranslation();
  const named = useLibraryName();
  const dispatch = useEditorDispatch();
  const set = (changes: AudioPatch) => dispatch(a.updateAudio({ index, changes }));
  const voice = item.type === 'voice';
  const { duckDepthMaxDb } = CATALOGUE.audio;
  const placement = (
    <>
      <NumberField label={t('audioProps.startTime')} value={item.startTime} min={0} suffix="s" onChange={(startTime) => set({ startTime })} testId="audio-start-time" />
      <NumberField label={t('audioProps.endTime')} value={item.endTime} min={0} suffix="s" onChange={(endTime) => set({ endTime })} testId="audio-end-time" />
      <NumberField label={t('audioProps.cutIn')} value={item.start} min={0} suffix="s" onChange={(start) => set({ start })} testId="audio-cut-in" />
      <NumberField label={t('audioProps.cutOut')} value={item.end} min={0} suffix="s" onChange={(end) => set({ end })} testId="audio-cut-out" />
      <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block', marginBottom: 8 }}>
        {t('audioProps.cutHint', { len: item.len.toFixed(1) })}
      </Typography.Text>
      {voice ? null : (
        <div style={{ marginBottom: 8 }}>
          <ClimaxButton index={index} item={item} />
        </div>
      )}
      <Field label={t('audioProps.loop')}>
        <Switch size="small" checked={item.isLoop} onChange={(isLoop) => set({ isLoop })} aria-label={t('audioProps.loop')} data-testid="audio-loop" />
      </Field>
    </>
  );
  const sound = (
    <>
      <SliderField
        label={t('audioProps.volume')}
        value={item.volume}
        min={0}
        max={SLIDER_MAX}
        onChange={(volume) => set({ volume })}
        after={<span style={{ width: 56, textAlign: 'right', fontVariantNumeric: 'tabular-nums' }} data-testid="audio-db">{dbText(item.volume)}</span>}
      />
      <NumberField label={t('audioProps.fadeIn')} value={item.fadeInTime} min={0} suffix="s" onChange={(fadeInTime) => set({ fadeInTime })} testId="audio-fade-in" />
      <NumberField label={t('audioProps.fadeOut')} value={item.fadeOutTime} min={0} suffix="s" onChange={(fadeOutTime) => set({ fadeOutTime })} testId="audio-fade-out" />
    </>
  );
  const duck = (
    <>
      <Field label={t('audioProps.duck')}>
        <Switch size="small" checked={item.duck} onChange={(on) => set({ duck: on })} aria-label={t('audioProps.duck')} data-testid="audio-duck" />
      </Field>
      <SliderField
        label={t('audioProps.duckDepth')}
        value={item.duckDepth}
        min={0}
        max={duckDepthMaxDb}
        disabled={!item.duck}
        onChange={(duckDepth) => set({ duckDepth })}
        after={<span style={{ width: 48, textAlign: 'right' }}>−{item.duckDepth} dB</span>}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('audioProps.duckHint', { attack: CATALOGUE.audio.duckAttackS, release: CATALOGUE.audio.duckReleaseS })}
      </Typography.Text>
    </>
  );
  const items = [
    { key: 'place', label: t('audioProps.placement'), children: placement },
    { key: 'sound', label: t('audioProps.sound'), children: sound },
    ...(voice ? [] : [{ key: 'duck', label: t('audioProps.ducking'), children: duck }]),
  ];
  return (
    <div data-testid="audio-props">
      <div style={{ display: 'flex', alignItems: 'center', gap: 6, marginBottom: 8 }}>
        <Tag color={voice ? 'blue' : 'green'}>{t(voice ? 'audioPanel.voiceTag' : 'audioPanel.musicTag')}</Tag>
        <Typography.Text strong ellipsis style={{ flex: 1, minWidth: 0 }} title={named(item.name)}>
          {named(item.name)}
        </Typography.Text>
        <Button size="small" danger icon={<DeleteOutlined />} onClick={() => dispatch(a.deleteAudio({ index }))} aria-label={t('audioProps.delete')} data-testid="audio-delete" />
      </div>
      <Collapse size="small" defaultActiveKey={items.map((i) => i.key)} items={items} />
    </div>
  );
}

/** The property panel's audio part: the selected item's properties, or nothing. */
export function SelectedAudioProps() {
  const index = useEditorSelector(selectAudioIndex);
  const item = useEditorSelector((s) => (index === null ? undefined : s.doc.audio[index]));
  return index !== null && item ? <AudioItemProps key={index} index={index} item={item} /> : null;
}
