import { Button, Card, Checkbox, Flex, Input, Result, Skeleton, Space, Spin, Tabs, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useTaskVideoCategories, type TaskVideoCategory } from '@/api/category';
import { SIZE_CATEGORIES, TEMPLATE_KINDS, useTemplates, type TemplateFilter, type TemplateKind, type TemplateSummary } from '@/api/template';
import { EDITOR_PATH } from '@/app/editor';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { isLoggedIn, searchAdded } from '@/auth/userSlice';
import { EmptyState } from '@/components/EmptyState';
import { InfiniteMore } from '@/components/InfiniteMore';
import { ALL, effectiveCategoryId, NO_SELECTION, type CategorySelection } from './categorySelection';
import { CategoryPicker } from './components/CategoryPicker';
import { CollectionChips, CollectionGrid } from './components/CollectionBrowse';
import { TemplateCards } from './components/TemplateCards';
import { FillTemplateDrawer } from './FillTemplateDrawer';

const NO_HISTORY: string[] = [];

function selectionName(list: readonly TaskVideoCategory[], s: CategorySelection, allLabel: string): string {
  const first = list.find((c) => c.categoryId === s.first);
  if (!first) return '';
  if (s.second === ALL || s.second === null) return `${first.categoryName} / ${allLabel}`;
  const second = first.children?.find((c) => c.categoryId === s.second);
  return `${first.categoryName} / ${second?.categoryName ?? ''}`;
}

/** Dimensions the picker leaves out: sizes have their own filter, audio categories are for music. */
const OTHER_DIMENSIONS = ['size', 'audio'];

/**
 * Returns the categories the picker offers: the one-level IVVR ones on the IVVR tab, else the
 * industry and use trees.
 */
export function pickerCategories(list: readonly TaskVideoCategory[], ivvr: boolean): TaskVideoCategory[] {
  return list.filter((c) => {
    const dimension = String(c.dimension).toLowerCase();
    return ivvr ? dimension === 'ivvr' : dimension !== 'ivvr' && !OTHER_DIMENSIONS.includes(dimension);
  });
}

interface CategoriesProps {
  value: CategorySelection;
  onChange: (s: CategorySelection) => void;
  ivvr: boolean;
}

function Categories({ value, onChange, ivvr }: CategoriesProps) {
  const { t } = useTranslation();
  const categories = useTaskVideoCategories();
  const { isPending, isError, refetch } = categories;
  const all = categories.data;
  const data = useMemo(() => pickerCategories(all ?? [], ivvr), [all, ivvr]);
  if (isPending) return <Skeleton active paragraph={{ rows: 2 }} />;
  if (isError)
    return (
      <Result
        status="warning"
        title={t('templates.loadFailed')}
        extra={<Button onClick={() => void refetch()}>{t('templates.retry')}</Button>}
        data-testid="category-error"
      />
    );
  if (data.length === 0) return <Typography.Text type="secondary" data-testid="category-empty">{t('templates.empty')}</Typography.Text>;
  const chosen = value.first !== null;
  return (
    <>
      <CategoryPicker categories={data} value={value} onChange={onChange} ivvr={ivvr} />
      <Space style={{ marginTop: 12 }}>
        <Typography.Text type="secondary" data-testid="category-selected">
          {chosen ? t('templates.selected', { name: selectionName(data, value, t('templates.all')) }) : t('tpl.allCategories')}
        </Typography.Text>
        {chosen ? (
          <Button size="small" type="link" onClick={() => onChange(NO_SELECTION)} data-testid="category-clear">
            {t('tpl.clearCategory')}
          </Button>
        ) : null}
      </Space>
    </>
  );
}

function SearchBox({ onSearch }: { onSearch: (name: string) => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const history = useAppSelector((s) => (s.user.id ? (s.user.searchHistory[s.user.id] ?? NO_HISTORY) : NO_HISTORY));
  const [text, setText] = useState('');
  const search = (value: string) => {
    const name = value.trim();
    setText(value);
    if (name) dispatch(searchAdded(name));
    onSearch(name);
  };
  return (
    <Space orientation="vertical" size={6}>
      <Input.Search
        allowClear
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder={t('tpl.search')}
        aria-label={t('tpl.search')}
        onSearch={search}
        style={{ width: 280 }}
        data-testid="template-search"
      />
      {history.length > 0 ? (
        <Flex wrap gap={4} data-testid="search-history">
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('tpl.recent')}
          </Typography.Text>
          {history.map((h) => (
            <Tag key={h} style={{ cursor: 'pointer' }} onClick={() => search(h)}>
              {h}
            </Tag>
          ))}
        </Flex>
      ) : null}
    </Space>
  );
}

