import { AppstoreOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTemplate } from '@/api/template';
import { FillTemplateDrawer } from '@/platform/templates/FillTemplateDrawer';

/**
 * 'Start from the template' of a contest: fetches the template when asked, then opens the same
 * slot-filling drawer the template picker's 'use' button opens (make the work, then edit it).
 */
export function StartFromTemplate({ templateId }: { templateId: number }) {
  const { t } = useTranslation();
  const [asked, setAsked] = useState(false);
  const template = useTemplate(asked ? templateId : null);
  return (
    <>
      <Button icon={<AppstoreOutlined />} loading={asked && template.isFetching} onClick={() => (template.isError ? void template.refetch() : setAsked(true))} data-testid="contest-use-template">
        {t('contest.detail.useTemplate')}
      </Button>
      <FillTemplateDrawer template={asked && template.data ? template.data : null} onClose={() => setAsked(false)} />
    </>
  );
}
