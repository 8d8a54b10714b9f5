import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_NAME_MAX } from '@/api/collection';

/** The fields a collection's name and description are edited with. */
export interface CollectionFieldValues {
  name: string;
  description: string;
}

/** A collection's name (required, trimmed by the caller) and description, with the server's limits. */
export function CollectionFields() {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item name="name" label={t('collection.form.name')} rules={[{ required: true, whitespace: true, message: t('collection.form.nameRequired') }]}>
        <Input maxLength={COLLECTION_NAME_MAX} showCount placeholder={t('collection.form.namePlaceholder')} data-testid="collection-name-input" />
      </Form.Item>
      <Form.Item name="description" label={t('collection.form.description')}>
        <Input.TextArea
          maxLength={COLLECTION_DESCRIPTION_MAX}
          showCount
          autoSize={{ minRows: 2, maxRows: 4 }}
          placeholder={t('collection.form.descriptionPlaceholder')}
          data-testid="collection-description-input"
        />
      </Form.Item>
    </>
  );
}
