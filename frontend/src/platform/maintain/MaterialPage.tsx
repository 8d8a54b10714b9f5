import { CustomerServiceOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Image, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SYSTEM_CATEGORIES, SystemState, systemCategory, useSystemMaterials, useUpdateSystemMaterials } from '@/api/maintain';
import type { Material } from '@/api/material';
import { useWarmTip } from '@/components/WarmTip';
import { SystemEditModal } from './components/SystemEditModal';
import { SystemUploadModal } from './components/SystemUploadModal';
import { maintainErrorText } from './maintainErrors';

/** Rows of one page of the maintenance list. */
const PAGE_SIZE = 20;

const STATE_COLOURS: Record<string, string> = { processing: 'processing', ready: 'success', failed: 'error' };

function Preview({ m }: { m: Material }) {
  if (m.coverUrl) return <Image src={m.coverUrl} width={64} height={64} style={{ objectFit: 'contain', background: '#f5f5f5' }} alt={m.materialName} />;
  return <CustomerServiceOutlined style={{ fontSize: 28, color: '#999' }} />;
}

/** /eb-maintain/material: the tenant's system library: upload into the starter categories, edit, retire and offer again. */
export function MaterialPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const warmTip = useWarmTip();
  const [categoryId, setCategoryId] = useState<number | undefined>(undefined);
  const [openState, setOpenState] = useState<number | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const [uploading, setUploading] = useState(false);
  const [editing, setEditing] = useState<Material | null>(null);
  const { data, isFetching, isError } = useSystemMaterials({ categoryId, openState, pageNum, pageSize: PAGE_SIZE });
  const update = useUpdateSystemMaterials();

  const setState = (m: Material, state: number) =>
    update.mutate(
      { materialIds: [m.id], openState: state },
      {
        onSuccess: () => void message.success(state === SystemState.retired ? t('maintain.material.retiredDone') : t('maintain.material.restoredDone')),
        onError: (err) => void message.error(maintainErrorText(err)),
      },
    );
  const retire = (m: Material) =>
    warmTip({
      content: t('maintain.material.retireConfirm', { name: m.materialName }),
      okButtonProps: { 'data-testid': 'confirm-retire' },
      onOk: () => setState(m, SystemState.retired),
    });

  const categoryName = (id: number) => {
    const c = systemCategory(id);
    return c ? t(`maintain.material.categories.${c.key}`) : String(id);
  };

  const columns: TableColumnsType<Material> = [
    { title: t('maintain.material.cover'), key: 'cover', width: 90, render: (_, m) => <Preview m={m} /> },
    { title: t('maintain.material.name'), dataIndex: 'materialName', key: 'name', render: (name: string, m) => <span data-testid={`system-name-${m.id}`}>{name}</span> },
    { title: t('maintain.material.category'), key: 'category', render: (_, m) => categoryName(m.categoryId) },
    {
      title: t('maintain.material.type'),
      dataIndex: 'type',
      key: 'type',
      responsive: ['lg'],
      render: (type: string) => t(`materialTypes.${type}`, { defaultValue: type }),
    },
    {
      title: t('maintain.material.state'),
      key: 'state',
      render: (_, m) => (
        <Tag color={STATE_COLOURS[m.state] ?? 'default'} title={m.failReason || undefined}>
          {t(`maintain.material.${m.state in STATE_COLOURS ? m.state : 'processing'}`)}
        </Tag>
      ),
    },
    {
      title: t('maintain.material.openState'),
      key: 'open',
      render: (_, m) =>
        m.openState === SystemState.offered ? (
          <Tag color="green" data-testid={`open-${m.id}`}>{t('maintain.material.offered')}</Tag>
        ) : (
          <Tag data-testid={`open-${m.id}`}>{t('maintain.material.retired')}</Tag>
        ),
    },
    { title: t('maintain.material.created'), dataIndex: 'createTime', key: 'created', responsive: ['xl'], render: (v: string) => (v ? new Date(v).toLocaleString() : '') },
    {
      title: t('maintain.category.actions'),
      key: 'actions',
      render: (_, m) => (
        <Space size={4}>
          <Button size="small" type="link" data-testid={`edit-${m.id}`} onClick={() => setEditing(m)}>
            {t('maintain.material.edit')}
          </Button>
          {m.openState === SystemState.offered ? (
            <Button size="small" type="link" danger data-testid={`retire-${m.id}`} onClick={() => retire(m)}>
              {t('maintain.material.retire')}
            </Button>
          ) : (
            <Button size="small" type="link" data-testid={`restore-${m.id}`} onClick={() => setState(m, SystemState.offered)}>
              {t('maintain.material.restore')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="maintain-material">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('maintain.material.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('maintain.material.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select<number>
          allowClear
          style={{ width: 200 }}
          placeholder={t('maintain.material.allCategories')}
          value={categoryId}
          data-testid="filter-category"
          onChange={(v) => {
            setCategoryId(v);
            setPageNum(1);
          }}
          options={SYSTEM_CATEGORIES.map((c) => ({ value: c.id, label: t(`maintain.material.categories.${c.key}`) }))}
        />
        <Select<number>
          allowClear
          style={{ width: 160 }}
          placeholder={t('maintain.material.allStates')}
          value={openState}
          onChange={(v) => {
            setOpenState(v);
            setPageNum(1);
          }}
          options={[
            { value: SystemState.offered, label: t('maintain.material.offered') },
            { value: SystemState.retired, label: t('maintain.material.retired') },
          ]}
        />
        <Button type="primary" icon={<UploadOutlined />} data-testid="system-upload" onClick={() => setUploading(true)}>
          {t('maintain.material.upload')}
        </Button>
      </Space>
      <Table<Material>
        rowKey="id"
        columns={columns}
        dataSource={data?.dataList ?? []}
        loading={isFetching && !data}
        locale={isError ? { emptyText: t('maintain.material.loadFailed') } : undefined}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('maintain.material.total', { total }),
          onChange: setPageNum,
        }}
      />
      <SystemUploadModal open={uploading} onClose={() => setUploading(false)} />
      <SystemEditModal material={editing} onClose={() => setEditing(null)} />
    </div>
  );
}
