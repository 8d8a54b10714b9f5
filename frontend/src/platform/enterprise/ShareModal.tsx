/** Picks one of the caller's rendered works or materials and shares it with their enterprise. */
import { Alert, App, Modal, Radio, Select, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShareItem, type ShareKind } from '@/api/enterprise';
import { ALL_CATEGORIES, useMaterials } from '@/api/material';
import { WorksPicker } from '@/components/task/WorksPicker';
import { enterpriseErrorText } from './enterpriseErrors';

function MaterialSelect({ value, onChange }: { value: string | null; onChange: (id: string) => void }) {
  const { t } = useTranslation();
  const { data, isFetching } = useMaterials({ source: 'user', categoryId: ALL_CATEGORIES });
  const materials = (data?.pages ?? []).flatMap((p) => p.dataList).filter((m) => m.state !== 'failed');
  return (
    <Select<string>
      showSearch
      optionFilterProp="label"
      style={{ width: '100%' }}
      loading={isFetching}
      value={value ?? undefined}
      placeholder={t('enterprise.pickMaterial')}
      onChange={onChange}
      data-testid="share-material-select"
      notFoundContent={t('enterprise.noOwnMaterials')}
      options={materials.map((m) => ({ value: m.id, label: `${m.materialName} · ${t(`enterprise.kind.${m.type}`, { defaultValue: m.type })}` }))}
    />
  );
}

export function ShareModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [kind, setKind] = useState<ShareKind>('work');
  const [itemId, setItemId] = useState<string | null>(null);
  const share = useShareItem();
  const close = () => {
    share.reset();
    setItemId(null);
    onClose();
  };
  const send = () => {
    if (itemId === null) return;
    share.mutate(
      { kind, itemId },
      {
        onSuccess: () => {
          void message.success(t('enterprise.shared'));
          close();
        },
      },
    );
  };
  return (
    <Modal
      open={open}
      title={t('enterprise.shareTitle')}
      okText={t('enterprise.shareOk')}
      okButtonProps={{ disabled: itemId === null, loading: share.isPending, 'data-testid': 'share-ok' }}
      onOk={send}
      onCancel={close}
      destroyOnHidden
    >
      <Radio.Group
        value={kind}
        onChange={(e) => {
          setKind(e.target.value as ShareKind);
          setItemId(null);
          share.reset();
        }}
        style={{ marginBottom: 12 }}
        data-testid="share-kind"
      >
        <Radio.Button value="work">{t('enterprise.kindWork')}</Radio.Button>
        <Radio.Button value="material" data-testid="share-kind-material">
          {t('enterprise.kindMaterial')}
        </Radio.Button>
      </Radio.Group>
      <Typography.Paragraph type="secondary">{t(kind === 'work' ? 'enterprise.shareWorkHint' : 'enterprise.shareMaterialHint')}</Typography.Paragraph>
      {open && kind === 'work' ? (
        <WorksPicker value={itemId === null ? [] : [Number(itemId)]} onChange={(ids) => setItemId(ids[0] === undefined ? null : String(ids[0]))} testId={(id) => `share-pick-${id}`} />
      ) : null}
      {open && kind === 'material' ? <MaterialSelect value={itemId} onChange={setItemId} /> : null}
      {share.isError ? <Alert type="error" showIcon style={{ marginTop: 12 }} title={enterpriseErrorText(share.error)} data-testid="share-error" /> : null}
    </Modal>
  );
}
