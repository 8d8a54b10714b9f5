/** The shapes tab of the left column: the 24 catalogue shapes with their drawings; a click adds one to the scene. */
import { Card, Col, Row, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SHAPE_KINDS, useAddShape, useShapeCodes } from '@/editor/materials/shapes';
import { newRule, buildLayer } from '@/editor/state/defaults';
import type { ShapeLayer } from '@/editor/model/gen/ShapeLayer';
import { shapeImageUrl } from '@/editor/model/shapeSvg';

/** A new shape layer's look, for the previews: they show what a click adds. */
const SAMPLE = buildLayer({ kind: 'shape', shape: 'rect' }, 0, 0, [0, 3], newRule().resolutionRatio) as ShapeLayer;

export function ShapePanel() {
  const { t, i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  const codes = useShapeCodes();
  const addShape = useAddShape();
  return (
    <Row gutter={[8, 8]} data-testid="shape-panel">
      {SHAPE_KINDS.map((kind, i) => {
        const answer = codes[i];
        const name = zh ? kind.nameZh : kind.nameEn;
        return (
          <Col span={8} key={kind.key}>
            <Card
              size="small"
              hoverable
              data-testid={`shape-${kind.key}`}
              aria-label={t('editor.shapes.add', { name })}
              onClick={() => void addShape(kind.key)}
              styles={{ body: { padding: 6, textAlign: 'center' } }}
            >
              <div style={{ height: 48, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
                {answer?.data ? (
                  <img src={shapeImageUrl({ ...SAMPLE, w: 48, h: 48, shapeCode: answer.data.shapeCode })} alt="" width={40} height={40} draggable={false} />
                ) : answer?.isLoading ? (
                  <Spin size="small" />
                ) : null}
              </div>
              <Typography.Text ellipsis style={{ fontSize: 12 }}>
                {name}
              </Typography.Text>
            </Card>
          </Col>
        );
      })}
    </Row>
  );
}
