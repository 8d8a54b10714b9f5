import { useQueries } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Input, Radio, Result, Row, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { materialInfoQuery, type Material } from '@/api/material';
import { MaterialCard } from '@/components/material/MaterialCard';
import { DEFAULT_TASK_NAME } from '@/components/task/taskName';
import { PICKABLE_RATIOS } from '@/editor/state/defaults';
import { materialsProblem, type MaterialLayout } from './startDocument';
import type { StartHandoff } from './startJobs';

/** The material workbench's address that picks materials for /from-jiancai. */
export const PICK_PATH = '/workbench/my-material';

/** Reads `?ids=a,b,c`: the ids in order, each once, blanks dropped. */
export function idsParam(value: string | null): string[] {
  const ids: string[] = [];
  for (const part of (value ?? '').split(',')) {
    const id = part.trim();
    if (id !== '' && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

/** The address of /from-jiancai for picked material ids. */
export function fromJiancaiLink(ids: readonly string[]): string {
  return `/from-jiancai?ids=${ids.map(encodeURIComponent).join(',')}`;
}

/** The ratio that suits the first material: portrait for a portrait one, else landscape. */
export function ratioFor(materials: readonly Material[]): string {
  return materials[0]?.horizontalOrVertical === 2 ? '9:16' : '16:9';
}

/**
 * `/from-jiancai?ids=…`: the materials picked in the workbench, each read as the caller (another's
 * material is not answered); ratio, layout and name; /loading makes the task and opens the editor.
 */
export function FromJiancaiPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const ids = useMemo(() => idsParam(params.get('ids')), [params]);
  const infos = useQueries({ queries: ids.map((id) => ({ ...materialInfoQuery(id), retry: false })) });
  const loading = infos.some((q) => q.isPending);
  const unusable = ids.filter((_, i) => infos[i]?.isError);
  const materials = infos.flatMap((q) => (q.data ? [q.data] : []));
  const [layout, setLayout] = useState<MaterialLayout>('scenes');
  const [ratio, setRatio] = useState<string | null>(null);
  const [name, setName] = useState('');
  const chosenRatio = ratio ?? ratioFor(materials);

  if (ids.length === 0) {
    return (
      <Result
        status="info"
        title={t('start.jiancai.noneTitle')}
        subTitle={t('start.jiancai.noneHint')}
        extra={
          <Link to={PICK_PATH}>
            <Button type="primary">{t('start.jiancai.toPick')}</Button>
          </Link>
        }
        data-testid="from-jiancai-none"
      />
    );
  }
  const problem = loading || unusable.length > 0 ? null : materialsProblem(materials, layout);
  const start = () => {
    const handoff: StartHandoff = {
      job: { kind: 'materials', name: name.trim() || DEFAULT_TASK_NAME, ratio: chosenRatio, layout, materialIds: ids },
      back: fromJiancaiLink(ids),
    };
    void navigate('/loading', { state: handoff });
  };
  return (
    <div style={{ maxWidth: 1100, margin: '0 auto' }} data-testid="from-jiancai">
      <Typography.Title level={3}>{t('page.fromJiancai')}</Typography.Title>
      <Card>
        <Spin spinning={loading}>
          <Typography.Paragraph type="secondary">{t('start.jiancai.count', { count: ids.length })}</Typography.Paragraph>
          <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
            {materials.map((m) => (
              <Col key={m.id} xs={12} sm={8} md={6} lg={4}>
                <MaterialCard material={m} compact />
              </Col>
            ))}
          </Row>
        </Spin>
        {unusable.length > 0 ? (
          <Alert type="error" showIcon title={t('start.jiancai.unusable', { count: unusable.length })} style={{ marginBottom: 16 }} data-testid="from-jiancai-unusable" />
        ) : null}
        {problem ? <Alert type="warning" showIcon title={t(`start.problem.${problem}`)} style={{ marginBottom: 16 }} data-testid="from-jiancai-problem" /> : null}
        <Form layout="vertical">
          <Form.Item label={t('start.name')}>
            <Input value={name} maxLength={64} placeholder={t('tasks.untitled')} onChange={(e) => setName(e.target.value)} data-testid="from-jiancai-name" />
          </Form.Item>
          <Form.Item label={t('start.ratio')}>
            <Radio.Group
              value={chosenRatio}
              optionType="button"
              buttonStyle="solid"
              options={PICKABLE_RATIOS.map((r) => ({ value: r, label: r }))}
              onChange={(e) => setRatio(String(e.target.value))}
            />
          </Form.Item>
          <Form.Item label={t('start.jiancai.layout')}>
            <Radio.Group value={layout} onChange={(e) => setLayout(e.target.value as MaterialLayout)} data-testid="from-jiancai-layout">
              <Radio value="scenes">{t('start.jiancai.layoutScenes')}</Radio>
              <Radio value="one">{t('start.jiancai.layoutOne')}</Radio>
            </Radio.Group>
          </Form.Item>
          <Button type="primary" disabled={loading || unusable.length > 0 || problem !== null} onClick={start} data-testid="from-jiancai-start">
            {t('start.create')}
          </Button>
        </Form>
      </Card>
    </div>
  );
}
