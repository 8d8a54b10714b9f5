import { PlusOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Flex, Form, Skeleton, Space, Switch, Table, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import {
  COLLECTION_TEMPLATES_MAX,
  useManagedCollection,
  usePublishCollection,
  useSaveCollection,
  type Collection,
  type CollectionAudit,
  type CollectionKind,
} from '@/api/collection';
import type { TemplateSummary } from '@/api/template';
import { NotFound } from '@/components/NotFound';
import { collectionErrorText } from './collectionErrors';
import { CollectionFields, type CollectionFieldValues } from './CollectionFields';
import { CollectionTemplates } from './CollectionTemplates';
import { centerPath, centerTitleKey, detailPath, detailTitleKey, moved } from './paths';
import { TemplatePickerModal } from './TemplatePickerModal';

/** The templates of a manager's detail in the collection's order (the answer's `templateIds`). */
function inOrder(c: Collection): TemplateSummary[] {
  const byId = new Map((c.templates ?? []).map((tpl) => [tpl.id, tpl]));
  return c.templateIds.flatMap((id) => byId.get(id) ?? []);
}

/** The cover a list shows: the chosen template while it is listed, else the first (0 for none). */
function coverOf(templates: TemplateSummary[], chosen: number): number {
  return templates.some((tpl) => tpl.id === chosen) ? chosen : (templates[0]?.id ?? 0);
}

function AuditList({ audit }: { audit: CollectionAudit[] }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<CollectionAudit> = [
    { title: t('collection.detail.auditAt'), key: 'at', width: 170, render: (_, a) => dayjs(a.atMs).format('YYYY-MM-DD HH:mm:ss') },
    { title: t('collection.detail.auditActor'), dataIndex: 'actor', key: 'actor', width: 160 },
    // Actions the locale does not name yet are shown as the server words them.
    { title: t('collection.detail.auditAction'), key: 'action', width: 110, render: (_, a) => t(`collection.detail.action.${a.action}`, { defaultValue: a.action }) },
    { title: t('collection.detail.auditBefore'), dataIndex: 'before', key: 'before', ellipsis: true },
    { title: t('collection.detail.auditAfter'), dataIndex: 'after', key: 'after', ellipsis: true },
  ];
  return (
    <Card title={t('collection.detail.audit')} style={{ marginTop: 16 }} data-testid="collection-audit">
      <Table<CollectionAudit>
        rowKey={(a) => `${a.atMs}-${a.action}-${a.actor}`}
        size="small"
        dataSource={audit}
        columns={columns}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        locale={{ emptyText: t('collection.detail.auditEmpty') }}
      />
    </Card>
  );
}

/** Publishes or withdraws the saved collection. */
function PublishSwitch({ collection }: { collection: Collection }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const publish = usePublishCollection();
  return (
    <Space orientation="vertical" size={2} align="end">
      <Space>
        <Typography.Text>{t('collection.detail.published')}</Typography.Text>
        <Switch
          checked={collection.published}
          loading={publish.isPending}
          aria-label={t('collection.detail.published')}
          data-testid={`collection-publish-${collection.id}`}
          onChange={(published) =>
            publish.mutate(
              { id: collection.id, published },
              {
                onSuccess: () => void message.success(published ? t('collection.center.publishedDone') : t('collection.center.unpublishedDone')),
                onError: (err) => void message.error(collectionErrorText(err)),
              },
            )
          }
        />
      </Space>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('collection.detail.publishHint')}
      </Typography.Text>
    </Space>
  );
}

/**
 * The editing of one collection: its name and description, its templates (added from the approved
 * ones, ordered, removed, one chosen as the cover) kept here until saved as a whole.
 */
