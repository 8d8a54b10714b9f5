import { Form, InputNumber, Slider, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatEta as formatClock } from '@/components/task/TaskProgress';
import { LIMITS, type HighlightsParams, type InputFacts, type SceneDetectParams, type VocalsParams } from '../params';
import { toMs, toSeconds } from './RangeFields';

/** Scene detection's sensitivity and shortest scene, and how scenes are found (no model). */
export function SceneDetectFields<T extends SceneDetectParams>({ value, onChange }: { value: T; onChange: (v: T) => void }) {
  const { t } = useTranslation();
  const { min, max } = LIMITS.sensitivity;
  return (
    <>
      <Form.Item label={t('toolbox.field.sensitivity')} extra={t('toolbox.options.sceneMethod')}>
        <Space wrap>
          <Slider min={min} max={max} value={value.sensitivity} onChange={(sensitivity) => onChange({ ...value, sensitivity })} style={{ width: 220 }} />
          <InputNumber<number>
            min={min}
            max={max}
            precision={0}
            value={value.sensitivity}
            onChange={(sensitivity) => onChange({ ...value, sensitivity: sensitivity ?? 0 })}
            data-testid="option-sensitivity"
          />
        </Space>
      </Form.Item>
      <Form.Item label={t('toolbox.field.minSceneMs')}>
        <InputNumber<number>
          min={LIMITS.minSceneMs.min / 1000}
          max={LIMITS.minSceneMs.max / 1000}
          step={0.1}
          precision={1}
          value={toSeconds(value.minSceneMs)}
          onChange={(s) => onChange({ ...value, minSceneMs: toMs(s) })}
          suffix={t('toolbox.options.secondsUnit')}
          data-testid="option-min-scene"
        />
      </Form.Item>
    </>
  );
}

/** ai-video-cut: scene detection, the shortest scene kept and the length to fill, with the rule that picks. */
export function HighlightsOptions({ value, onChange, input }: { value: HighlightsParams; onChange: (v: HighlightsParams) => void; input: InputFacts }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Paragraph type="secondary" data-testid="highlights-rule">
        {t('toolbox.options.highlightsRule')}
      </Typography.Paragraph>
      <SceneDetectFields value={value} onChange={onChange} />
      <Form.Item label={t('toolbox.field.minKeepMs')}>
        <InputNumber<number>
          min={LIMITS.minSceneMs.min / 1000}
          step={0.5}
          precision={1}
          value={toSeconds(value.minKeepMs)}
          onChange={(s) => onChange({ ...value, minKeepMs: toMs(s) })}
          suffix={t('toolbox.options.secondsUnit')}
          data-testid="option-min-keep"
        />
      </Form.Item>
      <Form.Item label={t('toolbox.field.targetMs')}>
        <InputNumber<number>
          min={LIMITS.targetMs.min / 1000}
          step={1}
          precision={1}
          value={toSeconds(value.targetMs)}
          onChange={(s) => onChange({ ...value, targetMs: toMs(s) })}
          suffix={t('toolbox.options.secondsUnit')}
          data-testid="option-target-length"
        />
      </Form.Item>
      {input.durationMs > 0 ? (
        <Typography.Text type="secondary" data-testid="estimate">
          {t('toolbox.estimate.highlights', { from: formatClock(input.durationMs / 1000), to: formatClock(Math.min(value.targetMs, input.durationMs) / 1000) })}
        </Typography.Text>
      ) : null}
    </>
  );
}

/** vocal-separate: whether the accompaniment is written too, and how the voice is found (no model). */
export function VocalsOptions({ value, onChange }: { value: VocalsParams; onChange: (v: VocalsParams) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Typography.Paragraph type="secondary" data-testid="vocals-method">
        {t('toolbox.options.vocalsMethod')}
      </Typography.Paragraph>
      <Form.Item label={t('toolbox.field.accompaniment')}>
        <Switch checked={value.accompaniment} onChange={(accompaniment) => onChange({ accompaniment })} data-testid="option-accompaniment" />
      </Form.Item>
    </>
  );
}
