import { DeleteOutlined, EditOutlined, FolderOutlined, VideoCameraAddOutlined } from '@ant-design/icons';
import { App, Button, Col, Modal, Row, Segmented, Space, Spin, Tabs, TreeSelect, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useTaskVideoCategories, type TaskVideoCategory } from '@/api/category';
import {
  ALL_CATEGORIES,
  DEFAULT_MATERIAL_CATEGORY,
  useBatchDeleteMaterials,
  useDeleteMaterial,
  useMaterials,
  useMoveMaterials,
  useRenameMaterial,
  type Material,
  type MaterialOrder,
  type MaterialType,
  type OrientationChoice,
  ANY_ORIENTATION,
  Orientation,
} from '@/api/material';
import { EmptyState } from '@/components/EmptyState';
import { InfiniteMore } from '@/components/InfiniteMore';
import { useWarmTip } from '@/components/WarmTip';
import { MaterialCard } from '@/components/material/MaterialCard';
import { MaterialUpload } from '@/components/material/MaterialUpload';
import { RenameModal } from '@/components/RenameModal';
import { ReviewVerdict, SubmitToLibrary } from '@/platform/manage/components/SubmitToLibrary';
import { fromJiancaiLink } from '@/platform/start/FromJiancaiPage';
import { MaterialQuotaBar } from './MaterialQuotaBar';

const TYPE_TABS = ['all', 'picture', 'video', 'audio', 'gif'] as const;
type TypeTab = (typeof TYPE_TABS)[number];

interface CategoryNode {
  value: number;
  title: string;
  children?: CategoryNode[];
}

function toTree(list: TaskVideoCategory[]): CategoryNode[] {
  return list.map((c) => ({
    value: c.categoryId,
    title: c.categoryName,
    ...(c.children && c.children.length > 0 ? { children: toTree(c.children) } : {}),
  }));
}

/** Returns the categoryId the list asks for: the default route lists every category. */
export function listCategoryOf(param: string | undefined): number {
  const id = Number(param);
  if (!Number.isInteger(id) || id === DEFAULT_MATERIAL_CATEGORY) return ALL_CATEGORIES;
  return id;
}

/**
 * /workbench/my-material/:categoryId: my materials as cards with type tabs, orientation and sort,
 * upload with progress, the caller's quota, rename, delete, batch delete and move to a category.
 */
