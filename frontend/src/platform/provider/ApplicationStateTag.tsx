import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ApplicationState } from '@/api/provider';

const COLOURS: Record<ApplicationState, string> = { pending: 'processing', approved: 'success', rejected: 'error' };

/** An application's state as a coloured tag. */
export function ApplicationStateTag({ state, testId }: { state: ApplicationState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOURS[state]} data-testid={testId} data-state={state}>
      {t(`provider.state.${state}`)}
    </Tag>
  );
}
