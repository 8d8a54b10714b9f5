import { Form, InputNumber, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DETECT, intervalPictures, LIMITS, type InputFacts, type KeyFramesParams } from '../params';
import { toMs, toSeconds } from './RangeFields';
import { SceneDetectFields } from './SceneOptions';

/** The interval a page starts from, ms. */
const DEFAULT_EVERY_MS = 2_000;

/** ai-frame-cut: one picture per detected scene (its sharpest frame) or one every so many seconds, with how pictures are chosen. */
export function KeyFramesOptions({ value, onChange, input }: { value: KeyFramesParams; onChange: (v: KeyFramesParams) => void; input: InputFacts }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('toolboxFrames.field.mode')}>
        <Radio.Group
          value={value.mode}
          onChange={(e) => onChange(e.target.value === 'scenes' ? { mode: 'scenes', ...DEFAULT_DETECT } : { mode: 'interval', everyMs: DEFAULT_EVERY_MS })}
          options={LIMITS.keyFrameModes.map((m) => ({ value: m, label: t(`toolboxFrames.mode.${m}`) }))}
          optionType="button"
          data-testid="option-frames-mode"
        />
      </Form.Item>
      <Typography.Paragraph type="secondary" data-testid="frames-method">
        {t(value.mode === 'scenes' ? 'toolboxFrames.scenesMethod' : 'toolboxFrames.intervalMethod')}
      </Typography.Paragraph>
      {value.mode === 'scenes' ? (
        <>
          <SceneDetectFields value={value} onChange={onChange} />
          <Typography.Text type="secondary" data-testid="estimate">
            {t('toolboxFrames.estimate.scenes')}
          </Typography.Text>
        </>
      ) : (
        <>
          <Form.Item label={t('toolbox.field.everyMs')}>
            <InputNumber<number>
              min={LIMITS.everyMs.min / 1000}
              max={LIMITS.everyMs.max / 1000}
              step={0.5}
              precision={1}
              value={toSeconds(value.everyMs)}
              onChange={(s) => onChange({ mode: 'interval', everyMs: toMs(s) })}
              suffix={t('toolbox.options.secondsUnit')}
              data-testid="option-every"
            />
          </Form.Item>
          {input.durationMs > 0 ? (
            <Typography.Text type="secondary" data-testid="estimate">
              {t('toolboxFrames.estimate.interval', { count: intervalPictures(value.everyMs, input.durationMs) })}
            </Typography.Text>
          ) : null}
        </>
      )}
    </>
  );
}
