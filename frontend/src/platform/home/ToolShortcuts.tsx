import { Button, Card, Col, Row, Skeleton, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useToolTypes, type ToolType } from '@/api/toolbox';
import { toolName, unavailableText } from '@/platform/toolbox/toolText';
import { HomeSection } from './HomeSection';

/** The tools worth a shortcut: those the catalogue shows, the usable ones first, at most `limit`. */
export function shortcutTools(types: readonly ToolType[], limit: number): ToolType[] {
  return types
    .filter((tool) => tool.shown)
    .sort((a, b) => Number(b.available) - Number(a.available))
    .slice(0, limit);
}

function Shortcut({ tool }: { tool: ToolType }) {
  const { t } = useTranslation();
  const card = (
    <Card size="small" hoverable={tool.available} style={{ opacity: tool.available ? 1 : 0.65 }}>
      <Typography.Text strong>{toolName(t, tool)}</Typography.Text>
      {tool.available ? null : <Tag style={{ marginInlineStart: 6 }}>{t('toolbox.catalogue.unavailable')}</Tag>}
    </Card>
  );
  return (
    <Link to={`/tools/${tool.path}`} data-testid={`home-tool-${tool.path}`} data-available={tool.available}>
      {tool.available ? card : <Tooltip title={unavailableText(t, tool)}>{card}</Tooltip>}
    </Link>
  );
}

/** The toolbox's tools as shortcuts (GET /toolbox/types), with a link to the whole catalogue. */
export function ToolShortcuts({ limit = 8 }: { limit?: number }) {
  const { t } = useTranslation();
  const types = useToolTypes();
  let body;
  if (types.isPending) body = <Skeleton active paragraph={{ rows: 2 }} />;
  else if (types.isError) body = <Typography.Text type="danger">{t('toolbox.loadFailed')}</Typography.Text>;
  else
    body = (
      <Row gutter={[12, 12]}>
        {shortcutTools(types.data, limit).map((tool) => (
          <Col key={tool.type} xs={12} md={6}>
            <Shortcut tool={tool} />
          </Col>
        ))}
      </Row>
    );
  return (
    <HomeSection
      title={t('portal.tools.title')}
      testId="home-tools"
      extra={
        <Link to="/tools-index">
          <Button type="link">{t('portal.tools.more')}</Button>
        </Link>
      }
    >
      {body}
    </HomeSection>
  );
}
