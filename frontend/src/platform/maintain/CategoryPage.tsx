import { App, Button, Space, Switch, Table, Tabs, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CATEGORY_DIMENSIONS, useCategoryTree, useChangeCategory, type CategoryChange, type CategoryDimension, type TaskVideoCategory } from '@/api/category';
import { useWarmTip } from '@/components/WarmTip';
import { NameModal } from './components/NameModal';
import { maintainErrorText } from './maintainErrors';

/** Longest category name (the category service's `MAX_NAME_CHARS`). */
const MAX_NAME = 32;

/** What the name modal is for: a new category (under `parent`, none for the first level) or a rename. */
type Naming = { kind: 'create'; parent: TaskVideoCategory | null } | { kind: 'rename'; category: TaskVideoCategory };

/** Rows of the tree table: an empty `children` would show an expander with nothing under it. */
function rows(tree: TaskVideoCategory[]): TaskVideoCategory[] {
  return tree.map((c) => ({ ...c, children: c.children && c.children.length > 0 ? rows(c.children) : undefined }));
}

/** One dimension's category tree: create, rename, delete (refused while in use), home-page push. */
export function DimensionTree({ dimension }: { dimension: CategoryDimension }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const warmTip = useWarmTip();
  const { data, isFetching, isError } = useCategoryTree(dimension);
  const change = useChangeCategory();
  const [naming, setNaming] = useState<Naming | null>(null);
  // Parents start open, so a new child shows at once; the ones closed stay closed.
  const [closed, setClosed] = useState<ReadonlySet<number>>(new Set());
  const open = (data ?? []).filter((c) => (c.children?.length ?? 0) > 0 && !closed.has(c.categoryId)).map((c) => c.categoryId);
  // IVVR categories have one level (spec platform §2).
  const twoLevels = dimension !== 'ivvr';

  const send = (c: CategoryChange, done: string, after?: () => void) =>
    change.mutate(c, {
      onSuccess: () => {
        void message.success(done);
        after?.();
      },
      onError: (err) => void message.error(maintainErrorText(err)),
    });

  const submitName = (name: string) => {
    if (!naming) return;
    const close = () => setNaming(null);
    if (naming.kind === 'rename') send({ op: 'rename', categoryId: naming.category.categoryId, categoryName: name }, t('maintain.category.renamed'), close);
    else send({ op: 'create', categoryName: name, dimension, higherUpId: naming.parent?.categoryId ?? -1 }, t('maintain.category.created'), close);
  };

  const confirmDelete = (c: TaskVideoCategory) =>
    warmTip({
      content: t('maintain.category.deleteConfirm', { name: c.categoryName }),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete' },
      onOk: () => send({ op: 'delete', categoryId: c.categoryId }, t('maintain.category.deleted')),
    });

  const columns: TableColumnsType<TaskVideoCategory> = [
    { title: t('maintain.category.name'), dataIndex: 'categoryName', key: 'name', render: (name: string, c) => <span data-testid={`category-${c.categoryId}`}>{name}</span> },
    { title: t('maintain.category.id'), dataIndex: 'categoryId', key: 'id', width: 100 },
    {
      title: t('maintain.category.push'),
      key: 'push',
      width: 130,
      render: (_, c) => (
        <Switch
          size="small"
          checked={Boolean(c.push)}
          aria-label={t('maintain.category.push')}
          data-testid={`push-${c.categoryId}`}
          onChange={(on) => send({ op: 'push', ids: [c.categoryId], push: on }, on ? t('maintain.category.pushed') : t('maintain.category.unpushed'))}
        />
      ),
    },
    {
      title: t('maintain.category.actions'),
      key: 'actions',
      render: (_, c) => (
        <Space size={4} wrap>
          {twoLevels && c.higherUpId < 0 && (
            <Button size="small" type="link" data-testid={`add-child-${c.categoryId}`} onClick={() => setNaming({ kind: 'create', parent: c })}>
              {t('maintain.category.createChild')}
            </Button>
          )}
          <Button size="small" type="link" data-testid={`rename-${c.categoryId}`} onClick={() => setNaming({ kind: 'rename', category: c })}>
            {t('maintain.category.rename')}
          </Button>
          <Button size="small" type="link" danger data-testid={`delete-${c.categoryId}`} onClick={() => confirmDelete(c)}>
            {t('maintain.category.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  const title =
    naming === null
      ? null
      : naming.kind === 'rename'
        ? t('maintain.category.renameTitle', { name: naming.category.categoryName })
        : naming.parent
          ? t('maintain.category.childTitle', { parent: naming.parent.categoryName })
          : t('maintain.category.createTitle');

  return (
    <>
      <Button type="primary" style={{ marginBottom: 12 }} data-testid="create-root" onClick={() => setNaming({ kind: 'create', parent: null })}>
        {t('maintain.category.createRoot')}
      </Button>
      <Table<TaskVideoCategory>
        rowKey="categoryId"
        columns={columns}
        dataSource={rows(data ?? [])}
        loading={isFetching && !data}
        pagination={false}
        expandable={{
          expandedRowKeys: open,
          onExpand: (expanded, c) =>
            setClosed((was) => {
              const next = new Set(was);
              if (expanded) next.delete(c.categoryId);
              else next.add(c.categoryId);
              return next;
            }),
        }}
        locale={{ emptyText: isError ? t('maintain.category.loadFailed') : t('maintain.category.empty') }}
      />
      <NameModal
        title={title}
        initial={naming?.kind === 'rename' ? naming.category.categoryName : ''}
        maxLength={MAX_NAME}
        placeholder={t('maintain.category.namePlaceholder')}
        pending={change.isPending}
        onSubmit={submitName}
        onCancel={() => setNaming(null)}
      />
    </>
  );
}

/** /eb-maintain/category: the category trees by dimension; create, rename, delete (refused while in use), home-page push. */
export function CategoryPage() {
  const { t } = useTranslation();
  const [dimension, setDimension] = useState<CategoryDimension>('industry');
  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="maintain-category">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('maintain.category.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('maintain.category.intro')}</Typography.Paragraph>
      <Tabs
        activeKey={dimension}
        onChange={(k) => setDimension(k as CategoryDimension)}
        items={CATEGORY_DIMENSIONS.map((d) => ({ key: d, label: t(`maintain.dimension.${d}`) }))}
      />
      <DimensionTree key={dimension} dimension={dimension} />
    </div>
  );
}
