import { Button, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TemplateSummary } from '@/api/template';
import { TemplateCard } from './TemplateCard';

/** Templates as a grid of cards, each with its 'use this template' action. */
export function TemplateCards({ templates, onUse, testId }: { templates: TemplateSummary[]; onUse: (tpl: TemplateSummary) => void; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Row gutter={[16, 16]} data-testid={testId}>
      {templates.map((tpl) => (
        <Col key={tpl.id} xs={24} sm={12} md={8} lg={6}>
          <TemplateCard
            template={tpl}
            actions={[
              <Button key="use" type="link" onClick={() => onUse(tpl)} data-testid={`use-${tpl.id}`}>
                {t('tpl.use')}
              </Button>,
            ]}
          />
        </Col>
      ))}
    </Row>
  );
}
