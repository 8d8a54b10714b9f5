import { useQueries } from '@tanstack/react-query';
import { Button, Card, Col, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { materialInfoQuery, STATE_POLL_MS, type Material } from '@/api/material';
import { MaterialCard } from '@/components/material/MaterialCard';
import { MaterialUpload } from '@/components/material/MaterialUpload';
import { fromJiancaiLink } from './FromJiancaiPage';
import { PLACEABLE_TYPES } from './startDocument';

/** The uploaded materials a task can start from: ready pictures, GIFs and videos, in upload order. */
export function startable(materials: readonly Material[]): string[] {
  return materials.filter((m) => m.state === 'ready' && PLACEABLE_TYPES.includes(m.type)).map((m) => m.id);
}

/**
 * `/upload`: the full-page uploader: many files at once, each with its progress and a cancel; what
 * arrived is listed and followed until probed, then leads to my materials or to a task made of it.
 * Files go in parts that survive an interruption: the same file chosen again goes on from its last
 * stored part (`api/resumableUpload.ts`).
 */
export function UploadPage() {
  const { t } = useTranslation();
  // Newest first, as the uploader lists its rows.
  const [ids, setIds] = useState<string[]>([]);
  const infos = useQueries({
    queries: ids.map((id) => ({
      ...materialInfoQuery(id),
      refetchInterval: (query: { state: { data?: Material } }) => (query.state.data?.state === 'processing' ? STATE_POLL_MS : false),
    })),
  });
  const materials = infos.flatMap((q) => (q.data ? [q.data] : []));
  const ready = startable([...materials].reverse());
  return (
    <div style={{ maxWidth: 1100, margin: '0 auto' }} data-testid="upload-page">
      <Typography.Title level={3}>{t('page.upload')}</Typography.Title>
      <Card>
        <Typography.Paragraph type="secondary">{t('start.upload.hint')}</Typography.Paragraph>
        <MaterialUpload resumable onUploaded={(id) => setIds((all) => [id, ...all.filter((x) => x !== id)])} />
      </Card>
      {ids.length > 0 ? (
        <Card title={t('start.upload.arrived', { count: ids.length })} style={{ marginTop: 16 }} data-testid="upload-arrived">
          <Row gutter={[12, 12]}>
            {materials.map((m) => (
              <Col key={m.id} xs={12} sm={8} md={6} lg={4}>
                <MaterialCard material={m} compact />
              </Col>
            ))}
          </Row>
          <Space style={{ marginTop: 16 }}>
            <Link to="/workbench/my-material">
              <Button data-testid="upload-to-materials">{t('start.upload.toMaterials')}</Button>
            </Link>
            {ready.length > 0 ? (
              <Link to={fromJiancaiLink(ready)}>
                <Button type="primary" data-testid="upload-create">
                  {t('material.createFrom')}
                </Button>
              </Link>
            ) : null}
          </Space>
        </Card>
      ) : null}
    </div>
  );
}
