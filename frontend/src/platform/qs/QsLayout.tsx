import { PlusOutlined } from '@ant-design/icons';
import { Button, ConfigProvider, Layout, Menu, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { useSystemInfo } from '@/api/system';
import { brandOf, currentVariant, VARIANTS, type Variant } from '@/app/variant';
import { HandoffBackLink } from '@/components/HandoffBackLink';
import { HealthIndicator } from '@/components/HealthIndicator';
import { LanguageSwitch } from '@/components/LanguageSwitch';
import { UserStatus } from '@/components/UserStatus';

/** The portal's own nav: its routes under /qs, each with its locale key under `portal.nav.`. */
export const QS_NAV = [
  { to: '/qs/index', key: 'index' },
  { to: '/qs/template', key: 'template' },
  { to: '/qs/mydiy', key: 'mydiy' },
  { to: '/qs/template-page/my-template', key: 'myTemplate' },
  { to: '/qs/my-tools', key: 'myTools' },
  { to: '/qs/introduce', key: 'introduce' },
] as const;

/** The portal's editor: it fills the window under the header, with no footer. */
export const QS_EDITOR = '/qs/diy';

/** Returns the nav entry a portal path belongs to (`/qs/template-page/select` is the templates' own area). */
export function qsNavKeyFor(pathname: string): string {
  if (pathname.startsWith('/qs/template-page')) return '/qs/template-page/my-template';
  return QS_NAV.find((item) => pathname === item.to || pathname.startsWith(`${item.to}/`))?.to ?? '';
}

/** The variant the server took this page's requests for (GET /system/info), else the page's own. */
function useServedVariant(): Variant {
  const served = useSystemInfo().data?.variant;
  return (VARIANTS as readonly string[]).includes(served ?? '') ? (served as Variant) : currentVariant();
}

/**
 * The /qs portal's frame (spec platform §2, the variant area): its header with the variant's name and
 * accent, its own nav, a 'create' entry, language and sign-in state; the portal's pages below, the same
 * components the app's own routes show.
 */
export function QsLayout() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const variant = useServedVariant();
  const brand = brandOf(variant);
  const editor = pathname === QS_EDITOR;
  return (
    <Layout style={{ minHeight: '100vh' }} data-testid="qs-layout">
      <div style={{ height: 4, background: brand.accent }} aria-hidden />
      <Layout.Header
        data-variant={variant}
        style={{ display: 'flex', alignItems: 'center', gap: 16, background: '#fff', borderBottom: '1px solid #f0f0f0', paddingInline: 24 }}
      >
        <Link
          to="/qs/index"
          title={t('portal.name')}
          style={{ whiteSpace: 'nowrap', fontWeight: 700, fontSize: 20, color: brand.accent }}
          data-testid="qs-logo"
        >
          ▶ {t(brand.titleKey)}
        </Link>
        {/* Six entries beside a signed-in user's name: narrower items keep them all out of the overflow menu at 1280 px. */}
        <ConfigProvider theme={{ components: { Menu: { itemPaddingInline: 12 } } }}>
          <Menu
            mode="horizontal"
            selectedKeys={[qsNavKeyFor(pathname)]}
            style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
            items={QS_NAV.map((item) => ({
              key: item.to,
              label: (
                <Link to={item.to} data-testid={`qs-nav-${item.key}`}>
                  {t(`portal.nav.${item.key}`)}
                </Link>
              ),
            }))}
          />
        </ConfigProvider>
        <Space size="middle">
          <Link to={QS_EDITOR}>
            <Button type="primary" icon={<PlusOutlined />} style={{ background: brand.accent }} data-testid="qs-create">
              {t('portal.create')}
            </Button>
          </Link>
          <HandoffBackLink />
          <LanguageSwitch />
          <UserStatus />
        </Space>
      </Layout.Header>
      <Layout.Content style={{ padding: editor ? 0 : 24 }}>
        <Outlet />
      </Layout.Content>
      {editor ? null : (
        <Layout.Footer style={{ display: 'flex', justifyContent: 'space-between', color: '#888' }}>
          <Space>
            <Typography.Text type="secondary">© Reelforge</Typography.Text>
            <Link to="/">{t('portal.leave')}</Link>
          </Space>
          <HealthIndicator />
        </Layout.Footer>
      )}
    </Layout>
  );
}
