import { CheckCircleFilled, WarningFilled } from '@ant-design/icons';
import { Space, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RingReport } from '@/api/ring';
import { useViolationText } from './violationText';

export interface ViolationListProps {
  report: Pick<RingReport, 'conforms' | 'violations'>;
  /** data-testid of the list. */
  testId?: string;
}

/** A check's answer: "conforms", or each broken rule in words with its measured value and limit, fixable ones marked. */
export function ViolationList({ report, testId = 'ring-violations' }: ViolationListProps) {
  const { t } = useTranslation();
  const word = useViolationText();
  if (report.conforms && report.violations.length === 0) {
    return (
      <Typography.Text type="success" data-testid={`${testId}-ok`}>
        <CheckCircleFilled /> {t('ring.check.conforms')}
      </Typography.Text>
    );
  }
  return (
    <Space orientation="vertical" size={4} data-testid={testId} style={{ width: '100%' }}>
      <Typography.Text type="danger">
        <WarningFilled /> {t('ring.check.breaks', { count: report.violations.length })}
      </Typography.Text>
      <ul style={{ margin: 0, paddingInlineStart: 20 }}>
        {report.violations.map((v, i) => (
          <li key={`${v.rule}-${i}`} data-testid={`violation-${v.rule}`}>
            <Typography.Text>{word(v)}</Typography.Text>{' '}
            {v.fixable ? (
              <Tag color="blue" data-testid="violation-fixable">
                {t('ring.check.fixable')}
              </Tag>
            ) : (
              <Tag>{t('ring.check.notFixable')}</Tag>
            )}
          </li>
        ))}
      </ul>
    </Space>
  );
}
