/**
 * The material panel's art-word tab: the art-word styles, each shown as the stage draws it; a
 * pick adds an art-word layer (`type: artWord`, which the renderer draws itself) in that style.
 * The styles follow the tenant's art-word offer; a layer in a hidden style keeps it.
 */
import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { offeredInOrder, useCatalogueOffer } from '@/api/catalogueOffer';
import { DEFAULT_FAMILY } from '@/editor/fonts/fonts';
import { buildLayer, newRule } from '@/editor/state/defaults';
import type { ArtWordLayer } from '@/editor/model/gen/ArtWordLayer';
import { ArtWordBody } from './ArtWordBody';
import { ART_WORD_STYLES, type ArtWordStyle } from './artWords';

/** How much smaller than on a 100 % stage a sample is drawn. */
const SAMPLE_SCALE = 0.5;

/** A style drawn as the stage draws it, on the sample text, half size (the panel's and the maintenance page's preview). */
export function ArtWordSample({ style }: { style: ArtWordStyle }) {
  const { t } = useTranslation();
  const stage = newRule().resolutionRatio;
  const sample = { ...buildLayer({ kind: 'artWord', style, content: t('artWord.sample') }, 0, 100, [0, 3], stage), lineHeight: 1.2 } as ArtWordLayer;
  return <ArtWordBody layer={sample} scale={SAMPLE_SCALE} family={`"${DEFAULT_FAMILY}"`} face="none" />;
}

/** The styles the tenant offers (`/eb-maintain/artfont`), in its order; every style while the offer is unknown. */
export function ArtWordPresets({ onPick }: { onPick: (style: ArtWordStyle) => void }) {
  const { t } = useTranslation();
  const offer = useCatalogueOffer('artWord').data?.items;
  return (
    <div data-testid="artword-presets">
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>
        {t('artWord.presetsHint')}
      </Typography.Paragraph>
      <Row gutter={[8, 8]}>
        {offeredInOrder(ART_WORD_STYLES, offer).map((s) => (
          <Col key={s.key} span={12}>
            <button
              type="button"
              onClick={() => onPick(s)}
              data-testid={`artword-${s.key}`}
              title={t(`artWord.style.${s.key}`)}
              style={{ width: '100%', height: 64, border: '1px solid #f0f0f0', borderRadius: 6, background: '#8c8c8c', cursor: 'pointer', padding: 0, overflow: 'hidden' }}
            >
              <ArtWordSample style={s} />
            </button>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t(`artWord.style.${s.key}`)}
            </Typography.Text>
          </Col>
        ))}
      </Row>
    </div>
  );
}
