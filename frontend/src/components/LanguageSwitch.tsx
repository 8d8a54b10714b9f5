import { App, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { applyLanguage, asLanguage, type Language } from '@/app/i18n';

/**
 * Switches the interface between Chinese (default) and English. Toasts on screen were worded in the
 * old language and would stay so until they close: they are closed with the switch.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const value = asLanguage(i18n.language);
  return (
    <Segmented<Language>
      size="small"
      aria-label={t('lang.label')}
      data-testid="language-switch"
      value={value}
      onChange={(next) => {
        message.destroy();
        void applyLanguage(next);
      }}
      options={[
        { label: t('lang.zh'), value: 'zh-CN' },
        { label: t('lang.en'), value: 'en-US' },
      ]}
    />
  );
}
