import { StarFilled, StarOutlined } from '@ant-design/icons';
import { App, Button, Col, Empty, Result, Row, Segmented, Select, Space, Spin, Tabs, Typography } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFavourites, useToggleFavourite } from '@/api/favourite';
import { useMaterials, type Material, type MaterialFilter, type MaterialOrder, type OrientationChoice, ANY_ORIENTATION, Orientation } from '@/api/material';
import { useAppSelector } from '@/app/hooks';
import { InfiniteMore } from '@/components/InfiniteMore';
import { MaterialCard } from '@/components/material/MaterialCard';
import { MaterialUpload } from '@/components/material/MaterialUpload';
import { BACKGROUND_STYLES, LIBRARY, type LibrarySource, type LibraryTab } from './library';

/** A star that adds a material to the caller's favourites or takes it out. */
export function FavouriteStar({ material }: { material: Material }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const phoneNumber = useAppSelector((s) => s.user.mobile ?? s.user.id) ?? '';
  const favourites = useFavourites(material.type, phoneNumber);
  const toggle = useToggleFavourite();
  const on = (favourites.data ?? []).some((f) => f.id === material.id);
  const flip = () =>
    toggle.mutate(
      { id: material.id, type: material.type, phoneNumber, on: !on },
      { onSuccess: () => void message.success(t(on ? 'material.favourite.removed' : 'material.favourite.added')) },
    );
  return (
    <Button
      type="text"
      size="small"
      shape="circle"
      loading={toggle.isPending}
      icon={on ? <StarFilled style={{ color: '#fadb14' }} /> : <StarOutlined style={{ color: '#fff' }} />}
      onClick={(e) => {
        e.stopPropagation();
        flip();
      }}
      aria-label={t(on ? 'material.favourite.remove' : 'material.favourite.add')}
      aria-pressed={on}
      data-testid={`favourite-${material.id}`}
      style={{ background: 'rgba(0,0,0,.35)' }}
    />
  );
}

/**
 * The group tabs wrap onto a second row instead of hiding groups behind a "…" menu: seven groups do
 * not fit the 300 px column (in English a tab was cut in half). Their underline marks the active one.
 */
const GROUP_TABS_WRAP = [
  '[data-testid="material-panel"] > .ant-tabs > .ant-tabs-nav .ant-tabs-nav-wrap { overflow: visible; }',
  '[data-testid="material-panel"] > .ant-tabs > .ant-tabs-nav .ant-tabs-nav-list { flex-wrap: wrap; column-gap: 12px; transform: none !important; }',
  '[data-testid="material-panel"] > .ant-tabs > .ant-tabs-nav .ant-tabs-nav-operations, [data-testid="material-panel"] > .ant-tabs > .ant-tabs-nav .ant-tabs-ink-bar { display: none !important; }',
  '[data-testid="material-panel"] > .ant-tabs > .ant-tabs-nav .ant-tabs-tab { margin: 0 !important; padding: 6px 0; }',
  '[data-testid="material-panel"] > .ant-tabs > .ant-tabs-nav .ant-tabs-tab-active { box-shadow: inset 0 -2px 0 currentColor; }',
].join('\n');

const isReady = (m: Material) => m.state === 'ready';

/** Keeps what the source and the orientation ask for (also when the server ignores a filter). */
function keep(material: Material, source: LibrarySource, orientation: OrientationChoice, style: number | undefined): boolean {
  if (orientation !== ANY_ORIENTATION && material.horizontalOrVertical !== orientation) return false;
  if (style !== undefined && material.styleId !== style) return false;
  if (source.motion === 'still') return material.duration === 0;
  if (source.motion === 'moving') return material.duration > 0;
  return true;
}

interface SourceListProps {
  source: LibrarySource;
  orientation: OrientationChoice;
  /** A background style class, or undefined for any. */
  style: number | undefined;
  order: MaterialOrder;
  onPick: (material: Material) => void;
}

function SourceList({ source, orientation, style, order, onPick }: SourceListProps) {
  const { t } = useTranslation();
  const filter = useMemo<MaterialFilter>(
    () => ({
      source: source.source,
      categoryId: source.categoryId,
      type: source.type,
      horizontalOrVertical: orientation === ANY_ORIENTATION ? undefined : orientation,
      orderType: order,
      styleId: style,
    }),
    [source, orientation, style, order],
  );
  const list = useMaterials(filter);
  const items = useMemo(
    () => (list.data?.pages.flatMap((p) => p.dataList) ?? []).filter((m) => keep(m, source, orientation, style)),
    [list.data, source, orientation, style],
  );
  if (list.isError) return <Typography.Text type="danger">{t('material.loadFailed')}</Typography.Text>;
  return (
    <Spin spinning={list.isLoading}>
      {!list.isLoading && items.length === 0 && !list.hasNextPage ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('material.panel.empty')} data-testid="panel-empty" />
      ) : (
        <Row gutter={[8, 8]}>
          {items.map((m) => (
            <Col key={m.id} span={12}>
              <MaterialCard material={m} compact corner={<FavouriteStar material={m} />} onClick={onPick} clickableWhen={isReady} />
            </Col>
          ))}
        </Row>
      )}
      <InfiniteMore hasMore={!!list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
    </Spin>
  );
}

