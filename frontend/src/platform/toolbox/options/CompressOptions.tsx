import { Form, InputNumber, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '@/api/material';
import { compressEstimate, LIMITS, type CompressParams, type InputFacts, type Quality } from '../params';

const MB = 1024 * 1024;

/** video-compress: a target size or a quality (exactly one), with the size to expect. */
export function CompressOptions({ value, onChange, input }: { value: CompressParams; onChange: (v: CompressParams) => void; input: InputFacts }) {
  const { t } = useTranslation();
  const byTarget = 'targetBytes' in value;
  const half = input.bytes > 0 ? Math.max(1, Math.round(input.bytes / 2)) : 10 * MB;
  return (
    <>
      <Form.Item label={t('toolbox.options.compressBy')}>
        <Radio.Group
          value={byTarget ? 'target' : 'quality'}
          onChange={(e) => onChange(e.target.value === 'target' ? { targetBytes: half } : { quality: 'medium' })}
          options={[
            { value: 'quality', label: t('toolbox.field.quality') },
            { value: 'target', label: t('toolbox.field.targetBytes') },
          ]}
          data-testid="option-compress-by"
        />
      </Form.Item>
      {'targetBytes' in value ? (
        <Form.Item label={t('toolbox.field.targetBytes')}>
          <InputNumber<number>
            min={0.1}
            step={0.5}
            precision={1}
            value={Math.round((value.targetBytes / MB) * 10) / 10}
            onChange={(mb) => onChange({ targetBytes: Math.round((mb ?? 0) * MB) })}
            suffix="MB"
            data-testid="option-target"
          />
        </Form.Item>
      ) : (
        <Form.Item label={t('toolbox.field.quality')}>
          <Radio.Group
            value={value.quality}
            onChange={(e) => onChange({ quality: e.target.value as Quality })}
            options={LIMITS.qualities.map((q) => ({ value: q, label: t(`toolbox.options.quality.${q}`) }))}
            optionType="button"
            data-testid="option-quality"
          />
        </Form.Item>
      )}
      {input.bytes > 0 ? (
        <Space orientation="vertical" size={0}>
          <Typography.Text type="secondary" data-testid="estimate">
            {t('toolbox.estimate.compressed', { from: formatFileSize(input.bytes), to: formatFileSize(compressEstimate(value, input.bytes)) })}
          </Typography.Text>
          {'targetBytes' in value && value.targetBytes >= input.bytes ? (
            <Typography.Text type="warning" data-testid="estimate-warning">
              {t('toolbox.estimate.notSmaller')}
            </Typography.Text>
          ) : null}
        </Space>
      ) : null}
    </>
  );
}
