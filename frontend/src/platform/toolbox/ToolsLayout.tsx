import { Layout, Menu } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { TOOLS } from './tools';

/** /tools frame: the catalogue, my tools and the tool list on the left, the chosen tool on the right. */
export function ToolsLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const current = pathname.split('/')[2] ?? '';
  return (
    <Layout style={{ background: 'transparent' }}>
      <Layout.Sider width={220} theme="light" style={{ borderRadius: 8, overflow: 'auto' }} breakpoint="md" collapsedWidth={0}>
        <Menu
          mode="inline"
          aria-label={t('tools.menu')}
          selectedKeys={[current]}
          items={[
            { key: 'tools-index', label: <Link to="/tools-index">{t('page.toolsIndex')}</Link> },
            { key: 'my-tool', label: <Link to="/my-tool">{t('page.myTool')}</Link> },
            { type: 'divider' },
            ...TOOLS.map((tool) => ({ key: tool.path, label: <Link to={`/tools/${tool.path}`}>{t(`page.${tool.page}`)}</Link> })),
          ]}
        />
      </Layout.Sider>
      <Layout.Content style={{ paddingInline: 24 }}>
        <Outlet />
      </Layout.Content>
    </Layout>
  );
}
