/**
 * The media abilities' pages (docs/ai.md "Media abilities"): highlight extraction, cover generation,
 * noise reduction, echo cancellation and gain control. Each picks or uploads its material(s), sets
 * its options and runs as a tool run on the render farm (the toolbox's job model), followed with the
 * toolbox's run view: progress, then the results played or shown, downloaded or put in my materials.
 */
import { Alert, Button, Form, InputNumber, Radio, Select, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRunTool, type ToolTypeName } from '@/api/toolbox';
import { ToolInputPicker, useToolInput } from '@/platform/toolbox/ToolInputPicker';
import { ToolRunView } from '@/platform/toolbox/ToolRunView';
import { refusalText } from '@/platform/toolbox/toolText';

/** The media abilities and the tool type their runs are. */
export const MEDIA_ABILITIES: Record<string, ToolTypeName> = {
  'video-highlight-extraction': 'INTELLIGENT_TASK',
  'cover-generation': 'VIDEO_COVER',
  'audio-noise-reduction': 'AUDIO_DENOISE',
  'echo-cancellation': 'AUDIO_ECHO_CANCEL',
  'gain-control': 'AUDIO_GAIN_CONTROL',
};

/** Whether `key` is a media ability with its page here. */
export function isMediaAbility(key: string): boolean {
  return key in MEDIA_ABILITIES;
}

/** The options of a media ability's page, as its form holds them. */
export interface MediaOptions {
  targetSeconds: number;
  count: number;
  picture: 'jpeg' | 'png';
  level: string;
  targetLufs: number;
  sound: 'm4a' | 'wav';
  video: boolean;
}

export const DEFAULT_MEDIA_OPTIONS: MediaOptions = { targetSeconds: 15, count: 3, picture: 'jpeg', level: '', targetLufs: -16, sound: 'm4a', video: true };

const DENOISE_LEVELS = ['low', 'moderate', 'high', 'very-high'];
const ECHO_LEVELS = ['low', 'moderate', 'high'];

/** The parameters a run of `ability` is asked with (docs/ai.md). */
export function mediaParams(ability: string, o: MediaOptions): object {
  switch (ability) {
    case 'video-highlight-extraction':
      return { targetMs: Math.round(o.targetSeconds * 1000) };
    case 'cover-generation':
      return { count: o.count, format: o.picture };
    case 'audio-noise-reduction':
      return { level: o.level || 'high', format: o.sound, video: o.video };
    case 'echo-cancellation':
      return { level: o.level || 'moderate', format: o.sound, video: o.video };
    default:
      return { targetLufs: o.targetLufs, format: o.sound, video: o.video };
  }
}

const SOUND_ABILITIES = ['audio-noise-reduction', 'echo-cancellation', 'gain-control'];

