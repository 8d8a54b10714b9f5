import { PictureOutlined } from '@ant-design/icons';
import { Card, Space, Tag, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ratioOf, type TemplateSummary } from '@/api/template';
import { formatEta as formatClock } from '@/components/task/TaskProgress';

export interface TemplateCardProps {
  template: TemplateSummary;
  /** Buttons under the card ('use this template', approve…). */
  actions?: ReactNode[];
  /** Tags after the name (audit state, pushed). */
  extra?: ReactNode;
}

const COVER = { position: 'relative', height: 160, background: '#f0f0f5', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' } as const;
const MEDIA = { width: '100%', height: '100%', objectFit: 'cover' } as const;

/** The cover, or the rendered preview playing muted while the pointer is over it (when one exists). */
function TemplateCover({ template }: { template: TemplateSummary }) {
  const [hover, setHover] = useState(false);
  const playing = hover && template.videoUrl !== '';
  let media: ReactNode;
  if (playing) {
    media = <video src={template.videoUrl} poster={template.coverUrl || undefined} autoPlay muted loop playsInline style={MEDIA} data-testid="template-preview" />;
  } else if (template.coverUrl) {
    media = <img src={template.coverUrl} alt={template.taskName} style={MEDIA} data-testid="template-cover" />;
  } else {
    media = <PictureOutlined style={{ fontSize: 32, color: '#bbb' }} aria-hidden />;
  }
  return (
    <div style={COVER} onMouseEnter={() => setHover(true)} onMouseLeave={() => setHover(false)} data-testid="template-cover-box">
      {media}
      {template.duration > 0 ? (
        <span style={{ position: 'absolute', bottom: 4, right: 6, background: 'rgba(0,0,0,.6)', color: '#fff', fontSize: 12, padding: '0 4px', borderRadius: 4 }}>
          <span data-testid="template-duration">{formatClock(template.duration)}</span>
        </span>
      ) : null}
    </div>
  );
}

/** A template as a card: cover with hover preview, name, ratio, duration and how many slots of each kind it has. */
export function TemplateCard({ template, actions, extra }: TemplateCardProps) {
  const { t } = useTranslation();
  const ratio = ratioOf(template.sizeCategoryId);
  return (
    <Card size="small" cover={<TemplateCover template={template} />} actions={actions} data-testid={`template-${template.id}`} styles={{ body: { padding: 10 } }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} size={4}>
        <Typography.Text strong ellipsis={{ tooltip: template.taskName }} style={{ maxWidth: 170 }} data-testid="template-name">
          {template.taskName || t('tasks.untitled')}
        </Typography.Text>
        {ratio ? <Tag style={{ marginInlineEnd: 0 }}>{ratio}</Tag> : null}
      </Space>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginTop: 4 }} data-testid="template-slots">
        {t('tpl.slots', { word: template.replaceWord, picture: template.replacePicture, video: template.replaceVideo })}
      </Typography.Text>
      {extra ? <div style={{ marginTop: 4 }}>{extra}</div> : null}
    </Card>
  );
}
