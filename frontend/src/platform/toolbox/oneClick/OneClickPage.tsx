import { ArrowUpOutlined, CloseOutlined, EditOutlined, PlayCircleOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQueries } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Empty, Input, InputNumber, Result, Row, Select, Space, Spin, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { editorLinkFor } from '@/app/editor';
import { useTaskVideoCategories } from '@/api/category';
import { materialInfoQuery, STATE_POLL_MS, type Material } from '@/api/material';
import { useOneClickRun, useOneClickTemplates, type OneClickAnswer, type OneClickTemplate } from '@/api/oneClick';
import { useToolTypes } from '@/api/toolbox';
import { useRunTask } from '@/api/videoTask';
import { MaterialStateBadge } from '@/components/material/MaterialCard';
import { formatEta as formatClock } from '@/components/task/TaskProgress';
import { TemplateCard } from '@/platform/templates/components/TemplateCard';
import { ToolInputPicker } from '../ToolInputPicker';
import { ToolUnavailable } from '../ToolPage';
import { refusalText, unavailableText } from '../toolText';
import { autoPick, categoryOptions, fitProblem, planSlots, totalSeconds, type ClipFact } from './plan';

/** How the template is chosen: by the user from the category's list, or for them by the clips' length. */
export type OneClickMode = 'choose' | 'auto';

/** The length asked for before the user sets one, seconds (spec §9: default video duration). */
const DEFAULT_SECONDS = 15;

/** A list of rows, each a line between thin rules. */
const ROWS = { display: 'flex', flexDirection: 'column' } as const;
const ROW = { display: 'flex', justifyContent: 'space-between', alignItems: 'center', padding: '6px 0', borderBottom: '1px solid #f0f0f0' } as const;

const seconds = (s: number) => `${s.toFixed(2).replace(/\.?0+$/, '')} s`;

/** The chosen clips, in slot order: each with its state, moved up or taken out. */
function ClipList({ materials, onUp, onRemove }: { materials: (Material | undefined)[]; onUp: (i: number) => void; onRemove: (i: number) => void }) {
  const { t } = useTranslation();
  if (materials.length === 0) return <Typography.Text type="secondary">{t('oneClick.clips.none')}</Typography.Text>;
  // A clip still loading has no material yet: the rows are the places, each with what is known.
  const rows = materials.map((m, place) => ({ place, m }));
  return (
    <div style={ROWS} data-testid="one-click-clips">
      {rows.map(({ m, place: i }) => (
        <div key={i} style={ROW} data-testid={`one-click-clip-${i}`}>
          <Space size={6}>
            <Tag>{i + 1}</Tag>
            {m ? (
              <>
                <Typography.Text ellipsis={{ tooltip: m.materialName }} style={{ maxWidth: 180 }}>
                  {m.materialName}
                </Typography.Text>
                {m.duration > 0 ? <Typography.Text type="secondary">{formatClock(m.duration)}</Typography.Text> : null}
                <MaterialStateBadge material={m} />
              </>
            ) : (
              <Spin size="small" />
            )}
          </Space>
          <Space size={0}>
            <Button size="small" type="text" icon={<ArrowUpOutlined />} disabled={i === 0} onClick={() => onUp(i)} aria-label={t('oneClick.clips.up')} />
            <Button size="small" type="text" icon={<CloseOutlined />} onClick={() => onRemove(i)} aria-label={t('oneClick.clips.remove')} data-testid={`one-click-remove-${i}`} />
          </Space>
        </div>
      ))}
    </div>
  );
}

/** How the clips fill the chosen template's video slots, slot by slot. */
function SlotPlanList({ template, clips }: { template: OneClickTemplate; clips: ClipFact[] }) {
  return (
    <div style={ROWS} data-testid="one-click-plan">
      {planSlots(template.videoSlots, clips).map((p, i) => (
        <div key={p.slot.id} style={ROW} data-testid={`one-click-slot-${i}`}>
          <PlacedLine n={i + 1} slot={p.slot.seconds} name={p.clip?.name ?? null} start={0} end={p.end} held={p.held} />
        </div>
      ))}
    </div>
  );
}

