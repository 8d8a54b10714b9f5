/**
 * Words the enterprise calls' refusals (code 3000, an English message naming the field) in the page's
 * language; anything else as every call's failure is worded.
 */
import i18next from 'i18next';
import { ApiError, errorText } from '@/api/errors';

type Wording = [RegExp, (m: RegExpMatchArray) => string];

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const WORDINGS: Wording[] = [
  [/^you are not in an enterprise\b/, () => t('enterprise.error.notMember')],
  [/^itemId: this (work|material) is already shared with your enterprise$/, () => t('enterprise.error.alreadyShared')],
  [/^itemId: task \d+ does not exist$/, () => t('enterprise.error.workGone')],
  [/^itemId: task \d+ has no video yet\b/, () => t('enterprise.error.noVideo')],
  [/^itemId: material .* is not one of your materials\b/, () => t('enterprise.error.materialGone')],
  [/^shareId: share \d+ does not exist$/, () => t('enterprise.error.shareGone')],
  [/^shareId: the work of share \d+ was deleted$/, () => t('enterprise.error.shareGone')],
  [/^userId: no user `(.*)` here\b/, (m) => t('enterprise.error.noUser', { user: m[1] })],
  [/^userId: (.+) is already a member of (.+)$/, (m) => t('enterprise.error.alreadyMember', { user: m[1], name: m[2] })],
  [/^userId: (.+) is disabled$/, (m) => t('enterprise.error.disabled', { user: m[1] })],
  [/^userId: required\b/, () => t('enterprise.error.userRequired')],
  [/^name: required$/, () => t('enterprise.error.nameRequired')],
  [/^name: at most (\d+) characters$/, (m) => t('enterprise.error.nameTooLong', { max: Number(m[1]) })],
  [/^name: an enterprise named (.+) exists$/, (m) => t('enterprise.error.nameTaken', { name: m[1] })],
];

/** Returns what to tell the user of a failed enterprise call, in the page's language. */
export function enterpriseErrorText(err: unknown): string {
  if (err instanceof ApiError && err.kind === 'business') {
    const desc = (err.desc ?? '').trim();
    for (const [pattern, word] of WORDINGS) {
      const m = desc.match(pattern);
      if (m) return word(m);
    }
  }
  return errorText(err);
}
