import { Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { applyLanguage, asLanguage, type Language } from '@/app/i18n';

/** Switches the interface between Chinese (default) and English. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const value = asLanguage(i18n.language);
  return (
    <Segmented<Language>
      size="small"
      aria-label={t('lang.label')}
      data-testid="language-switch"
      value={value}
      onChange={(next) => void applyLanguage(next)}
      options={[
        { label: t('lang.zh'), value: 'zh-CN' },
        { label: t('lang.en'), value: 'en-US' },
      ]}
    />
  );
}
