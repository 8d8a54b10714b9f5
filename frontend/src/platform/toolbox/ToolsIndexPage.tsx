import { Card, Col, Result, Row, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useToolTypes, type ToolType } from '@/api/toolbox';
import { pageKeyOf, toolName, unavailableText } from './toolText';

/** One tool of the catalogue: its name, what it does, and whether it can be used now (and why not). */
function ToolCard({ tool }: { tool: ToolType }) {
  const { t } = useTranslation();
  const key = pageKeyOf(tool.path);
  return (
    <Link to={`/tools/${tool.path}`} data-testid={`catalogue-${tool.path}`} data-available={tool.available}>
      <Card hoverable size="small" style={{ height: '100%', opacity: tool.available ? 1 : 0.7 }}>
        <Card.Meta
          title={
            <span>
              {toolName(t, tool)}{' '}
              {tool.available ? <Tag color="success">{t('toolbox.catalogue.available')}</Tag> : <Tag>{t('toolbox.catalogue.unavailable')}</Tag>}
            </span>
          }
          description={
            <>
              <Typography.Paragraph type="secondary" style={{ marginBottom: 4 }} ellipsis={{ rows: 2 }}>
                {t(`toolbox.about.${key ?? 'other'}`)}
              </Typography.Paragraph>
              {tool.available ? null : (
                <Typography.Text type="warning" style={{ fontSize: 12 }} data-testid="catalogue-reason">
                  {unavailableText(t, tool)}
                </Typography.Text>
              )}
            </>
          }
        />
      </Card>
    </Link>
  );
}

/** /tools-index: the tools the server lists as shown, available ones first. */
export function ToolsIndexPage() {
  const { t } = useTranslation();
  const types = useToolTypes();
  const shown = (types.data ?? []).filter((x) => x.shown).sort((a, b) => Number(b.available) - Number(a.available));
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="tools-index">
      <Typography.Title level={3}>{t('page.toolsIndex')}</Typography.Title>
      {types.isLoading ? (
        <Spin style={{ display: 'block', margin: '80px auto' }} />
      ) : types.isError ? (
        <Result status="warning" title={t('toolbox.loadFailed')} />
      ) : (
        <Row gutter={[16, 16]}>
          {shown.map((tool) => (
            <Col key={tool.type} xs={24} sm={12} md={8} lg={6}>
              <ToolCard tool={tool} />
            </Col>
          ))}
        </Row>
      )}
    </div>
  );
}
