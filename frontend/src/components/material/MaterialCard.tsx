import { CustomerServiceOutlined, FileImageOutlined, FileOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { Card, Checkbox, Space, Spin, Tag, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatFileSize, isTimed, useMaterialState, type Material } from '@/api/material';
import { formatEta as formatClock } from '@/components/task/TaskProgress';
import { useLibraryName } from './libraryName';

function TypeIcon({ type }: { type: string }) {
  const style = { fontSize: 28, color: '#bbb' };
  if (type === 'video') return <VideoCameraOutlined style={style} />;
  if (type === 'audio') return <CustomerServiceOutlined style={style} />;
  if (type === 'picture' || type === 'gif' || type === 'backgrounds') return <FileImageOutlined style={style} />;
  return <FileOutlined style={style} />;
}

/**
 * The material as its probe last said: while the list still says processing, the state poll's
 * answer. A list fetched just before the probe ended can lag behind the poll, and the card must
 * act on what its badge shows.
 */
export function useSettledMaterial(material: Material): Material {
  const processing = material.state === 'processing';
  const polled = useMaterialState(material.id, processing);
  // Probing only ever ends, so a row that has left processing is newer than any poll: once the
  // list says so the poll stops, keeping an answer that may still say processing.
  const answer = processing ? polled.data : undefined;
  if (!answer || answer.state === material.state) return material;
  return { ...material, state: answer.state, failReason: answer.failReason || material.failReason };
}

/** A material's probing state as a badge: processing (spinner, followed until it ends), failed with its reason, ready. */
export function MaterialStateBadge({ material }: { material: Material }) {
  const { t } = useTranslation();
  const { state, failReason: reason } = useSettledMaterial(material);
  if (state === 'processing') {
    return (
      <Tag color="processing" data-testid="material-state" data-state="processing" style={{ marginInlineEnd: 0 }}>
        <Space size={4}>
          <Spin size="small" />
          {t('material.state.processing')}
        </Space>
      </Tag>
    );
  }
  if (state === 'failed') {
    return (
      <Space orientation="vertical" size={2} style={{ width: '100%' }}>
        <Tag color="error" data-testid="material-state" data-state="failed" style={{ marginInlineEnd: 0 }}>
          {t('material.state.failed')}
        </Tag>
        {reason ? (
          <Typography.Text type="danger" style={{ fontSize: 12 }} ellipsis={{ tooltip: reason }} data-testid="material-fail-reason">
            {reason}
          </Typography.Text>
        ) : null}
      </Space>
    );
  }
  return (
    <Tag color="success" data-testid="material-state" data-state="ready" style={{ marginInlineEnd: 0 }}>
      {t('material.state.ready')}
    </Tag>
  );
}

export interface MaterialCardProps {
  material: Material;
  /** Shows a selection checkbox when set. */
  selected?: boolean;
  onSelect?: (material: Material, selected: boolean) => void;
  /** Buttons under the card (rename, delete, favourite…). */
  actions?: ReactNode[];
  /** Something over the cover's corner (a favourite star). */
  corner?: ReactNode;
  onClick?: (material: Material) => void;
  /** Whether the card takes clicks, asked of the material as its probe last said (default: always). */
  clickableWhen?: (material: Material) => boolean;
  compact?: boolean;
}

/** A material as a card: cover, name, duration for timed kinds, size and state. */
export function MaterialCard({ material, selected, onSelect, actions, corner, onClick, clickableWhen, compact = false }: MaterialCardProps) {
  const { t } = useTranslation();
  const settled = useSettledMaterial(material);
  const click = onClick && (!clickableWhen || clickableWhen(settled)) ? () => onClick(settled) : undefined;
  const named = useLibraryName();
  const height = compact ? 90 : 120;
  const cover = (
    <div style={{ position: 'relative', height, background: '#f0f0f5', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' }}>
      {material.coverUrl ? (
        <img src={material.coverUrl} alt={material.materialName} style={{ width: '100%', height: '100%', objectFit: 'cover' }} data-testid="material-cover" />
      ) : (
        <TypeIcon type={material.type} />
      )}
      {onSelect ? (
        <Checkbox
          checked={selected}
          onClick={(e) => e.stopPropagation()}
          onChange={(e) => onSelect(material, e.target.checked)}
          style={{ position: 'absolute', top: 6, left: 8 }}
          aria-label={t('material.select', { name: named(material.materialName) })}
          data-testid={`material-select-${material.id}`}
        />
      ) : null}
      {corner ? <div style={{ position: 'absolute', top: 4, right: 6 }}>{corner}</div> : null}
      {isTimed(material.type) && material.duration > 0 ? (
        <span
          style={{ position: 'absolute', bottom: 4, right: 6, background: 'rgba(0,0,0,.6)', color: '#fff', fontSize: 12, padding: '0 4px', borderRadius: 4 }}
          data-testid="material-duration"
        >
          {formatClock(material.duration)}
        </span>
      ) : null}
    </div>
  );
  return (
    <Card
      size="small"
      hoverable={!!click}
      cover={cover}
      actions={actions}
      onClick={click}
      data-testid={`material-${material.id}`}
      styles={{ body: { padding: compact ? 6 : 10 } }}
    >
      <Typography.Text strong ellipsis={{ tooltip: material.materialName }} style={{ display: 'block' }} data-testid="material-name">
        {named(material.materialName) || t('material.untitled')}
      </Typography.Text>
      <Space size={6} wrap style={{ marginTop: 4, fontSize: 12 }}>
        <MaterialStateBadge material={material} />
        {material.fileSize > 0 ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="material-size">
            {formatFileSize(material.fileSize)}
          </Typography.Text>
        ) : null}
        {!compact && material.size ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {material.size}
          </Typography.Text>
        ) : null}
      </Space>
    </Card>
  );
}