export function MediaPanel({ ability, available }: { ability: string; available: boolean }) {
  const { t } = useTranslation();
  const sound = SOUND_ABILITIES.includes(ability);
  const [source, setSource] = useState<'audio' | 'video'>(sound ? 'audio' : 'video');
  const [input, setInput] = useState<string | null>(null);
  const [farEnd, setFarEnd] = useState<string | null>(null);
  const [options, setOptions] = useState<MediaOptions>(DEFAULT_MEDIA_OPTIONS);
  const [taskId, setTaskId] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const run = useRunTool();
  const set = (patch: Partial<MediaOptions>) => setOptions((o) => ({ ...o, ...patch }));
  const echo = ability === 'echo-cancellation';
  // The run waits for the library's probe of its inputs (as the toolbox's pages do).
  const picked = useToolInput(input);
  const pickedFar = useToolInput(echo ? farEnd : null);
  const ready = available && picked.data?.state === 'ready' && (!echo || pickedFar.data?.state === 'ready');

  const start = () => {
    const type = MEDIA_ABILITIES[ability];
    if (input === null || !type) return;
    setRefusal(null);
    const materialIds = echo && farEnd !== null ? [input, farEnd] : [input];
    run.mutate(
      { type, materialIds, params: mediaParams(ability, options) },
      { onSuccess: (answer) => setTaskId(answer.taskId), onError: (err) => setRefusal(refusalText(t, err)) },
    );
  };

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="media-panel" data-ability={ability}>
      <Typography.Paragraph type="secondary" data-testid="media-method">
        {t(`aiMedia.method.${ability}`)}
      </Typography.Paragraph>
      {sound ? (
        <Radio.Group
          value={source}
          onChange={(e) => {
            setSource(e.target.value as 'audio' | 'video');
            setInput(null);
          }}
          data-testid="media-source"
        >
          <Radio.Button value="audio">{t('aiMedia.source.audio')}</Radio.Button>
          <Radio.Button value="video">{t('aiMedia.source.video')}</Radio.Button>
        </Radio.Group>
      ) : null}
      <Typography.Text strong>{echo ? t('aiMedia.input.recording') : t('aiMedia.input.main')}</Typography.Text>
      <ToolInputPicker kind={source} selectedId={input} onPick={setInput} testId="media-input" />
      {echo ? (
        <>
          <Typography.Text strong>{t('aiMedia.input.farEnd')}</Typography.Text>
          <Typography.Text type="secondary">{t('aiMedia.input.farEndHelp')}</Typography.Text>
          <ToolInputPicker kind="audio" selectedId={farEnd} onPick={setFarEnd} testId="media-far-end" />
        </>
      ) : null}
      <Form layout="inline" data-testid="media-options">
        {ability === 'video-highlight-extraction' ? (
          <Form.Item label={t('aiMedia.field.targetSeconds')}>
            <InputNumber min={1} max={3600} value={options.targetSeconds} onChange={(v) => set({ targetSeconds: v ?? 15 })} data-testid="media-target" />
          </Form.Item>
        ) : null}
        {ability === 'cover-generation' ? (
          <>
            <Form.Item label={t('aiMedia.field.count')}>
              <InputNumber min={1} max={10} value={options.count} onChange={(v) => set({ count: v ?? 3 })} data-testid="media-count" />
            </Form.Item>
            <Form.Item label={t('aiMedia.field.format')}>
              <Select value={options.picture} onChange={(v) => set({ picture: v })} options={[{ value: 'jpeg', label: 'JPEG' }, { value: 'png', label: 'PNG' }]} style={{ width: 100 }} />
            </Form.Item>
          </>
        ) : null}
        {ability === 'audio-noise-reduction' || echo ? (
          <Form.Item label={t('aiMedia.field.level')}>
            <Select
              value={options.level || (echo ? 'moderate' : 'high')}
              onChange={(v) => set({ level: v })}
              options={(echo ? ECHO_LEVELS : DENOISE_LEVELS).map((l) => ({ value: l, label: t(`aiMedia.level.${l}`) }))}
              style={{ width: 140 }}
              data-testid="media-level"
            />
          </Form.Item>
        ) : null}
        {ability === 'gain-control' ? (
          <Form.Item label={t('aiMedia.field.targetLufs')}>
            <InputNumber min={-30} max={-10} value={options.targetLufs} onChange={(v) => set({ targetLufs: v ?? -16 })} data-testid="media-lufs" />
          </Form.Item>
        ) : null}
        {sound ? (
          <>
            <Form.Item label={t('aiMedia.field.format')}>
              <Select value={options.sound} onChange={(v) => set({ sound: v })} options={[{ value: 'm4a', label: 'M4A (AAC)' }, { value: 'wav', label: 'WAV' }]} style={{ width: 130 }} data-testid="media-format" />
            </Form.Item>
            {source === 'video' ? (
              <Form.Item label={t('aiMedia.field.video')}>
                <Switch checked={options.video} onChange={(v) => set({ video: v })} data-testid="media-video" />
              </Form.Item>
            ) : null}
          </>
        ) : null}
      </Form>
      <Button type="primary" disabled={!ready} loading={run.isPending} onClick={start} data-testid="media-run">
        {t('aiMedia.run')}
      </Button>
      {refusal ? <Alert type="error" showIcon title={t('aiMedia.notStarted')} description={refusal} data-testid="media-refused" /> : null}
      {taskId !== null ? <ToolRunView key={taskId} taskId={taskId} /> : null}
    </Space>
  );
}
