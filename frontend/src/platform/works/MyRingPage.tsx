import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MyRingtones } from './MyRingtones';
import { MyWorksPage } from './MyWorksPage';

const TABS = ['works', 'ringtones'] as const;
type Tab = (typeof TABS)[number];

/** /mydiyring: my DIY works (set one as a ringtone) and "my ringtones", the orders (`?tab=ringtones`). */
export function MyRingPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(asked ?? '') ? (asked as Tab) : 'works';
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="my-ring-page">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.mydiyring')}
      </Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(key) => setParams(key === 'works' ? {} : { tab: key }, { replace: true })}
        destroyOnHidden
        items={[
          { key: 'works', label: <span data-testid="tab-works">{t('ring.tabs.works')}</span>, children: <MyWorksPage usedFor="" titleKey={null} /> },
          { key: 'ringtones', label: <span data-testid="tab-ringtones">{t('ring.tabs.ringtones')}</span>, children: <MyRingtones /> },
        ]}
      />
    </div>
  );
}
