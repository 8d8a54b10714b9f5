import { Progress, Table, Tooltip, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCoverage, useSystemFonts, type SystemFont } from '@/api/systemFonts';

/** Characters of the missing list shown in the tooltip. */
const MISSING_SHOWN = 40;

function CoverageCell({ font }: { font: SystemFont }) {
  const { t } = useTranslation();
  const { data, isError } = useCoverage(font.id);
  if (isError) return <Typography.Text type="secondary">{t('maintain.font.coverageFailed')}</Typography.Text>;
  if (!data) return <Progress percent={0} size="small" status="active" showInfo={false} style={{ width: 160 }} />;
  const percent = Math.floor((data.drawn / data.total) * 1000) / 10;
  const bar = <Progress percent={percent} size="small" style={{ width: 160, marginBottom: 0 }} data-testid={`coverage-${font.id}`} />;
  const content = (
    <div>
      {bar}
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
        {t('maintain.font.coverage', { drawn: data.drawn, total: data.total })}
      </Typography.Text>
    </div>
  );
  if (!data.missing) return content;
  return <Tooltip title={t('maintain.font.missing', { chars: [...data.missing].slice(0, MISSING_SHOWN).join('') })}>{content}</Tooltip>;
}

/** /eb-maintain/font: the system font list with each font's coverage of the common Chinese characters. */
export function FontPage() {
  const { t } = useTranslation();
  const { data, isFetching, isError } = useSystemFonts();
  const columns: TableColumnsType<SystemFont> = [
    { title: t('maintain.font.name'), key: 'name', render: (_, f) => <span data-testid={`font-${f.id}`}>{f.nameCN && f.nameCN !== f.name ? `${f.nameCN} (${f.name})` : f.name}</span> },
    { title: t('maintain.font.style'), dataIndex: 'style', key: 'style' },
    { title: t('maintain.font.format'), dataIndex: 'format', key: 'format', width: 90 },
    { title: t('maintain.font.coverageTitle'), key: 'coverage', render: (_, f) => <CoverageCell font={f} /> },
  ];
  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="maintain-font">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('maintain.font.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('maintain.font.intro')}</Typography.Paragraph>
      <Table<SystemFont>
        rowKey="id"
        columns={columns}
        dataSource={data ?? []}
        loading={isFetching && !data}
        pagination={{ pageSize: 20, showSizeChanger: false, showTotal: (total) => t('maintain.font.total', { total }) }}
        locale={isError ? { emptyText: t('maintain.font.loadFailed') } : undefined}
      />
    </div>
  );
}