/** One slot's line: the slot and its length, then the clip with its cut and hold, or the template's own. */
function PlacedLine({ n, slot, name, start, end, held }: { n: number; slot: number; name: string | null; start: number; end: number | null; held: number }) {
  const { t } = useTranslation();
  return (
    <Space wrap size={6}>
      <Tag color="purple">{t('oneClick.plan.slot', { n, length: seconds(slot) })}</Tag>
      {name !== null ? (
        <>
          <Typography.Text strong>{name}</Typography.Text>
          <Typography.Text type="secondary">{end === null ? t('oneClick.plan.measuring') : t('oneClick.plan.cut', { from: seconds(start), to: seconds(end) })}</Typography.Text>
          {held > 0 ? <Tag color="warning">{t('oneClick.plan.held', { length: seconds(held) })}</Tag> : null}
        </>
      ) : (
        <Typography.Text type="secondary">{t('oneClick.plan.keep')}</Typography.Text>
      )}
    </Space>
  );
}

/** The made work: where each clip went, then open it in the editor or render it now. */
function Made({ answer, names, onAgain }: { answer: OneClickAnswer; names: Map<string, string>; onAgain: () => void }) {
  const { t } = useTranslation();
  const render = useRunTask();
  return (
    <Card data-testid="one-click-result">
      <Result
        status="success"
        title={t('oneClick.made.title')}
        subTitle={t('oneClick.made.subtitle', { count: answer.placed.length })}
        extra={[
          <Link key="open" to={editorLinkFor(answer.taskId)}>
            <Button type="primary" icon={<EditOutlined />} data-testid="one-click-open">
              {t('oneClick.made.open')}
            </Button>
          </Link>,
          <Button key="render" icon={<PlayCircleOutlined />} loading={render.isPending} disabled={render.isSuccess} onClick={() => render.mutate(answer.taskId)} data-testid="one-click-render">
            {t('oneClick.made.render')}
          </Button>,
          <Button key="again" onClick={onAgain} data-testid="one-click-again">
            {t('oneClick.made.again')}
          </Button>,
        ]}
      />
      {render.isSuccess ? (
        <Alert type="info" showIcon style={{ marginBottom: 12 }} title={<Link to="/my-works">{t('oneClick.made.rendering')}</Link>} data-testid="one-click-rendering" />
      ) : null}
      <div style={ROWS}>
        {answer.placed.map((p, i) => (
          <div key={p.slotId} style={ROW} data-testid={`one-click-placed-${i}`}>
            <PlacedLine n={i + 1} slot={p.slot} name={names.get(p.materialId) ?? p.materialId} start={p.start} end={p.end} held={p.held} />
          </div>
        ))}
      </div>
    </Card>
  );
}

/**
 * The page body: the clips (uploaded or from my materials, in slot order), a category and length,
 * the category's templates closest in length first (chosen by the user, or for them by the clips'
 * total length in `auto` mode), how the clips will fill the slots, then the assembly into a new work.
 */
