import { Button, Modal, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTaskVideoCategories } from '@/api/category';
import { ratioOf, TEMPLATE_KINDS, TEMPLATE_PAGE_SIZE, useCheckTemplates, useSetTemplatePush, type TemplateKind, type TemplateSummary } from '@/api/template';
import { CategoriesForm } from './components/CategoriesForm';

function CategoryNames({ ids }: { ids: number[] }) {
  const { data } = useTaskVideoCategories();
  const names = new Map((data ?? []).flatMap((c) => [c, ...(c.children ?? [])]).map((c) => [c.categoryId, c.categoryName]));
  return (
    <Space size={2} wrap>
      {ids.map((id) => (
        <Tag key={id}>{names.get(id) ?? id}</Tag>
      ))}
    </Space>
  );
}

/** /manage/manage-template: approved templates with push on/off (one or many) and their categories. */
export function ManageTemplatePage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<TemplateKind | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<TemplateSummary | null>(null);
  const { data, isFetching } = useCheckTemplates({ state: 'approved', kind, pageNum, pageSize: TEMPLATE_PAGE_SIZE });
  const push = useSetTemplatePush();
  const setPush = (ids: number[], on: boolean) => push.mutate({ ids, push: on }, { onSuccess: () => setSelected([]) });

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="manage-template">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.manageTemplate')}
      </Typography.Title>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          allowClear
          placeholder={t('tpl.kindLabel')}
          value={kind}
          onChange={(k?: TemplateKind) => {
            setKind(k);
            setPageNum(1);
          }}
          options={TEMPLATE_KINDS.map((k) => ({ value: k, label: t(`tpl.kind.${k}`) }))}
          style={{ width: 160 }}
        />
        <Button disabled={selected.length === 0} onClick={() => setPush(selected, true)} data-testid="push-on">
          {t('tpl.pushOn')}
        </Button>
        <Button disabled={selected.length === 0} onClick={() => setPush(selected, false)} data-testid="push-off">
          {t('tpl.pushOff')}
        </Button>
      </Space>
      <Table<TemplateSummary>
        rowKey="id"
        loading={isFetching && !data}
        dataSource={data?.list ?? []}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
        pagination={{ current: pageNum, pageSize: TEMPLATE_PAGE_SIZE, total: data?.total ?? 0, onChange: setPageNum, showSizeChanger: false }}
        columns={[
          {
            title: t('tpl.name'),
            dataIndex: 'taskName',
            render: (name: string, tpl) => <Link to={`/manage/check-template-detail/${tpl.id}`}>{name || t('tasks.untitled')}</Link>,
          },
          { title: t('tpl.kindLabel'), dataIndex: 'kind', render: (k: string) => t(`tpl.kind.${k}`, { defaultValue: k }) },
          { title: t('tpl.size'), dataIndex: 'sizeCategoryId', render: (id: number) => ratioOf(id) || id },
          { title: t('tpl.categoriesLabel'), dataIndex: 'categoryIds', render: (ids: number[]) => <CategoryNames ids={ids} /> },
          {
            title: t('tpl.push'),
            dataIndex: 'push',
            render: (on: boolean, tpl) => <Switch checked={on} onChange={(v) => setPush([tpl.id], v)} data-testid={`push-${tpl.id}`} />,
          },
          {
            title: '',
            key: 'edit',
            render: (_: unknown, tpl) => (
              <Button size="small" onClick={() => setEditing(tpl)} data-testid={`edit-categories-${tpl.id}`}>
                {t('tpl.editCategories')}
              </Button>
            ),
          },
        ]}
      />
      <Modal open={editing !== null} title={t('tpl.editCategories')} footer={null} onCancel={() => setEditing(null)} destroyOnHidden>
        {editing ? <CategoriesForm template={editing} onSaved={() => setEditing(null)} /> : null}
      </Modal>
    </div>
  );
}
