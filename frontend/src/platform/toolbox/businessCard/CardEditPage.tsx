import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Form, Input, Result, Row, Space, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import {
  CARD_FIELDS,
  fetchCardSheet,
  useRunBusinessCards,
  useRunOneBusinessCard,
  useTemplate,
  type CardBatchReport,
  type SheetFormat,
} from '@/api/template';
import { CardReport } from './CardReport';
import { ApiError, errorText } from '@/api/errors';

/** Saves a blob under `name` through a temporary link. */
function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.click();
  URL.revokeObjectURL(href);
}

function SheetDownload({ templateId }: { templateId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [busy, setBusy] = useState<SheetFormat | null>(null);
  const download = async (format: SheetFormat) => {
    setBusy(format);
    try {
      saveBlob(await fetchCardSheet(templateId, format), `business-card-${templateId}.${format}`);
    } catch (err) {
      void message.error(err instanceof ApiError ? errorText(err) : err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space wrap>
      {(['xlsx', 'csv'] as const).map((format) => (
        <Button key={format} icon={<DownloadOutlined />} loading={busy === format} onClick={() => void download(format)} data-testid={`sheet-${format}`}>
          {t('card.downloadSheet', { format: format.toUpperCase() })}
        </Button>
      ))}
    </Space>
  );
}

function SheetUpload({ templateId }: { templateId: number }) {
  const { t } = useTranslation();
  const run = useRunBusinessCards();
  const [report, setReport] = useState<CardBatchReport | null>(null);
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Upload
        accept=".xlsx,.csv"
        showUploadList={false}
        beforeUpload={(file) => {
          setReport(null);
          run.mutate({ templateId, file }, { onSuccess: setReport });
          return Upload.LIST_IGNORE;
        }}
      >
        <Button icon={<UploadOutlined />} loading={run.isPending} data-testid="sheet-upload">
          {t('card.uploadSheet')}
        </Button>
      </Upload>
      {report ? <CardReport report={report} /> : null}
    </Space>
  );
}

function OneCardForm({ templateId }: { templateId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<Record<string, string | undefined>>();
  const runOne = useRunOneBusinessCard();
  const [empty, setEmpty] = useState(false);
  const onFinish = (values: Record<string, string | undefined>) => {
    const fields = Object.fromEntries(Object.entries(values).flatMap(([code, v]) => (v?.trim() ? [[code, v.trim()]] : [])));
    setEmpty(Object.keys(fields).length === 0);
    if (Object.keys(fields).length === 0) return;
    runOne.mutate({ templateId, fields }, { onSuccess: ({ taskId }) => void navigate(`/tools/business-card/detail/${taskId}`) });
  };
  return (
    <Form form={form} layout="vertical" onFinish={onFinish} data-testid="card-form">
      <Row gutter={12}>
        {CARD_FIELDS.map((f) => (
          <Col key={f.code} xs={24} sm={12}>
            <Form.Item name={String(f.code)} label={t(`card.field.${f.kind}`)} rules={[{ max: 100 }]}>
              <Input data-testid={`card-field-${f.code}`} />
            </Form.Item>
          </Col>
        ))}
      </Row>
      {empty ? (
        <Typography.Text type="danger" style={{ display: 'block', marginBottom: 8 }} data-testid="card-form-empty">
          {t('card.fillSomething')}
        </Typography.Text>
      ) : null}
      <Button type="primary" htmlType="submit" loading={runOne.isPending} data-testid="card-make-one">
        {t('card.makeOne')}
      </Button>
    </Form>
  );
}

/** /tools/business-card/edit?templateId=: the sheet download, a sheet upload with its per-row report, and one card by a form. */
export function CardEditPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const templateId = Number(params.get('templateId'));
  const valid = Number.isInteger(templateId) && templateId > 0;
  const template = useTemplate(valid ? templateId : null);
  if (!valid) return <Navigate to="/tools/business-card/template" replace />;
  if (template.isError) return <Result status="warning" title={t('tpl.loadFailed')} extra={<Link to="/tools/business-card/template">{t('card.back')}</Link>} />;
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="card-edit">
      <Space>
        <Link to="/tools/business-card/template">{t('card.back')}</Link>
        <Link to="/tools/business-card/list">{t('card.myCards')}</Link>
      </Space>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('card.editTitle', { name: template.data?.taskName ?? '' })}
      </Typography.Title>
      <Card title={t('card.batchTitle')}>
        <Typography.Paragraph type="secondary">{t('card.batchHint')}</Typography.Paragraph>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <SheetDownload templateId={templateId} />
          <SheetUpload templateId={templateId} />
        </Space>
      </Card>
      <Card title={t('card.oneTitle')}>
        <OneCardForm templateId={templateId} />
      </Card>
    </Space>
  );
}