function OneClickMaker({ mode }: { mode: OneClickMode }) {
  const { t } = useTranslation();
  const [clipIds, setClipIds] = useState<string[]>([]);
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const [wanted, setWanted] = useState<number>(DEFAULT_SECONDS);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const [name, setName] = useState('');
  const [made, setMade] = useState<OneClickAnswer | null>(null);
  const categories = useTaskVideoCategories();
  const options = useMemo(() => categoryOptions(categories.data ?? []), [categories.data]);
  const infos = useQueries({
    queries: clipIds.map((id) => ({
      ...materialInfoQuery(id),
      refetchInterval: (query: { state: { data?: Material } }) => (query.state.data?.state === 'processing' ? STATE_POLL_MS : false),
    })),
  });
  const materials = infos.map((q) => q.data);
  // A clip's length is known once the library has probed it; before that the plan says so rather than cutting at 0 s.
  const clips: ClipFact[] = materials.map((m, i) => ({ id: clipIds[i] ?? '', name: m?.materialName ?? '', seconds: m?.state === 'ready' ? m.duration : null }));
  const allReady = clipIds.length > 0 && materials.every((m) => m?.state === 'ready');
  const length = mode === 'auto' ? (allReady ? totalSeconds(clips) : 0) : wanted;
  const templates = useOneClickTemplates(categoryId, length);
  const list = templates.data ?? [];
  const chosen = mode === 'auto' ? autoPick(list, clipIds.length) : (list.find((x) => x.id === chosenId) ?? null);
  const problem = chosen ? fitProblem(chosen, clipIds.length) : null;
  const run = useOneClickRun();

  const pick = (id: string) => {
    setClipIds((ids) => [...ids, id]);
    run.reset();
  };
  const up = (i: number) => setClipIds((ids) => ids.map((id, j) => (j === i - 1 ? ids[i] : j === i ? ids[i - 1] : id) as string));
  const remove = (i: number) => setClipIds((ids) => ids.filter((_, j) => j !== i));
  const assemble = () => {
    if (!chosen) return;
    const trimmed = name.trim();
    run.mutate({ templateId: chosen.id, materialIds: clipIds, ...(trimmed ? { name: trimmed } : {}) }, { onSuccess: setMade });
  };
  const again = () => {
    setMade(null);
    setClipIds([]);
    setName('');
    run.reset();
  };

  if (made) return <Made answer={made} names={new Map(clips.map((c) => [c.id, c.name]))} onAgain={again} />;

  let templatesBody;
  if (categoryId === null) templatesBody = <Typography.Text type="secondary">{t('oneClick.template.chooseCategory')}</Typography.Text>;
  else if (mode === 'auto' && !allReady) templatesBody = <Typography.Text type="secondary">{t('oneClick.template.waitClips')}</Typography.Text>;
  else if (templates.isPending) templatesBody = <Spin />;
  else if (templates.isError) templatesBody = <Empty description={refusalText(t, templates.error)} data-testid="one-click-no-template" />;
  else
    templatesBody = (
      <Row gutter={[12, 12]} data-testid="one-click-templates">
        {(mode === 'auto' ? (chosen ? [chosen] : []) : list).map((tpl) => (
          <Col key={tpl.id} xs={24} sm={12} xl={8}>
            <div style={{ outline: tpl.id === chosen?.id ? '2px solid #5b3df5' : 'none', borderRadius: 8 }} data-selected={tpl.id === chosen?.id}>
              <TemplateCard
                template={tpl}
                extra={
                  <Space wrap size={4}>
                    {tpl.videoSlots.map((s, i) => (
                      <Tag key={s.id} style={{ marginInlineEnd: 0 }}>
                        {t('oneClick.plan.slot', { n: i + 1, length: seconds(s.seconds) })}
                      </Tag>
                    ))}
                    {mode === 'auto' ? <Tag color="purple">{t('oneClick.template.pickedForYou')}</Tag> : null}
                  </Space>
                }
                actions={
                  mode === 'choose'
                    ? [
                        <Button key="use" type="link" onClick={() => setChosenId(tpl.id)} data-testid={`one-click-use-${tpl.id}`}>
                          {tpl.id === chosen?.id ? t('oneClick.template.chosen') : t('oneClick.template.use')}
                        </Button>,
                      ]
                    : undefined
                }
              />
            </div>
          </Col>
        ))}
      </Row>
    );

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={10}>
        <Card title={t('oneClick.clips.title')} size="small">
          <ClipList materials={materials} onUp={up} onRemove={remove} />
          <div style={{ marginTop: 12 }}>
            <ToolInputPicker kind="video" selectedId={clipIds[clipIds.length - 1] ?? null} onPick={pick} />
          </div>
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <Card title={t('oneClick.template.title')} size="small" data-testid="one-click-template-card">
          <Space wrap style={{ marginBottom: 12 }}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              style={{ minWidth: 220 }}
              placeholder={t('oneClick.template.category')}
              loading={categories.isPending}
              options={options}
              value={categoryId ?? undefined}
              onChange={(v: number) => {
                setCategoryId(v);
                setChosenId(null);
              }}
              data-testid="one-click-category"
            />
            {mode === 'choose' ? (
              <Space size={4}>
                <Typography.Text>{t('oneClick.template.length')}</Typography.Text>
                <InputNumber min={1} max={3600} step={1} value={wanted} onChange={(v) => setWanted(typeof v === 'number' && v > 0 ? v : DEFAULT_SECONDS)} suffix="s" data-testid="one-click-length" />
              </Space>
            ) : (
              <Typography.Text type="secondary" data-testid="one-click-total">
                {allReady ? t('oneClick.template.total', { length: seconds(length) }) : t('oneClick.template.waitClips')}
              </Typography.Text>
            )}
          </Space>
          {templatesBody}
        </Card>
        <Card title={t('oneClick.run.title')} size="small" style={{ marginTop: 16 }}>
          {chosen ? (
            <Space orientation="vertical" size={12} style={{ width: '100%' }}>
              <SlotPlanList template={chosen} clips={clips} />
              <Space size={8} style={{ width: '100%' }}>
                <Typography.Text>{t('tpl.workName')}</Typography.Text>
                <Input placeholder={chosen.taskName} value={name} maxLength={64} onChange={(e) => setName(e.target.value)} style={{ width: 280 }} data-testid="one-click-name" />
              </Space>
              {problem ? <Alert type="warning" showIcon title={t(`oneClick.problem.${problem}`, { slots: chosen.videoSlots.length })} data-testid="one-click-problem" /> : null}
              {run.isError ? <Alert type="error" showIcon title={refusalText(t, run.error)} data-testid="one-click-refused" /> : null}
              <Button
                type="primary"
                size="large"
                icon={<ThunderboltOutlined />}
                disabled={problem !== null || !allReady}
                loading={run.isPending}
                onClick={assemble}
                data-testid="one-click-run"
              >
                {t('oneClick.run.start')}
              </Button>
            </Space>
          ) : (
            <Typography.Text type="secondary">{t('oneClick.run.first')}</Typography.Text>
          )}
        </Card>
      </Col>
    </Row>
  );
}

