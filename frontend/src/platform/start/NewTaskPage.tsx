import { Button, Card, Form, Input, Radio, Segmented, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TemplateSummary } from '@/api/template';
import { DEFAULT_TASK_NAME } from '@/components/task/taskName';
import { USED_FOR } from '@/editor/modes/modes';
import { PICKABLE_RATIOS, ratioByName } from '@/editor/state/defaults';
import type { StartHandoff, StartJob } from './startJobs';
import { TemplateChooser } from './TemplateChooser';

/** Where a new task starts from. */
export type StartFrom = 'blank' | 'template';

/** What the /new-task form holds. */
export interface NewTaskValues {
  from: StartFrom;
  name: string;
  ratio: string;
  usedFor: string;
  template: TemplateSummary | null;
}

/** The job of a filled form, or null while a template start has no template chosen. */
export function newTaskJob(v: NewTaskValues): StartJob | null {
  const name = v.name.trim();
  if (v.from === 'template') return v.template ? { kind: 'template', name, templateId: v.template.id } : null;
  return { kind: 'blank', name: name || DEFAULT_TASK_NAME, ratio: v.ratio, usedFor: v.usedFor };
}

/** `/new-task`: name, ratio, and a blank task of a chosen kind or one from an approved template; /loading makes it. */
export function NewTaskPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState<NewTaskValues>({ from: 'blank', name: '', ratio: '16:9', usedFor: 'ALL', template: null });
  const set = (patch: Partial<NewTaskValues>) => setValues((v) => ({ ...v, ...patch }));
  const job = newTaskJob(values);
  const start = () => {
    if (!job) return;
    const handoff: StartHandoff = { job, back: '/new-task' };
    void navigate('/loading', { state: handoff });
  };
  return (
    <div style={{ maxWidth: 1100, margin: '0 auto' }} data-testid="new-task">
      <Typography.Title level={3}>{t('page.newTask')}</Typography.Title>
      <Card>
        <Form layout="vertical">
          <Form.Item label={t('start.name')}>
            <Input
              value={values.name}
              maxLength={64}
              placeholder={values.from === 'template' && values.template ? values.template.taskName : t('tasks.untitled')}
              onChange={(e) => set({ name: e.target.value })}
              data-testid="new-task-name"
            />
          </Form.Item>
          <Form.Item label={t('start.ratio')}>
            <Radio.Group
              value={values.ratio}
              optionType="button"
              buttonStyle="solid"
              options={PICKABLE_RATIOS.map((r) => ({ value: r, label: r }))}
              onChange={(e) => set({ ratio: String(e.target.value), template: null })}
              data-testid="new-task-ratio"
            />
          </Form.Item>
          <Form.Item label={t('start.from')}>
            <Segmented<StartFrom>
              value={values.from}
              options={[
                { value: 'blank', label: t('start.fromBlank') },
                { value: 'template', label: t('start.fromTemplate') },
              ]}
              onChange={(from) => set({ from })}
              data-testid="new-task-from"
            />
          </Form.Item>
          {values.from === 'blank' ? (
            <Form.Item label={t('start.kind')} extra={t(`editorMode.hint.${values.usedFor}`)}>
              <Select
                value={values.usedFor}
                options={USED_FOR.map((u) => ({ value: u, label: t(`editorMode.name.${u}`) }))}
                onChange={(usedFor: string) => set({ usedFor })}
                style={{ width: 240 }}
                data-testid="new-task-kind"
              />
            </Form.Item>
          ) : (
            <Form.Item label={t('start.template.label')}>
              <TemplateChooser sizeCategoryId={ratioByName(values.ratio)?.sizeId} value={values.template} onChange={(template) => set({ template })} />
            </Form.Item>
          )}
          <Space>
            <Button type="primary" disabled={!job} onClick={start} data-testid="new-task-start">
              {t('start.create')}
            </Button>
            {!job ? <Typography.Text type="secondary">{t('start.template.pickFirst')}</Typography.Text> : null}
          </Space>
        </Form>
      </Card>
    </div>
  );
}
