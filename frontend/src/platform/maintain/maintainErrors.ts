/**
 * Words the category and system-library refusals (category service, material service `system.rs`)
 * in the page's language; anything else as every call's failure is worded.
 */
import i18next from 'i18next';
import { ApiError, errorText } from '@/api/errors';

type Wording = [RegExp, (m: RegExpMatchArray) => string];

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const WORDINGS: Wording[] = [
  [/^categoryName: `(.*)` already exists here$/, (m) => t('maintain.error.duplicate', { name: m[1] })],
  [/^category `(.*)` is in use: (\d+) template\(s\) .*\((.*)\); move them/, (m) => t('maintain.error.inUse', { name: m[1], count: Number(m[2]), templates: m[3] })],
  [/^(categoryName|materialName): must not be empty$/, () => t('maintain.error.emptyName')],
  [/^(categoryName|materialName): longer than (\d+) characters$/, (m) => t('maintain.error.longName', { max: Number(m[2]) })],
  [/is not a system category/, () => t('maintain.error.notSystemCategory')],
  [/^uploadFile: a \w+ file does not go into category/, () => t('maintain.error.wrongFile')],
  [/^categoryId: category \d+ lists/, () => t('maintain.error.wrongKind')],
  [/^categoryId: required/, () => t('maintain.error.categoryRequired')],
];

/** Returns what to tell an administrator of a failed maintenance call. */
export function maintainErrorText(err: unknown): string {
  if (err instanceof ApiError && err.kind === 'business') {
    const desc = (err.desc ?? '').trim();
    for (const [pattern, word] of WORDINGS) {
      const m = desc.match(pattern);
      if (m) return word(m);
    }
  }
  return errorText(err);
}
