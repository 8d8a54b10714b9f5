import { Col, Empty, Modal, Row, Spin, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_CATEGORIES, useMaterials, type Material, type MaterialFilter } from '@/api/material';
import { InfiniteMore } from '@/components/InfiniteMore';
import { MaterialCard } from '@/components/material/MaterialCard';

export interface MaterialSlotPickerProps {
  /** The slot kind being filled; null keeps the picker closed. */
  kind: 'picture' | 'video' | null;
  onPick: (material: Material) => void;
  onCancel: () => void;
}

/** The material types that can fill a slot of `kind` (a picture slot also takes a gif). */
function acceptsType(kind: 'picture' | 'video', type: string): boolean {
  return kind === 'video' ? type === 'video' : type === 'picture' || type === 'gif';
}

function PickerList({ kind, onPick }: { kind: 'picture' | 'video'; onPick: (m: Material) => void }) {
  const { t } = useTranslation();
  const filter = useMemo<MaterialFilter>(() => ({ source: 'user', categoryId: ALL_CATEGORIES, type: kind }), [kind]);
  const list = useMaterials(filter);
  // Only ready materials of the slot's kind: the server may ignore the type filter, and a material
  // still probing has no address the render could use yet.
  const items = useMemo(
    () => (list.data?.pages.flatMap((p) => p.dataList) ?? []).filter((m) => m.state === 'ready' && acceptsType(kind, m.type)),
    [list.data, kind],
  );
  if (list.isError) return <Typography.Text type="danger">{t('material.loadFailed')}</Typography.Text>;
  return (
    <Spin spinning={list.isLoading}>
      {!list.isLoading && items.length === 0 && !list.hasNextPage ? (
        <Empty description={t('tpl.noMaterial')} data-testid="slot-picker-empty" />
      ) : (
        <Row gutter={[12, 12]}>
          {items.map((m) => (
            <Col key={m.id} span={8}>
              <MaterialCard material={m} compact onClick={onPick} />
            </Col>
          ))}
        </Row>
      )}
      <InfiniteMore hasMore={!!list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
    </Spin>
  );
}

/** A modal listing the caller's own ready pictures or videos; clicking one fills the slot. */
export function MaterialSlotPicker({ kind, onPick, onCancel }: MaterialSlotPickerProps) {
  const { t } = useTranslation();
  return (
    <Modal open={kind !== null} title={t(kind === 'video' ? 'tpl.pickVideo' : 'tpl.pickPicture')} onCancel={onCancel} footer={null} width={720} destroyOnHidden>
      {kind ? <PickerList kind={kind} onPick={onPick} /> : null}
    </Modal>
  );
}
