/**
 * The editor's smart subtitles (智能字幕, issue 28): choose a video layer or a voice item of the
 * timeline and its language; its material is recognised on the farm with its progress, and the
 * heard lines become subtitle layers at the times they are spoken (speech.ts), editable as any.
 * Offered only when the deployment lists speech recognition as available; otherwise the menu
 * item says why.
 */
import { Alert, App, Button, Form, Radio, Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SPEECH_LANGUAGES, type SpeechLanguage } from '@/api/ai';
import { DraggablePopup } from '@/components/DraggablePopup';
import { useRecognition } from '@/components/speech/useRecognition';
import { TaskProgress } from '@/components/task/TaskProgress';
import { useAppStore } from '@/app/hooks';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { useSourceDurations } from '@/editor/page/useSourceDurations';
import { editorActions as a } from '@/editor/state/editorSlice';
import { speechSources, subtitleCues } from './speech';
import { placeSubtitles } from './srt';

export function SmartSubtitles({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const store = useAppStore();
  const dispatch = useEditorDispatch();
  const durations = useSourceDurations();
  const doc = useEditorSelector((s) => s.doc);
  const sources = useMemo(() => speechSources(doc, durations), [doc, durations]);
  const [picked, setPicked] = useState<string | null>(null);
  const [language, setLanguage] = useState<SpeechLanguage>('en');
  const { phase, start, stop, worded } = useRecognition();
  const running = phase.phase === 'running';
  const source = sources.find((s) => s.key === picked) ?? sources[0];

  const run = async () => {
    if (!source) return;
    const transcript = await start({ materialId: source.materialId, language });
    if (!transcript) return;
    const cues = subtitleCues(transcript.words, source);
    if (cues.length === 0) {
      void message.warning(t('asr.none'));
      return;
    }
    // The scenes as they are now: the document may have changed while the farm worked.
    const scenes = store.getState().editor.doc.scenes.map((s) => s.timeLength);
    const { placed, dropped } = placeSubtitles(scenes, cues);
    if (placed.length > 0) dispatch(a.addSubtitles(placed));
    void message.success(t('asr.added', { count: cues.length - dropped, dropped }));
    onClose();
  };
  const label = (s: (typeof sources)[number]) =>
    s.kind === 'video' ? t('asr.videoSource', { scene: s.name, at: s.at.toFixed(2) }) : t('asr.voiceSource', { name: s.name, at: s.at.toFixed(2) });

  return (
    <DraggablePopup
      open={open}
      title={t('asr.smartTitle')}
      onCancel={() => {
        if (running) stop();
        onClose();
      }}
      footer={[
        running ? (
          <Button key="stop" danger onClick={stop} data-testid="smart-subtitles-stop">
            {t('asr.stop')}
          </Button>
        ) : null,
        <Button key="run" type="primary" loading={running} disabled={!source} onClick={() => void run()} data-testid="smart-subtitles-run">
          {t('asr.smartRun')}
        </Button>,
      ]}
      destroyOnHidden
    >
      <div data-testid="smart-subtitles-dialog">
        <Typography.Paragraph type="secondary">{t('asr.smartIntro')}</Typography.Paragraph>
        <Form layout="vertical" disabled={running}>
          <Form.Item label={t('asr.source')}>
            {sources.length === 0 ? (
              <Typography.Text type="warning" data-testid="smart-subtitles-empty">
                {t('asr.noSources')}
              </Typography.Text>
            ) : (
              <Radio.Group value={source?.key} onChange={(e) => setPicked(String(e.target.value))} data-testid="smart-subtitles-sources">
                <Space orientation="vertical">
                  {sources.map((s) => (
                    <Radio key={s.key} value={s.key} data-testid={`smart-source-${s.key}`}>
                      {label(s)}
                    </Radio>
                  ))}
                </Space>
              </Radio.Group>
            )}
          </Form.Item>
          <Form.Item
            label={t('asr.language')}
            validateStatus={phase.phase === 'failed' && phase.field === 'language' ? 'error' : undefined}
            help={phase.phase === 'failed' && phase.field === 'language' ? phase.detail : undefined}
          >
            <Select<SpeechLanguage>
              value={language}
              onChange={setLanguage}
              data-testid="smart-subtitles-language"
              options={SPEECH_LANGUAGES.map((l) => ({ value: l, label: t(`asr.languages.${l}`) }))}
            />
          </Form.Item>
        </Form>
        {running ? <div data-testid="smart-subtitles-progress">{phase.state ? <TaskProgress state={worded(phase.state)} /> : t('asr.queueing')}</div> : null}
        {phase.phase === 'failed' && phase.field !== 'language' ? (
          <Alert type="error" showIcon title={phase.title} description={phase.detail || undefined} data-testid="smart-subtitles-error" />
        ) : null}
      </div>
    </DraggablePopup>
  );
}
