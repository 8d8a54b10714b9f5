import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DimensionTree } from '@/platform/maintain/CategoryPage';

/** /manage/music-categoty (the spec's spelling): the audio dimension of the category tree: create, rename, delete (refused while in use, saying where). */
export function MusicCategoryPage() {
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="music-category">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.musicCategory')}
      </Typography.Title>
      <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('manageArea.musicCategory.note')} />
      <DimensionTree dimension="audio" />
    </div>
  );
}
