import { Alert, Button, Spin, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Ability, TEXT_ABILITIES, useAbilities } from '@/api/ai';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';

/** A short text every text ability can work on: two sentences a title, summary or reply can be made of. */
const SAMPLE_ZH = '周末我们在海边拍了一段日落视频。大家想把它做成来电视频彩铃，配上轻快的音乐和祝福文字。';
const SAMPLE_EN = 'We filmed a sunset by the sea at the weekend. Everyone wants to turn it into a video ringtone with light music and a greeting.';

/** What one check of an ability came to. */
interface Check {
  key: string;
  state: 'waiting' | 'running' | 'passed' | 'failed' | 'skipped';
  ms?: number;
  output?: string;
  model?: string;
}

/** The abilities the page can try with a text in and an answer out, in the list's order. */
const TRIABLE: readonly string[] = [...TEXT_ABILITIES, 'keyword-extraction'];

/** Runs one ability on the sample and measures the round trip. */
async function tryAbility(key: string, sample: string): Promise<Pick<Check, 'output' | 'model'>> {
  if (key === 'keyword-extraction') {
    const words = await api.post<{ word: string; weight: number }[]>('/ai/keywords', { text: sample, topN: 5 }, { silent: true });
    return { output: words.map((w) => w.word).join(' · '), model: 'local' };
  }
  const language = key === 'translation' ? (sample === SAMPLE_ZH ? 'en-US' : 'zh-CN') : '';
  const answer = await api.post<{ text: string; model: string }>('/ai/text', { ability: key, text: sample, language }, { silent: true });
  return { output: answer.text, model: answer.model };
}

/**
 * /ai/test: the deployment's self-check of its AI abilities. Each available text ability (and keyword
 * extraction) gets the same short sample through its real provider, one after another; the row shows
 * the time, the answer and who made it. Unavailable ones are skipped with the server's reason.
 */
export function AiTestPage() {
  const { t, i18n } = useTranslation();
  const list = useAbilities();
  const [checks, setChecks] = useState<Check[]>([]);
  const [running, setRunning] = useState(false);
  if (list.isPending) return <Spin />;
  if (list.isError) return <Alert type="error" message={t('ai.loadFailed')} />;
  const abilities = list.data.filter((a) => TRIABLE.includes(a.key));
  const zh = i18n.language.startsWith('zh');
  const sample = zh ? SAMPLE_ZH : SAMPLE_EN;

  const runAll = async () => {
    setRunning(true);
    const start: Check[] = abilities.map((a) => ({ key: a.key, state: a.available ? 'waiting' : 'skipped' }));
    setChecks(start);
    for (const a of abilities.filter((x) => x.available)) {
      const set = (c: Partial<Check>) => setChecks((all) => all.map((x) => (x.key === a.key ? { ...x, ...c } : x)));
      set({ state: 'running' });
      const began = performance.now();
      try {
        const got = await tryAbility(a.key, sample);
        set({ state: 'passed', ms: Math.round(performance.now() - began), ...got });
      } catch (e) {
        set({ state: 'failed', ms: Math.round(performance.now() - began), output: e instanceof ApiError ? (e.desc ?? e.message) : String(e) });
      }
    }
    setRunning(false);
  };

  const stateTag = (c: Check | undefined, a: Ability) => {
    if (!c) return a.available ? <Tag>{t('aiTest.notRun')}</Tag> : <Tag>{t(`ai.reason.${a.reasonCode ?? 'not-configured'}`, { defaultValue: a.reasonCode })}</Tag>;
    const colour = { waiting: 'default', running: 'processing', passed: 'green', failed: 'red', skipped: 'default' }[c.state];
    return <Tag color={colour}>{t(`aiTest.state.${c.state}`)}</Tag>;
  };

  return (
    <div style={{ padding: 24, maxWidth: 1100 }}>
      <Typography.Title level={3}>{t('page.aiTest')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('aiTest.intro')}</Typography.Paragraph>
      <Typography.Paragraph>
        <Typography.Text strong>{t('aiTest.sample')}</Typography.Text> <span data-testid="ai-test-sample">{sample}</span>
      </Typography.Paragraph>
      <Button type="primary" loading={running} onClick={() => void runAll()} data-testid="ai-test-run">
        {t('aiTest.runAll')}
      </Button>
      <Table<Ability>
        style={{ marginTop: 16 }}
        rowKey="key"
        pagination={false}
        dataSource={abilities}
        columns={[
          { title: t('aiTest.ability'), width: 150, render: (_, a) => (zh ? a.nameZh : a.nameEn) },
          { title: t('aiTest.provider'), width: 90, render: (_, a) => a.provider ?? 'none' },
          { title: t('aiTest.stateTitle'), width: 100, render: (_, a) => <span data-testid={`ai-test-state-${a.key}`}>{stateTag(checks.find((c) => c.key === a.key), a)}</span> },
          { title: t('aiTest.time'), width: 90, render: (_, a) => { const c = checks.find((x) => x.key === a.key); return c?.ms !== undefined ? `${c.ms} ms` : ''; } },
          {
            title: t('aiTest.answer'),
            render: (_, a) => {
              const c = checks.find((x) => x.key === a.key);
              if (!c?.output) return a.available ? '' : <Typography.Text type="secondary">{a.reason}</Typography.Text>;
              return (
                <>
                  <Typography.Paragraph ellipsis={{ rows: 2, expandable: true }} style={{ marginBottom: 0 }}>
                    {c.output}
                  </Typography.Paragraph>
                  {c.model && <Typography.Text type="secondary">{c.model}</Typography.Text>}
                </>
              );
            },
          },
        ]}
      />
    </div>
  );
}