function NotAvailable({ name }: { name: string }) {
  const { t } = useTranslation();
  return <Result status="info" title={t('material.panel.notAvailable', { name })} subTitle={t('material.panel.notAvailableHint')} data-testid="panel-not-available" />;
}

export interface MaterialPanelProps {
  /** Called with a ready material the user chose. */
  onPick: (material: Material) => void;
  /** What a tab shows instead of its library list, by `group.tab` key (the editor's art-word styles). */
  customTabs?: Partial<Record<string, ReactNode>>;
}

/**
 * The editor's material library: a tab per group (mine, text, pictures, video, backgrounds, buttons,
 * effects) and its kinds, orientation and sort, infinite scroll, favourites and uploads.
 */
export function MaterialPanel({ onPick, customTabs }: MaterialPanelProps) {
  const { t } = useTranslation();
  const [groupKey, setGroupKey] = useState(LIBRARY[0]?.key ?? 'mine');
  const [tabByGroup, setTabByGroup] = useState<Record<string, string>>({});
  const [orientation, setOrientation] = useState<OrientationChoice>(ANY_ORIENTATION);
  const [order, setOrder] = useState<MaterialOrder>('newest');
  const [style, setStyle] = useState<number | undefined>(undefined);
  const group = LIBRARY.find((g) => g.key === groupKey) ?? LIBRARY[0];
  if (!group) return null;
  const tab: LibraryTab | undefined = group.tabs.find((x) => x.key === tabByGroup[group.key]) ?? group.tabs[0];
  const tabName = (key: string) => t(`material.panel.tab.${group.key}.${key}`);
  const custom = tab ? customTabs?.[`${group.key}.${tab.key}`] : undefined;

  return (
    <div data-testid="material-panel" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <style>{GROUP_TABS_WRAP}</style>
      <Tabs
        size="small"
        activeKey={group.key}
        onChange={setGroupKey}
        items={LIBRARY.map((g) => ({ key: g.key, label: t(`material.panel.group.${g.key}`) }))}
      />
      {group.tabs.length > 1 ? (
        <Segmented
          size="small"
          value={tab?.key}
          onChange={(key) => setTabByGroup((all) => ({ ...all, [group.key]: String(key) }))}
          options={group.tabs.map((x) => ({ value: x.key, label: tabName(x.key) }))}
          data-testid="panel-kind"
        />
      ) : null}
      {custom}
      <Space wrap size={6} style={custom ? { display: 'none' } : undefined}>
        <Segmented<OrientationChoice>
          size="small"
          value={orientation}
          onChange={setOrientation}
          options={[
            { value: ANY_ORIENTATION, label: t('material.orientation.all') },
            { value: Orientation.landscape, label: t('material.orientation.landscape') },
            { value: Orientation.portrait, label: t('material.orientation.portrait') },
          ]}
          data-testid="panel-orientation"
        />
        <Segmented<MaterialOrder>
          size="small"
          value={order}
          onChange={setOrder}
          options={[
            { value: 'newest', label: t('material.order.newest') },
            { value: 'hottest', label: t('material.order.hottest') },
          ]}
          data-testid="panel-order"
        />
      </Space>
      {group.styles && !custom ? (
        <Select<number | undefined>
          size="small"
          value={style}
          onChange={setStyle}
          allowClear
          placeholder={t('material.panel.style.all')}
          options={BACKGROUND_STYLES.map((s) => ({ value: s.id, label: t(`material.panel.style.${s.key}`) }))}
          data-testid="panel-style"
        />
      ) : null}
      {group.uploads ? <MaterialUpload size="small" /> : null}
      {custom ? null : tab?.source ? (
        <SourceList
          key={`${group.key}/${tab.key}`}
          source={tab.source}
          orientation={orientation}
          style={group.styles ? style : undefined}
          order={order}
          onPick={onPick}
        />
      ) : (
        <NotAvailable name={tab ? tabName(tab.key) : t(`material.panel.group.${group.key}`)} />
      )}
    </div>
  );
}