/**
 * `/tools/ai-one-step-video-cut` (the template chosen by the user) and `/tools/intelligent-generation`
 * (chosen for them by the clips' length): one flow on the `oneClick` routes, offered while the
 * server lists ONE_CLICK_FILMING as available.
 */
export function OneClickPage({ mode, page }: { mode: OneClickMode; page: 'aiOneStepVideoCut' | 'intelligentGeneration' }) {
  const { t } = useTranslation();
  const types = useToolTypes();
  const name = t(`page.${page}`);
  const tool = types.data?.find((x) => x.type === 'ONE_CLICK_FILMING');
  let body;
  if (types.isLoading) body = <Spin style={{ display: 'block', margin: '80px auto' }} />;
  else if (types.isError) body = <Result status="warning" title={t('toolbox.loadFailed')} data-testid="tool-load-failed" />;
  else if (!tool) body = <ToolUnavailable name={name} reason={t('toolbox.unavailable.unknown')} />;
  else if (!tool.available) body = <ToolUnavailable name={name} reason={unavailableText(t, tool)} />;
  else body = <OneClickMaker mode={mode} />;
  return (
    <div data-testid={`one-click-page-${mode}`}>
      <Typography.Title level={3}>{name}</Typography.Title>
      <Typography.Paragraph type="secondary">{t(`toolbox.about.${page}`)}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t(mode === 'auto' ? 'oneClick.rule.auto' : 'oneClick.rule.choose')}</Typography.Paragraph>
      {body}
    </div>
  );
}
