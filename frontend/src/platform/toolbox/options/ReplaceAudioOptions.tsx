import { Form, InputNumber, Radio, Slider, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_LOUDNESS_LUFS, LIMITS, type ReplaceAudioParams, type SoundMode } from '../params';

/** The options of a mode, keeping what the other modes share (the gain between mix and gain, the loudness between replace and mix). */
function switchMode(value: ReplaceAudioParams, mode: SoundMode): ReplaceAudioParams {
  const gainDb = value.mode === 'replace' ? 0 : value.gainDb;
  const loudnessLufs = value.mode === 'gain' ? DEFAULT_LOUDNESS_LUFS : value.loudnessLufs;
  if (mode === 'replace') return { mode, loudnessLufs };
  if (mode === 'mix') return { mode, gainDb: Math.min(LIMITS.mixDb.max, gainDb), loudnessLufs };
  return { mode, gainDb };
}

/** replace-video-volume: replace, mix or gain; the gain (mix: the added sound against the video's) and the loudness the result is brought to. */
export function ReplaceAudioOptions({ value, onChange }: { value: ReplaceAudioParams; onChange: (v: ReplaceAudioParams) => void }) {
  const { t } = useTranslation();
  const range = value.mode === 'gain' ? LIMITS.gainDb : LIMITS.mixDb;
  return (
    <>
      <Form.Item label={t('toolbox.options.soundMode.label')} extra={t(`toolbox.options.soundMode.${value.mode}Help`)}>
        <Radio.Group
          value={value.mode}
          onChange={(e) => onChange(switchMode(value, e.target.value as SoundMode))}
          options={LIMITS.soundModes.map((m) => ({ value: m, label: t(`toolbox.options.soundMode.${m}`) }))}
          optionType="button"
          data-testid="option-sound-mode"
        />
      </Form.Item>
      {value.mode !== 'replace' ? (
        <Form.Item label={t(value.mode === 'mix' ? 'toolbox.options.mixLevel' : 'toolbox.field.gainDb')} extra={t('toolbox.options.between', range)}>
          <Space wrap>
            <Slider min={range.min} max={range.max} step={0.5} value={value.gainDb} onChange={(gainDb) => onChange({ ...value, gainDb })} style={{ width: 240 }} />
            <InputNumber<number>
              min={range.min}
              max={range.max}
              step={0.5}
              value={value.gainDb}
              onChange={(gainDb) => onChange({ ...value, gainDb: gainDb ?? 0 })}
              suffix="dB"
              data-testid="option-gain"
            />
          </Space>
        </Form.Item>
      ) : null}
      {value.mode !== 'gain' ? (
        <Form.Item label={t('toolbox.field.loudnessLufs')} extra={t('toolbox.options.loudnessHelp')}>
          <InputNumber<number>
            min={LIMITS.loudnessLufs.min}
            max={LIMITS.loudnessLufs.max}
            step={1}
            value={value.loudnessLufs}
            onChange={(loudnessLufs) => onChange({ ...value, loudnessLufs: loudnessLufs ?? DEFAULT_LOUDNESS_LUFS })}
            suffix="LUFS"
            data-testid="option-loudness"
          />
        </Form.Item>
      ) : null}
    </>
  );
}
