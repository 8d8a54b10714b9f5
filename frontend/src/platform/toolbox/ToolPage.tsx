import { StopOutlined } from '@ant-design/icons';
import { Result, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useToolTypes, type ToolType } from '@/api/toolbox';
import { builtToolOf } from './params';
import { ToolRunner } from './ToolRunner';
import { pageKeyOf, unavailableText } from './toolText';

/** A tool the server does not offer (or this page cannot run yet): says so, with the reason in the page's language. */
export function ToolUnavailable({ name, reason }: { name: string; reason: string }) {
  const { t } = useTranslation();
  return (
    <Result
      icon={<StopOutlined style={{ color: '#8c8c8c' }} />}
      title={t('toolbox.unavailable.title', { name })}
      subTitle={reason}
      data-testid="tool-unavailable"
    />
  );
}

/** The page of the tool under `/tools/{path}`: its form when the server offers it and this frontend has one, else why not. */
export function ToolPage({ path }: { path: string }) {
  const { t } = useTranslation();
  const types = useToolTypes();
  const key = pageKeyOf(path);
  const name = key ? t(`page.${key}`) : path;
  if (types.isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (types.isError) return <Result status="warning" title={t('toolbox.loadFailed')} data-testid="tool-load-failed" />;
  const toolType: ToolType | undefined = types.data?.find((x) => x.path === path);
  const built = builtToolOf(path);
  let body;
  if (!toolType) body = <ToolUnavailable name={name} reason={t('toolbox.unavailable.unknown')} />;
  else if (!toolType.available) body = <ToolUnavailable name={name} reason={unavailableText(t, toolType)} />;
  else if (!built || built.type !== toolType.type) body = <ToolUnavailable name={name} reason={t('toolbox.unavailable.noPage')} />;
  else body = <ToolRunner tool={built} toolType={toolType} />;
  return (
    <div data-testid={`tool-page-${path}`}>
      <Typography.Title level={3}>{name}</Typography.Title>
      <Typography.Paragraph type="secondary">{t(`toolbox.about.${key ?? 'other'}`)}</Typography.Paragraph>
      {body}
    </div>
  );
}
