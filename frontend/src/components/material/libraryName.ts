/**
 * Names of the starter library (services/material/src/starter/catalogue.rs) in the page's
 * language. The server answers a starter material with its Chinese display name only (its stable
 * catalogue key is not in the answer), so the names are looked up by that display name: the zh-CN
 * locale's `library.<key>` entries are exactly those names, and each has its English twin.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import zhCN from '@/locales/zh-CN.json';

const KEY_OF_NAME: ReadonlyMap<string, string> = new Map(Object.entries(zhCN.library).map(([key, name]) => [name, key]));

/** Returns the locale key of a starter material's name, or null for any other name (a user's own). */
export function libraryNameKey(name: string): string | null {
  const key = KEY_OF_NAME.get(name.trim());
  return key === undefined ? null : `library.${key}`;
}

/** Returns a function that shows a material's name in the page's language (a user's own names as they are). */
export function useLibraryName(): (name: string) => string {
  const { t } = useTranslation();
  return useCallback((name: string) => {
    const key = libraryNameKey(name);
    return key === null ? name : t(key);
  }, [t]);
}
