import { Col, Empty, Row, Spin, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { ALL_CATEGORIES, materialInfoQuery, STATE_POLL_MS, useMaterials, type Material, type MaterialFilter } from '@/api/material';
import { InfiniteMore } from '@/components/InfiniteMore';
import { MaterialCard } from '@/components/material/MaterialCard';
import { MaterialUpload } from '@/components/material/MaterialUpload';
import type { InputFacts, InputKind } from './params';
import { UrlImport } from './UrlImport';

/** The chosen input, followed while it is still being probed (its length and size come with probing). */
export function useToolInput(materialId: string | null) {
  return useQuery({
    ...materialInfoQuery(materialId ?? ''),
    enabled: materialId !== null,
    refetchInterval: (query) => (query.state.data?.state === 'processing' ? STATE_POLL_MS : false),
  });
}

/** What the checks need of a material. */
export function inputFacts(material: Material): InputFacts {
  return {
    durationMs: Math.round((material.duration || 0) * 1000),
    bytes: material.fileSize || 0,
    width: material.width || 0,
    height: material.height || 0,
    hasAudio: material.hasAudio,
    kind: material.type,
  };
}

export interface ToolInputPickerProps {
  kind: InputKind;
  selectedId: string | null;
  onPick: (materialId: string) => void;
  /** The picker's test id (a page with a second input has two pickers). */
  testId?: string;
}

const PICK_TEXT: Record<InputKind, string> = {
  video: 'toolbox.input.pickVideo',
  audio: 'toolbox.input.pickAudio',
  picture: 'toolbox.input.pickPicture',
  pptx: 'toolboxLooks.input.pickPptx',
};

/**
 * The tool's input: an upload (per-file progress; the new material is chosen) or one of my
 * materials of the kind the tool takes.
 */
export function ToolInputPicker({ kind, selectedId, onPick, testId = 'tool-input-picker' }: ToolInputPickerProps) {
  const { t } = useTranslation();
  const filter = useMemo<MaterialFilter>(() => ({ source: 'user', categoryId: ALL_CATEGORIES, type: kind, pageSize: 12 }), [kind]);
  const list = useMaterials(filter);
  const items = (list.data?.pages.flatMap((p) => p.dataList) ?? []).filter((m) => m.type === kind);
  return (
    <div data-testid={testId}>
      <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
        {t(PICK_TEXT[kind])}
      </Typography.Paragraph>
      <MaterialUpload onUploaded={onPick} size="small" />
      {kind === 'video' ? <UrlImport onImported={onPick} /> : null}
      <div style={{ maxHeight: 320, overflow: 'auto', marginTop: 12 }}>
        {list.isError ? (
          <Typography.Text type="danger">{t('material.loadFailed')}</Typography.Text>
        ) : (
          <Spin spinning={list.isLoading}>
            {!list.isLoading && items.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('toolbox.input.none')} data-testid="tool-input-empty" />
            ) : (
              <Row gutter={[8, 8]}>
                {items.map((m) => (
                  <Col key={m.id} xs={12} sm={8} md={6}>
                    <div style={{ outline: m.id === selectedId ? '2px solid #5b3df5' : 'none', borderRadius: 8 }} data-selected={m.id === selectedId}>
                      <MaterialCard material={m} compact onClick={(picked) => onPick(picked.id)} clickableWhen={(settled) => settled.state !== 'failed'} />
                    </div>
                  </Col>
                ))}
              </Row>
            )}
            <InfiniteMore hasMore={!!list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
          </Spin>
        )}
      </div>
    </div>
  );
}
