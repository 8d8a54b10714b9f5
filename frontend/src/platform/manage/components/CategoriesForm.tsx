import { App, Button, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { SIZE_CATEGORIES, useSetTemplateCategories, type TemplateSummary } from '@/api/template';
import { CategoryTreeSelect } from '@/platform/templates/components/CategoryTreeSelect';

interface Values {
  categoryIds: number[];
  sizeCategoryId: number;
}

/** Sets a template's categories and size (POST /template/categories). */
export function CategoriesForm({ template, onSaved }: { template: TemplateSummary; onSaved?: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useSetTemplateCategories();
  return (
    <Form<Values>
      layout="vertical"
      initialValues={{ categoryIds: template.categoryIds, sizeCategoryId: template.sizeCategoryId }}
      onFinish={(v) =>
        save.mutate(
          { id: template.id, categoryIds: v.categoryIds ?? [], sizeCategoryId: v.sizeCategoryId },
          {
            onSuccess: () => {
              void message.success(t('tpl.categoriesSaved'));
              onSaved?.();
            },
          },
        )
      }
      data-testid="categories-form"
    >
      <Form.Item name="categoryIds" label={t('tpl.categoriesLabel')}>
        <CategoryTreeSelect />
      </Form.Item>
      <Form.Item name="sizeCategoryId" label={t('tpl.size')}>
        <Select options={SIZE_CATEGORIES.map((s) => ({ value: s.id, label: s.ratio }))} style={{ width: 160 }} />
      </Form.Item>
      <Button htmlType="submit" loading={save.isPending} data-testid="categories-save">
        {t('tpl.saveCategories')}
      </Button>
    </Form>
  );
}