function CollectionEditor({ collection }: { collection: Collection }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<CollectionFieldValues>();
  const name = Form.useWatch('name', form) ?? collection.name;
  const description = Form.useWatch('description', form) ?? collection.description;
  const [templates, setTemplates] = useState<TemplateSummary[]>(() => inOrder(collection));
  const [chosenCover, setChosenCover] = useState(collection.coverTemplateId);
  const [picking, setPicking] = useState(false);
  const save = useSaveCollection();
  const cover = coverOf(templates, chosenCover);
  const ids = templates.map((tpl) => tpl.id);
  const chosen = useMemo(() => new Set(templates.map((tpl) => tpl.id)), [templates]);
  const known = useMemo(() => new Map([...(collection.templates ?? []), ...templates].map((tpl) => [tpl.id, tpl.taskName])), [collection.templates, templates]);

  const dirty =
    name.trim() !== collection.name ||
    description.trim() !== collection.description ||
    ids.join(',') !== collection.templateIds.join(',') ||
    cover !== collection.coverTemplateId;

  const submit = ({ name: n, description: d }: CollectionFieldValues) =>
    save.mutate(
      {
        id: collection.id,
        kind: collection.kind,
        name: n.trim(),
        description: (d ?? '').trim(),
        templateIds: ids,
        ...(cover ? { coverTemplateId: cover } : {}),
      },
      { onSuccess: () => void message.success(t('collection.detail.saved')) },
    );

  return (
    <>
      <Card title={t('collection.detail.basics')}>
        <Form form={form} layout="vertical" initialValues={{ name: collection.name, description: collection.description }} onFinish={submit} style={{ maxWidth: 640 }}>
          <CollectionFields />
        </Form>
      </Card>
      <Card
        title={t('collection.detail.templates', { count: templates.length, max: COLLECTION_TEMPLATES_MAX })}
        style={{ marginTop: 16 }}
        extra={
          <Button icon={<PlusOutlined />} onClick={() => setPicking(true)} data-testid="collection-add-templates">
            {t('collection.detail.add')}
          </Button>
        }
      >
        <CollectionTemplates
          templates={templates}
          cover={cover}
          onCover={setChosenCover}
          onMove={(index, by) => setTemplates((list) => moved(list, index, by))}
          onRemove={(id) => setTemplates((list) => list.filter((tpl) => tpl.id !== id))}
        />
      </Card>
      {save.isError ? (
        <Alert
          type="error"
          showIcon
          style={{ marginTop: 16 }}
          title={collectionErrorText(save.error, (id) => known.get(id))}
          data-testid="collection-error"
        />
      ) : null}
      <Flex gap={12} align="center" style={{ marginTop: 16 }}>
        <Button type="primary" loading={save.isPending} disabled={!dirty} onClick={() => form.submit()} data-testid="collection-save">
          {t('collection.detail.save')}
        </Button>
        {dirty ? (
          <Typography.Text type="warning" data-testid="collection-unsaved">
            {t('collection.detail.unsaved')}
          </Typography.Text>
        ) : null}
      </Flex>
      {picking ? (
        <TemplatePickerModal
          chosen={chosen}
          onAdd={(tpl) => setTemplates((list) => (list.some((x) => x.id === tpl.id) || list.length >= COLLECTION_TEMPLATES_MAX ? list : [...list, tpl]))}
          onClose={() => setPicking(false)}
        />
      ) : null}
    </>
  );
}

/**
 * /manage/{topic,case,industry}/:id: one collection's name, description and templates, saved as a
 * whole; its publishing; its recent changes. A collection of another kind opens at its own address.
 */
export function CollectionDetailPage({ kind }: { kind: CollectionKind }) {
  const id = Number(useParams().id);
  if (!Number.isInteger(id) || id <= 0) return <NotFound />;
  return <CollectionDetail kind={kind} id={id} key={id} />;
}

function CollectionDetail({ kind, id }: { kind: CollectionKind; id: number }) {
  const { t } = useTranslation();
  const title = t(detailTitleKey(kind));
  const { data, isPending, isError, error } = useManagedCollection(id);
  if (data && data.kind !== kind) return <Navigate to={detailPath(data.kind, data.id)} replace />;
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid={`collection-detail-${kind}`}>
      <Link to={centerPath(kind)} data-testid="collection-back">
        {t('collection.detail.back', { center: t(centerTitleKey(kind)) })}
      </Link>
      <Flex justify="space-between" align="start" gap={16} style={{ margin: '8px 0 16px' }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {data ? `${title} · ${data.name}` : title}
        </Typography.Title>
        {data ? <PublishSwitch collection={data} /> : null}
      </Flex>
      {isError ? (
        <Alert type="error" showIcon title={collectionErrorText(error)} data-testid="collection-error" />
      ) : isPending ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <>
          <CollectionEditor collection={data} />
          <AuditList audit={data.audit ?? []} />
        </>
      )}
    </div>
  );
}
