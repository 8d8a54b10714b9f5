import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ArtWordSample } from '@/editor/artword/ArtWordPresets';
import { ART_WORD_STYLES, type ArtWordStyle } from '@/editor/artword/artWords';
import { OfferEditor } from './components/OfferEditor';

/** Size of a preview, px (the editor panel's sample tile). */
const TILE_W = 160;
const TILE_H = 64;

/** A style drawn as the editor's art-word panel draws it. */
function StylePreview({ style }: { style: ArtWordStyle }) {
  return (
    <div data-testid={`offer-preview-${style.key}`} style={{ width: TILE_W, height: TILE_H, border: '1px solid #f0f0f0', borderRadius: 6, background: '#8c8c8c', overflow: 'hidden' }}>
      <ArtWordSample style={style} />
    </div>
  );
}

/** /eb-maintain/artfont: which art-word styles the editor offers for new art words, and in which order. */
export function ArtWordOfferPage() {
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="maintain-artfont">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.maintainArtfont')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('maintain.offer.artWordIntro')}</Typography.Paragraph>
      <OfferEditor<ArtWordStyle>
        catalogue="artWord"
        entries={ART_WORD_STYLES}
        name={(s) => t(`artWord.style.${s.key}`, { defaultValue: s.key })}
        preview={(s) => <StylePreview style={s} />}
        previewWidth={TILE_W}
      />
    </div>
  );
}
