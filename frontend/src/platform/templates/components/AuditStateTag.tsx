import { Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TemplateSummary } from '@/api/template';

const COLORS: Record<string, string> = { draft: 'default', pending: 'processing', approved: 'success', rejected: 'error' };

/** A template's audit state as a tag, with the rejection reason under it. */
export function AuditStateTag({ template }: { template: TemplateSummary }) {
  const { t } = useTranslation();
  return (
    <>
      <Tag color={COLORS[template.auditState] ?? 'default'} data-testid="audit-state">
        {t(`tpl.audit.${template.auditState}`, { defaultValue: template.auditState })}
      </Tag>
      {template.push ? <Tag color="gold">{t('tpl.pushed')}</Tag> : null}
      {template.auditState === 'rejected' && template.reason ? (
        <Typography.Text type="danger" style={{ display: 'block', fontSize: 12 }} data-testid="audit-reason">
          {t('tpl.reason', { reason: template.reason })}
        </Typography.Text>
      ) : null}
    </>
  );
}
