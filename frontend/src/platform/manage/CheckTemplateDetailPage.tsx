import { App, Button, Card, Col, Descriptions, Empty, Result, Row, Space, Spin, Switch, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import {
  ratioOf,
  useAuditTemplate,
  useCheckTemplate,
  useSetTemplatePush,
  useTemplateSlots,
  type TemplateSlot,
  type TemplateSummary,
} from '@/api/template';
import { formatEta as formatClock } from '@/components/task/TaskProgress';
import { AuditStateTag } from '@/platform/templates/components/AuditStateTag';
import { SlotPicture } from '@/platform/templates/components/SlotPicture';
import { CategoriesForm } from './components/CategoriesForm';
import { RejectModal } from './components/RejectModal';

function Preview({ template }: { template: TemplateSummary }) {
  const { t } = useTranslation();
  const style = { width: '100%', maxHeight: 420, background: '#000', borderRadius: 6 } as const;
  if (template.videoUrl) return <video src={template.videoUrl} poster={template.coverUrl || undefined} controls style={style} data-testid="detail-video" />;
  if (template.coverUrl) return <img src={template.coverUrl} alt={template.taskName} style={{ ...style, objectFit: 'contain' }} data-testid="detail-cover" />;
  return <Empty description={t('tpl.noPreview')} />;
}

function Slots({ id }: { id: number }) {
  const { t } = useTranslation();
  const slots = useTemplateSlots(id);
  if (slots.isError) return <Typography.Text type="danger">{t('tpl.slotsFailed')}</Typography.Text>;
  return (
    <Table<TemplateSlot>
      size="small"
      rowKey="id"
      loading={slots.isPending}
      pagination={false}
      dataSource={slots.data ?? []}
      data-testid="detail-slots"
      columns={[
        { title: t('tpl.slotScene'), dataIndex: 'sceneIndex', render: (n: number) => n + 1 },
        { title: t('tpl.slotKindLabel'), dataIndex: 'materialType', render: (k: string) => t(`tpl.slotKind.${k}`) },
        {
          title: t('tpl.slotContent'),
          dataIndex: 'content',
          ellipsis: true,
          render: (content: string, s) => (s.materialType === 'picture' ? <SlotPicture src={content} alt={t('tpl.slotKind.picture')} /> : content),
        },
        { title: t('tpl.slotMax'), dataIndex: 'maxLength', render: (n: number, s) => (s.materialType === 'text' && n > 0 ? n : '—') },
      ]}
    />
  );
}

function Decision({ template }: { template: TemplateSummary }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const audit = useAuditTemplate();
  const push = useSetTemplatePush();
  const [rejecting, setRejecting] = useState(false);
  const decide = (approve: boolean, reason?: string) =>
    audit.mutate(
      { id: template.id, approve, ...(reason ? { reason } : {}) },
      {
        onSuccess: () => {
          setRejecting(false);
          void message.success(t(approve ? 'tpl.approved' : 'tpl.rejected'));
        },
      },
    );
  return (
    <Space wrap style={{ marginTop: 12 }}>
      {template.auditState !== 'approved' ? (
        <Button type="primary" loading={audit.isPending} onClick={() => decide(true)} data-testid="approve">
          {t('tpl.approve')}
        </Button>
      ) : null}
      {template.auditState !== 'rejected' ? (
        <Button danger onClick={() => setRejecting(true)} data-testid="reject">
          {t('tpl.reject')}
        </Button>
      ) : null}
      {template.auditState === 'approved' ? (
        <Space>
          {t('tpl.push')}
          <Switch
            checked={template.push}
            loading={push.isPending}
            onChange={(on) => push.mutate({ ids: [template.id], push: on })}
            data-testid="detail-push"
          />
        </Space>
      ) : null}
      <RejectModal open={rejecting} pending={audit.isPending} onCancel={() => setRejecting(false)} onReject={(reason) => decide(false, reason)} />
    </Space>
  );
}

function Detail({ id }: { id: number }) {
  const { t } = useTranslation();
  const { data, isPending, isError } = useCheckTemplate(id);
  if (isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (isError) return <Result status="warning" title={t('tpl.loadFailed')} data-testid="detail-error" />;
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={10}>
        <Card>
          <Preview template={data} />
        </Card>
      </Col>
      <Col xs={24} md={14}>
        <Card title={data.taskName || t('tasks.untitled')} extra={<AuditStateTag template={data} />} data-testid="detail-card">
          <Descriptions size="small" column={2}>
            <Descriptions.Item label={t('tpl.kindLabel')}>{t(`tpl.kind.${data.kind}`, { defaultValue: data.kind })}</Descriptions.Item>
            <Descriptions.Item label={t('tpl.size')}>{ratioOf(data.sizeCategoryId) || data.sizeCategoryId}</Descriptions.Item>
            <Descriptions.Item label={t('tpl.duration')}>{formatClock(data.duration)}</Descriptions.Item>
            <Descriptions.Item label={t('tpl.creator')}>{data.creatorId}</Descriptions.Item>
            <Descriptions.Item label={t('tpl.updated')}>{data.updateTime}</Descriptions.Item>
          </Descriptions>
          <Decision template={data} />
        </Card>
        <Card title={t('tpl.slotsTitle')} style={{ marginTop: 16 }}>
          <Slots id={id} />
        </Card>
        <Card title={t('tpl.categoriesLabel')} style={{ marginTop: 16 }}>
          <CategoriesForm key={data.updateTime} template={data} />
        </Card>
      </Col>
    </Row>
  );
}

/** /manage/check-template-detail/:taskId: preview, slots, approve, reject with a reason, categories and push of one template. */
export function CheckTemplateDetailPage() {
  const { t } = useTranslation();
  const { taskId } = useParams();
  const id = Number(taskId);
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="check-template-detail">
      <Space style={{ marginBottom: 8 }}>
        <Link to="/manage/check-template/pending">{t('tpl.backToList')}</Link>
      </Space>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.checkTemplateDetail')}
      </Typography.Title>
      {Number.isInteger(id) && id > 0 ? <Detail id={id} /> : <Result status="404" title={t('tpl.badId')} />}
    </div>
  );
}
