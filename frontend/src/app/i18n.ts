import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import enUS from '@/locales/en-US.json';
import zhCN from '@/locales/zh-CN.json';

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
export const LANGUAGE_STORAGE_KEY = 'reelforge.lang';

const DAYJS_LOCALE: Record<Language, string> = { 'zh-CN': 'zh-cn', 'en-US': 'en' };

/** Returns the value when it names a supported language, else the default. */
export function asLanguage(value: string | null | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : DEFAULT_LANGUAGE;
}

function storedLanguage(): Language {
  try {
    return asLanguage(globalThis.localStorage?.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

/** Applies a language to i18next, dayjs and the document, and remembers it. */
export async function applyLanguage(language: Language): Promise<void> {
  dayjs.locale(DAYJS_LOCALE[language]);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  try {
    globalThis.localStorage?.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    /* storage unavailable */
  }
  await i18n.changeLanguage(language);
}

const initial = storedLanguage();
dayjs.locale(DAYJS_LOCALE[initial]);

void i18n.use(initReactI18next).init({
  resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
  lng: initial,
  fallbackLng: DEFAULT_LANGUAGE,
  interpolation: { escapeValue: false },
  initAsync: false,
});

export { i18n };
