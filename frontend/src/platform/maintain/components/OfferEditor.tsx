import { Alert, App, Button, Space, Switch, Table, Typography, type TableColumnsType } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { offerAuditItem, offerRows, useCatalogueOffer, useSaveCatalogueOffer, type OfferCatalogue } from '@/api/catalogueOffer';
import { MoveButtons } from '@/components/MoveButtons';
import { maintainErrorText } from '../maintainErrors';
import { AuditTrail } from './AuditTrail';

/** A part of the list shown on its own (the in and the out animations); moves stay inside it. */
export interface OfferSection<T> {
  id: string;
  title: string;
  has: (entry: T) => boolean;
}

export interface OfferEditorProps<T extends { key: string }> {
  catalogue: OfferCatalogue;
  /** The catalogue's entries in its own order. */
  entries: T[];
  /** The parts the list is shown in; one untitled part when absent. */
  sections?: OfferSection<T>[];
  name: (entry: T) => string;
  preview: (entry: T) => ReactNode;
  /** Width of the preview column, px. */
  previewWidth?: number;
}

interface Row<T> {
  entry: T;
  offered: boolean;
}

/**
 * A catalogue's offer as an administrator edits it: every entry a row in the tenant's order with its
 * preview, name, an offered switch and up/down moves; one save posts the whole list (refused, like
 * on the server, while nothing is offered); the offer's audit trail below.
 */
export function OfferEditor<T extends { key: string }>({ catalogue, entries, sections, name, preview, previewWidth = 120 }: OfferEditorProps<T>) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const offer = useCatalogueOffer(catalogue);
  const save = useSaveCatalogueOffer();
  const [draft, setDraft] = useState<Row<T>[] | null>(null);
  const rows: Row<T>[] = draft ?? (offer.data ? offerRows(entries, offer.data.items) : []);
  const parts: OfferSection<T>[] = sections ?? [{ id: 'all', title: '', has: () => true }];
  const sectionOf = (entry: T) => parts.find((p) => p.has(entry))?.id;
  const offeredCount = rows.filter((r) => r.offered).length;
  const noneOffered = rows.length > 0 && offeredCount === 0;

  const edit = (next: Row<T>[]) => {
    save.reset();
    setDraft(next);
  };
  const toggle = (key: string, on: boolean) => edit(rows.map((r) => (r.entry.key === key ? { ...r, offered: on } : r)));
  /** Swaps a row with the next one of its part above or below. */
  const move = (key: string, by: -1 | 1) => {
    const list = [...rows];
    const i = list.findIndex((r) => r.entry.key === key);
    const row = list[i];
    if (!row) return;
    const part = sectionOf(row.entry);
    let j = i + by;
    while (j >= 0 && j < list.length && sectionOf((list[j] as Row<T>).entry) !== part) j += by;
    const other = list[j];
    if (!other) return;
    list[i] = other;
    list[j] = row;
    edit(list);
  };
  const submit = () =>
    save.mutateAsync({ catalogue, items: rows.map((r) => ({ key: r.entry.key, offered: r.offered })) }).then(
      () => {
        setDraft(null);
        void message.success(t('maintain.offer.saved'));
      },
      () => undefined,
    );

  const columns = (count: number): TableColumnsType<Row<T>> => [
    { title: t('maintain.offer.preview'), key: 'preview', width: previewWidth + 16, render: (_, r) => preview(r.entry) },
    {
      title: t('maintain.offer.name'),
      key: 'name',
      render: (_, r) => (
        <Space orientation="vertical" size={0}>
          <span data-testid={`offer-name-${r.entry.key}`}>{name(r.entry)}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <code>{r.entry.key}</code>
          </Typography.Text>
        </Space>
      ),
    },
    {
      title: t('maintain.offer.offered'),
      key: 'offered',
      width: 140,
      render: (_, r) => (
        <Switch
          checked={r.offered}
          aria-label={`${t('maintain.offer.offered')} ${name(r.entry)}`}
          checkedChildren={t('maintain.offer.on')}
          unCheckedChildren={t('maintain.offer.off')}
          disabled={save.isPending}
          data-testid={`offer-switch-${r.entry.key}`}
          onChange={(on) => toggle(r.entry.key, on)}
        />
      ),
    },
    {
      title: t('maintain.offer.order'),
      key: 'order',
      width: 100,
      render: (_, r, i) => (
        <MoveButtons
          index={i}
          count={count}
          onMove={(_index, by) => move(r.entry.key, by)}
          disabled={save.isPending}
          labels={{ up: t('maintain.offer.up'), down: t('maintain.offer.down') }}
          testIds={{ up: `offer-up-${r.entry.key}`, down: `offer-down-${r.entry.key}` }}
        />
      ),
    },
  ];

  return (
    <Space orientation="vertical" size="large" style={{ width: '100%' }}>
      {offer.isError ? <Alert type="error" showIcon title={t('maintain.offer.loadFailed')} data-testid="offer-load-failed" /> : null}
      {parts.map((part) => {
        const list = rows.filter((r) => part.has(r.entry));
        return (
          <div key={part.id} data-testid={`offer-section-${part.id}`}>
            {part.title ? <Typography.Title level={5}>{part.title}</Typography.Title> : null}
            <Table<Row<T>>
              size="small"
              rowKey={(r) => r.entry.key}
              columns={columns(list.length)}
              dataSource={list}
              loading={offer.isFetching && !offer.data}
              pagination={false}
            />
          </div>
        );
      })}
      <Space wrap align="center">
        <Button type="primary" loading={save.isPending} disabled={!offer.data || noneOffered} onClick={() => void submit()} data-testid="offer-save">
          {t('maintain.offer.save')}
        </Button>
        {noneOffered ? (
          <Typography.Text type="warning" data-testid="offer-none-hint">
            {t('maintain.offer.noneOffered')}
          </Typography.Text>
        ) : (
          <Typography.Text type="secondary" data-testid="offer-count">
            {t('maintain.offer.count', { offered: offeredCount, total: rows.length })}
          </Typography.Text>
        )}
      </Space>
      {save.isError ? <Alert type="error" showIcon title={maintainErrorText(save.error)} data-testid="offer-error" /> : null}
      <AuditTrail item={offerAuditItem(catalogue)} />
    </Space>
  );
}
