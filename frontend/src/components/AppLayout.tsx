import { Layout, Menu, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { brandOf, currentVariant } from '@/app/variant';
import { HandoffBackLink } from './HandoffBackLink';
import { HealthIndicator } from './HealthIndicator';
import { LanguageSwitch } from './LanguageSwitch';
import { UserStatus } from './UserStatus';

const NAV = [
  { key: '/', label: 'nav.home' },
  { key: '/diy', label: 'nav.editor' },
  { key: '/template-select', label: 'nav.templates' },
  { key: '/workbench', label: 'nav.workbench' },
  { key: '/tools', label: 'nav.tools' },
  { key: '/ai', label: 'nav.ai' },
] as const;

/** Pages that fill the window exactly (the editors): no footer under them, so the page never scrolls. */
const FULL_WINDOW = new Set(['/diy', '/editor-pro']);

/** Returns the nav key for a path: its first segment, or '/' for home. */
export function navKeyFor(pathname: string): string {
  const first = pathname.split('/').filter(Boolean)[0];
  return first ? `/${first}` : '/';
}

/**
 * Page frame: header with the variant's title and accent, nav, language switch and user menu;
 * content; footer with server health. The editors fill the window below the header and have no
 * footer: a page taller than the window by the footer scrolled by that much (hiding the header)
 * whenever something was brought into view, such as the ratio picker taking the focus back.
 */
export function AppLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const variant = currentVariant();
  const brand = brandOf(variant);
  return (
    <Layout style={{ minHeight: '100vh' }}>
      <div style={{ height: 4, background: brand.accent }} aria-hidden />
      <Layout.Header
        data-variant={variant}
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 24,
          background: '#fff',
          borderBottom: '1px solid #f0f0f0',
          paddingInline: 24,
        }}
      >
        <Link to="/" style={{ fontWeight: 700, fontSize: 20, color: brand.accent, whiteSpace: 'nowrap' }} data-testid="logo">
          ▶ {t(brand.titleKey)}
        </Link>
        <Menu
          mode="horizontal"
          selectedKeys={[navKeyFor(pathname)]}
          style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
          items={NAV.map((item) => ({ key: item.key, label: <Link to={item.key}>{t(item.label)}</Link> }))}
        />
        <Space size="middle">
          <HandoffBackLink />
          <LanguageSwitch />
          <UserStatus />
        </Space>
      </Layout.Header>
      <Layout.Content style={{ padding: 24 }}>
        <Outlet />
      </Layout.Content>
      {FULL_WINDOW.has(pathname) ? null : (
        <Layout.Footer data-testid="app-footer" style={{ display: 'flex', justifyContent: 'space-between', color: '#888' }}>
          <Typography.Text type="secondary">© Reelforge</Typography.Text>
          <HealthIndicator />
        </Layout.Footer>
      )}
    </Layout>
  );
}
