import { App, type ModalFuncProps } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { CONFIRM_WIDTH } from './dialogWidth';

/** What a warm-tip confirm says and does; its title and width are the spec's and not the caller's. */
export type WarmTipProps = Omit<ModalFuncProps, 'title' | 'width'>;

/**
 * Returns an opener of the shared confirm dialog (spec platform §2 'shared screens'): titled
 * 'warm tip', 416 wide, asked before every destructive action. Built on `App.useApp().modal` so
 * the dialog follows the app's theme and language.
 */
export function useWarmTip(): (props: WarmTipProps) => void {
  const { modal } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (props: WarmTipProps) => {
      modal.confirm({ ...props, title: t('shared.warmTip'), width: CONFIRM_WIDTH, rootClassName: 'rf-warm-tip' });
    },
    [modal, t],
  );
}
