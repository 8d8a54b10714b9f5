import { PlayCircleOutlined, ReloadOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Form, Row, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '@/api/keys';
import { useRunTool, type ToolType } from '@/api/toolbox';
import { queuedState } from '@/api/videoTask';
import { MaterialStateBadge } from '@/components/material/MaterialCard';
import { InputPreview } from './InputPreview';
import { previewRanges, ToolOptions } from './options/ToolOptions';
import { inputProblems, paramProblems, secondInputOf, secondInputProblems, type BuiltTool, type BuiltToolType, type ToolParams } from './params';
import { inputFacts, ToolInputPicker, useToolInput } from './ToolInputPicker';
import { ToolRunView } from './ToolRunView';
import { problemText, refusalText } from './toolText';

export interface ToolRunnerProps {
  tool: BuiltTool;
  toolType: ToolType;
}

/**
 * A built tool's page body: the input (my materials or an upload), the second material where the
 * options ask for one (replace's sound, audio-to-video's picture), the options with a live preview
 * and estimate, run, then the run followed to its result. Problems found here name their parameter,
 * as the server's refusals do; the server checks again and is the judge.
 */
export function ToolRunner({ tool, toolType }: ToolRunnerProps) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const [materialId, setMaterialId] = useState<string | null>(null);
  const [secondId, setSecondId] = useState<string | null>(null);
  const [edited, setEdited] = useState<{ materialId: string; params: ToolParams[BuiltToolType] } | null>(null);
  const [currentMs, setCurrentMs] = useState(0);
  const [taskId, setTaskId] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<unknown>(null);
  const input = useToolInput(materialId);
  const secondInput = useToolInput(secondId);
  const run = useRunTool();

  const material = input.data && input.data.id === materialId ? input.data : null;
  const facts = material ? inputFacts(material) : null;
  // Until the options are touched they follow the input (its length arrives when probing ends).
  const params = facts ? (edited && edited.materialId === materialId ? edited.params : tool.defaults(facts)) : null;
  const secondKind = params ? secondInputOf(tool, params) : null;
  const second = secondKind && secondInput.data && secondInput.data.id === secondId ? secondInput.data : null;
  const inputReady = material?.state === 'ready';
  const ready = inputReady && (!secondKind || second?.state === 'ready');
  const problems =
    facts && params
      ? [
          ...inputProblems(tool, facts, toolType, secondKind ? 'materialIds[0]' : 'materialIds'),
          ...paramProblems(tool.type, params, facts),
          ...(secondKind && second ? secondInputProblems(secondKind, inputFacts(second)) : []),
        ]
      : [];

  const pick = (id: string) => {
    setMaterialId(id);
    setEdited(null);
    setCurrentMs(0);
    setRefusal(null);
  };

  const onRun = () => {
    if (!materialId || !params || (secondKind && !secondId)) return;
    setRefusal(null);
    run.mutate(
      { type: tool.type, materialIds: secondKind && secondId ? [materialId, secondId] : [materialId], params },
      {
        onSuccess: (answer) => {
          client.setQueryData(queryKeys.videoTask.state(answer.taskId), queuedState(answer.taskId));
          setTaskId(answer.taskId);
        },
        onError: (err) => setRefusal(err),
      },
    );
  };

  if (taskId !== null) {
    return (
      <Card title={t('toolbox.run.title')} data-testid="tool-run-card">
        <ToolRunView taskId={taskId} />
        <Button icon={<ReloadOutlined />} style={{ marginTop: 16 }} onClick={() => setTaskId(null)} data-testid="tool-again">
          {t('toolbox.run.again')}
        </Button>
      </Card>
    );
  }

  const { ranges, tone } = params && facts ? previewRanges(tool.type, params, facts.durationMs) : { ranges: [], tone: 'use' as const };
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={10}>
        <Card title={t('toolbox.input.title')} size="small">
          <ToolInputPicker kind={tool.input} selectedId={materialId} onPick={pick} />
        </Card>
        {secondKind && materialId !== null ? (
          <Card title={t(`toolbox.input.second.${secondKind}`)} size="small" style={{ marginTop: 16 }} data-testid="tool-second-input">
            {second ? (
              <Space style={{ marginBottom: 8 }} data-testid="tool-second-chosen">
                <Typography.Text strong>{second.materialName}</Typography.Text>
                <MaterialStateBadge material={second} />
              </Space>
            ) : null}
            <ToolInputPicker
              kind={secondKind}
              selectedId={secondId}
              onPick={(id) => {
                setSecondId(id);
                setRefusal(null);
              }}
              testId="tool-second-picker"
            />
          </Card>
        ) : null}
      </Col>
      <Col xs={24} lg={14}>
        <Card title={t('toolbox.options.title')} size="small" data-testid="tool-options">
          {materialId === null ? (
            <Typography.Text type="secondary" data-testid="tool-no-input">
              {t('toolbox.input.first')}
            </Typography.Text>
          ) : !material || !facts || !params ? (
            <Spin />
          ) : (
            <Space orientation="vertical" size={12} style={{ width: '100%' }}>
              <Space>
                <Typography.Text strong>{material.materialName}</Typography.Text>
                <MaterialStateBadge material={material} />
              </Space>
              {inputReady && tool.input !== 'pptx' ? <InputPreview material={material} ranges={ranges} tone={tone} currentMs={currentMs} onTime={setCurrentMs} /> : null}
              <Form layout="vertical" component="div">
                <ToolOptions
                  type={tool.type}
                  params={params}
                  onChange={(next) => materialId && setEdited({ materialId, params: next })}
                  input={facts}
                  currentMs={currentMs}
                  frameUrl={material.previewUrl || material.url}
                />
              </Form>
              {inputReady && problems.length > 0 ? (
                <Alert type="warning" showIcon title={problems.map((p) => problemText(t, p)).join('；')} data-testid="tool-problems" />
              ) : null}
              {refusal ? <Alert type="error" showIcon title={refusalText(t, refusal)} data-testid="tool-refused" /> : null}
              <Button
                type="primary"
                size="large"
                icon={<PlayCircleOutlined />}
                disabled={!ready || problems.length > 0 || !materialId || (secondKind !== null && !secondId)}
                loading={run.isPending}
                onClick={onRun}
                data-testid="tool-run-button"
              >
                {t('toolbox.run.start')}
              </Button>
            </Space>
          )}
        </Card>
      </Col>
    </Row>
  );
}