function TemplateGrid({ filter, onUse }: { filter: TemplateFilter; onUse: (t: TemplateSummary) => void }) {
  const { t } = useTranslation();
  const list = useTemplates(filter);
  const items = useMemo(() => list.data?.pages.flatMap((p) => p.list) ?? [], [list.data]);
  if (list.isError) return <Typography.Text type="danger" data-testid="template-error">{t('tpl.loadFailed')}</Typography.Text>;
  if (!list.isPending && items.length === 0) return <EmptyState createPath={EDITOR_PATH} />;
  return (
    <Spin spinning={list.isPending}>
      <TemplateCards templates={items} onUse={onUse} />
      <InfiniteMore hasMore={!!list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
    </Spin>
  );
}

/** Templates belong to a tenant, known only from a token: a visitor is asked to sign in instead. */
function SignInPrompt() {
  const { t } = useTranslation();
  return (
    <Result
      status="info"
      title={t('tpl.signIn')}
      extra={
        <Link to={`/login?redirect=${encodeURIComponent('/template-select')}`}>
          <Button type="primary">{t('user.signIn')}</Button>
        </Link>
      }
      data-testid="template-signin"
    />
  );
}

/** The collection `?collection=ID` names, or null. */
function collectionParam(params: URLSearchParams): number | null {
  const id = Number(params.get('collection'));
  return Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * /template-select: approved templates filtered by category (the picker rules of spec platform §2),
 * size, kind and name, in an infinite grid; 'use this template' opens the slot filling drawer. Chips
 * of the published collections show one collection's templates instead (`?collection=ID`).
 */
export function TemplateSelectPage() {
  const { t } = useTranslation();
  // No category at first: a new installation's starter templates carry none, and every
  // template should be reachable without knowing the tree.
  const [category, setCategory] = useState<CategorySelection>(NO_SELECTION);
  const [kind, setKind] = useState<TemplateKind | 'all'>('all');
  const [sizes, setSizes] = useState<number[]>([]);
  const [name, setName] = useState('');
  const [using, setUsing] = useState<TemplateSummary | null>(null);
  const signedIn = useAppSelector((s) => isLoggedIn(s.user));
  const [params, setParams] = useSearchParams();
  const collection = signedIn ? collectionParam(params) : null;
  const showCollection = (id: number | null) =>
    setParams((prev) => {
      const next = new URLSearchParams(prev);
      if (id === null) next.delete('collection');
      else next.set('collection', String(id));
      return next;
    });

  const categoryId = effectiveCategoryId(category);
  const filter = useMemo<TemplateFilter>(
    () => ({
      ...(kind === 'all' ? {} : { kind }),
      ...(sizes.length > 0 ? { sizeCategoryIds: sizes } : {}),
      ...(categoryId === null ? {} : { categoryId }),
      ...(name ? { name } : {}),
    }),
    [kind, sizes, categoryId, name],
  );

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="template-select">
      <Typography.Title level={3}>{t('page.templateSelect')}</Typography.Title>
      {signedIn ? <CollectionChips value={collection} onChange={showCollection} /> : null}
      {collection !== null ? (
        <Card>
          <CollectionGrid id={collection} onUse={setUsing} onBack={() => showCollection(null)} />
        </Card>
      ) : (
        <>
          <Card style={{ marginBottom: 16 }}>
            <Categories value={category} onChange={setCategory} ivvr={kind === 'ivvr'} />
            <Flex wrap gap={16} justify="space-between" style={{ marginTop: 16 }}>
              <Space>
                <Typography.Text type="secondary">{t('tpl.size')}</Typography.Text>
                <Checkbox.Group
                  value={sizes}
                  onChange={(v) => setSizes(v)}
                  options={SIZE_CATEGORIES.map((s) => ({ value: s.id, label: <span data-testid={`size-${s.id}`}>{s.ratio}</span> }))}
                />
              </Space>
              <SearchBox onSearch={setName} />
            </Flex>
          </Card>
          <Card>
            <Tabs
              activeKey={kind}
              onChange={(key) => {
                const next = key as TemplateKind | 'all';
                // IVVR templates have their own one-level categories: a choice from the other set means nothing there.
                if ((next === 'ivvr') !== (kind === 'ivvr')) setCategory(NO_SELECTION);
                setKind(next);
              }}
              items={[{ key: 'all', label: t('templates.all') }, ...TEMPLATE_KINDS.map((k) => ({ key: k, label: t(`tpl.kind.${k}`) }))]}
            />
            {signedIn ? <TemplateGrid filter={filter} onUse={setUsing} /> : <SignInPrompt />}
          </Card>
        </>
      )}
      <FillTemplateDrawer template={using} onClose={() => setUsing(null)} />
    </div>
  );
}
