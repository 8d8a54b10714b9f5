/**
 * Words the contest calls' refusals (the contests contract: code 3000, an English message naming the
 * field) in the page's language; anything else as every call's failure is worded.
 */
import i18next from 'i18next';
import { ApiError, errorText } from '@/api/errors';

type Wording = [RegExp, (m: RegExpMatchArray) => string];

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const WORDINGS: Wording[] = [
  // Reading a contest, entering it, withdrawing and liking.
  [/^(?:id: |contestId: )?contest \d+ does not exist$/, () => t('contest.error.contestGone')],
  [/^\w+: contest \d+ is closed: (?:entries|withdrawals) ended at (.+)$/, (m) => t('contest.error.closedAt', { time: m[1] })],
  [/^\w+: contest \d+ is not open yet: it opens at (.+)$/, (m) => t('contest.error.opensAt', { time: m[1] })],
  [/^contestId: you already entered contest \d+ \(entry \d+\); withdraw it to enter another work$/, () => t('contest.error.alreadyEntered')],
  [/^taskId: task \d+ does not exist$/, () => t('contest.error.taskGone')],
  [/^taskId: task \d+ has no video yet\b/, () => t('contest.error.noVideo')],
  [/^entryId: you already liked entry \d+$/, () => t('contest.error.alreadyLiked')],
  [/^entryId: entry \d+ is your own$/, () => t('contest.error.ownEntry')],
  [/^entryId: contest \d+ is closed: likes ended at (.+)$/, (m) => t('contest.error.likesEnded', { time: m[1] })],
  [/^entryId: contest \d+ is ranked by likes$/, () => t('contest.error.rankedByLikes')],
  [/^entryId: entry \d+ does not exist$/, () => t('contest.error.entryGone')],
  // The manager's form.
  [/^title: required$/, () => t('contest.error.titleRequired')],
  [/^title: at most (\d+) characters$/, (m) => t('contest.error.titleTooLong', { max: Number(m[1]) })],
  [/^theme: at most (\d+) characters$/, (m) => t('contest.error.themeTooLong', { max: Number(m[1]) })],
  [/^rules: at most (\d+) characters$/, (m) => t('contest.error.rulesTooLong', { max: Number(m[1]) })],
  [/^endMs: the end must be after the start$/, () => t('contest.error.endBeforeStart')],
  [/^ranking: `.*` is not likes or scores$/, () => t('contest.error.badRanking')],
  [/^ranking: contest \d+ already has entries$/, () => t('contest.error.rankingLocked')],
  [/^templateId: template (\d+) does not exist$/, (m) => t('contest.error.templateGone', { id: m[1] })],
  [/^id: contest \d+ has (\d+) entr(?:y|ies); it can't be deleted$/, (m) => t('contest.error.hasEntries', { count: Number(m[1]) })],
  // Refusals the contract names only by their field ("else 3000 naming it").
  [/^score: /, () => t('contest.error.badScore', { min: 0, max: 100 })],
  [/^entryId: /, () => t('contest.error.entryRefused')],
];

/** Returns what to tell the user of a failed contest call, in the page's language. */
export function contestErrorText(err: unknown): string {
  if (err instanceof ApiError && err.kind === 'business') {
    const desc = (err.desc ?? '').trim();
    for (const [pattern, word] of WORDINGS) {
      const m = desc.match(pattern);
      if (m) return word(m);
    }
  }
  return errorText(err);
}
