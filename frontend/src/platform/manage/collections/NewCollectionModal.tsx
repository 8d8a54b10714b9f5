import { Alert, Form, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSaveCollection, type CollectionKind } from '@/api/collection';
import { collectionErrorText } from './collectionErrors';
import { CollectionFields, type CollectionFieldValues } from './CollectionFields';
import { detailPath } from './paths';

export interface NewCollectionModalProps {
  kind: CollectionKind;
  open: boolean;
  onClose: () => void;
}

/** Asks a new collection's name and description, creates it (empty, unpublished) and opens its page to add templates. */
export function NewCollectionModal({ kind, open, onClose }: NewCollectionModalProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [form] = Form.useForm<CollectionFieldValues>();
  const save = useSaveCollection();
  const create = ({ name, description }: CollectionFieldValues) =>
    save.mutate(
      { kind, name: name.trim(), description: (description ?? '').trim(), templateIds: [] },
      { onSuccess: (created) => void navigate(detailPath(kind, created.id)) },
    );
  const close = () => {
    save.reset();
    onClose();
  };
  return (
    <Modal
      open={open}
      title={t('collection.center.new', { kind: t(`collection.kind.${kind}`) })}
      okButtonProps={{ loading: save.isPending, 'data-testid': 'collection-new-ok' }}
      onOk={() => form.submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={{ name: '', description: '' }} onFinish={create}>
        <CollectionFields />
      </Form>
      {save.isError ? <Alert type="error" showIcon title={collectionErrorText(save.error)} data-testid="collection-error" /> : null}
    </Modal>
  );
}