export function MyMaterialPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const warmTip = useWarmTip();
  const navigate = useNavigate();
  const { categoryId: param } = useParams();
  const categoryId = listCategoryOf(param);
  const [typeTab, setTypeTab] = useState<TypeTab>('all');
  const [orientation, setOrientation] = useState<OrientationChoice>(ANY_ORIENTATION);
  const [order, setOrder] = useState<MaterialOrder>('newest');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [renaming, setRenaming] = useState<Material | null>(null);
  const [moving, setMoving] = useState(false);
  const [moveTo, setMoveTo] = useState<number | null>(null);

  const filter = useMemo(
    () => ({
      source: 'user' as const,
      categoryId,
      type: typeTab === 'all' ? undefined : (typeTab as MaterialType),
      horizontalOrVertical: orientation === ANY_ORIENTATION ? undefined : orientation,
      orderType: order,
    }),
    [categoryId, typeTab, orientation, order],
  );
  const list = useMaterials(filter);
  const categories = useTaskVideoCategories();
  const tree = useMemo(() => toTree(categories.data ?? []), [categories.data]);
  const rename = useRenameMaterial();
  const remove = useDeleteMaterial();
  const batchDelete = useBatchDeleteMaterials();
  const move = useMoveMaterials();

  const materials = useMemo(() => list.data?.pages.flatMap((p) => p.dataList) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  const chosen = materials.filter((m) => selected.has(m.id)).map((m) => m.id);

  const select = (m: Material, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(m.id);
      else next.delete(m.id);
      return next;
    });

  const onRename = (name: string) => {
    if (!renaming) return;
    rename.mutate(
      { materialId: renaming.id, materialName: name },
      {
        onSuccess: () => {
          setRenaming(null);
          void message.success(t('material.renamed'));
        },
      },
    );
  };

  const onDelete = (m: Material) =>
    remove.mutate(m.id, {
      onSuccess: () => {
        select(m, false);
        void message.success(t('material.deleted'));
      },
    });

  const onBatchDelete = () =>
    batchDelete.mutate(chosen, {
      onSuccess: () => {
        setSelected(new Set());
        void message.success(t('material.batchDeleted', { count: chosen.length }));
      },
    });

  const onMove = () => {
    if (moveTo === null) return;
    move.mutate(
      { materialIds: chosen, categoryIds: [moveTo] },
      {
        onSuccess: () => {
          setMoving(false);
          setMoveTo(null);
          setSelected(new Set());
          void message.success(t('material.moved'));
        },
      },
    );
  };

  const empty = !list.isFetching && !list.isError && materials.length === 0;

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="my-material">
      <Space style={{ width: '100%', justifyContent: 'space-between', alignItems: 'flex-start' }} wrap>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('material.title')}
        </Typography.Title>
        <MaterialUpload categoryId={categoryId} />
      </Space>
      <Space wrap size="middle" style={{ marginBottom: 8 }}>
        <TreeSelect<number>
          style={{ minWidth: 200 }}
          value={categoryId === ALL_CATEGORIES ? undefined : categoryId}
          placeholder={t('material.allCategories')}
          allowClear
          treeData={tree}
          loading={categories.isLoading}
          onChange={(value) => navigate(`/workbench/my-material/${value ?? DEFAULT_MATERIAL_CATEGORY}`)}
          aria-label={t('material.category')}
          data-testid="material-category"
        />
        <Segmented<OrientationChoice>
          value={orientation}
          onChange={setOrientation}
          options={[
            { value: ANY_ORIENTATION, label: t('material.orientation.all') },
            { value: Orientation.landscape, label: t('material.orientation.landscape') },
            { value: Orientation.portrait, label: t('material.orientation.portrait') },
          ]}
          data-testid="material-orientation"
        />
        <Segmented<MaterialOrder>
          value={order}
          onChange={setOrder}
          options={[
            { value: 'newest', label: t('material.order.newest') },
            { value: 'hottest', label: t('material.order.hottest') },
          ]}
          data-testid="material-order"
        />
      </Space>
      <Tabs
        activeKey={typeTab}
        onChange={(key) => setTypeTab(key as TypeTab)}
        items={TYPE_TABS.map((key) => ({ key, label: t(`material.type.${key}`) }))}
      />
      <Space wrap style={{ marginBottom: 12 }} data-testid="material-batch">
        <Typography.Text type="secondary">{t('material.total', { total })}</Typography.Text>
        <MaterialQuotaBar />
        <Button size="small" onClick={() => setSelected(new Set(materials.map((m) => m.id)))} disabled={materials.length === 0} data-testid="select-all">
          {t('material.selectAll')}
        </Button>
        {chosen.length > 0 ? (
          <>
            <Typography.Text data-testid="selected-count">{t('material.selected', { count: chosen.length })}</Typography.Text>
            <Button size="small" type="primary" icon={<VideoCameraAddOutlined />} onClick={() => void navigate(fromJiancaiLink(chosen))} data-testid="create-from-selected">
              {t('material.createFrom')}
            </Button>
            <Button
              size="small"
              danger
              icon={<DeleteOutlined />}
              loading={batchDelete.isPending}
              onClick={() => warmTip({ content: t('material.batchDeleteConfirm', { count: chosen.length }), okButtonProps: { danger: true }, onOk: onBatchDelete })}
              data-testid="batch-delete"
            >
              {t('material.batchDelete')}
            </Button>
            <Button size="small" icon={<FolderOutlined />} onClick={() => setMoving(true)} data-testid="batch-move">
              {t('material.move')}
            </Button>
            <Button size="small" type="link" onClick={() => setSelected(new Set())}>
              {t('material.clearSelection')}
            </Button>
          </>
        ) : null}
      </Space>
      {empty ? (
        <EmptyState />
      ) : list.isError ? (
        <Typography.Text type="danger">{t('material.loadFailed')}</Typography.Text>
      ) : (
        <Spin spinning={list.isLoading}>
          <Row gutter={[12, 12]}>
            {materials.map((m) => (
              <Col key={m.id} xs={12} sm={8} md={6} lg={4}>
                <MaterialCard
                  material={m}
                  selected={selected.has(m.id)}
                  onSelect={select}
                  corner={<ReviewVerdict material={m} />}
                  actions={[
                    <SubmitToLibrary key="submit" material={m} />,
                    <Button key="rename" type="text" size="small" icon={<EditOutlined />} onClick={() => setRenaming(m)} aria-label={t('material.rename')} data-testid={`rename-${m.id}`} />,
                    <Button
                      key="delete"
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('material.delete')}
                      onClick={() => warmTip({ content: t('material.deleteConfirm'), okButtonProps: { danger: true }, onOk: () => onDelete(m) })}
                      data-testid={`delete-${m.id}`}
                    />,
                  ]}
                />
              </Col>
            ))}
          </Row>
          <InfiniteMore hasMore={!!list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
        </Spin>
      )}
      <RenameModal name={renaming ? renaming.materialName : null} onCancel={() => setRenaming(null)} onSubmit={onRename} pending={rename.isPending} />
      <Modal
        open={moving}
        title={t('material.moveTitle', { count: chosen.length })}
        okText={t('rename.ok')}
        cancelText={t('rename.cancel')}
        onCancel={() => setMoving(false)}
        onOk={onMove}
        okButtonProps={{ disabled: moveTo === null, loading: move.isPending }}
        destroyOnHidden
      >
        <TreeSelect<number>
          style={{ width: '100%' }}
          value={moveTo ?? undefined}
          onChange={(value) => setMoveTo(value ?? null)}
          treeData={tree}
          placeholder={t('material.chooseCategory')}
          treeDefaultExpandAll
          data-testid="move-target"
        />
      </Modal>
    </div>
  );
}
