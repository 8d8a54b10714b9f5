/**
 * Words the collection calls' refusals (the collections contract: code 3000, a message naming the
 * field) in the page's language; anything else as every call's failure is worded.
 */
import i18next from 'i18next';
import { ApiError, errorText } from '@/api/errors';

/** Names a template by its id: its name when the page knows it. */
export type TemplateNamer = (id: number) => string | undefined;

type Wording = [RegExp, (m: RegExpMatchArray, name: (id: string) => string) => string];

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

const WORDINGS: Wording[] = [
  [/^name: required$/, () => t('collection.error.nameRequired')],
  [/^name: at most (\d+) characters$/, (m) => t('collection.error.nameTooLong', { max: Number(m[1]) })],
  [/^name: 「(.*)」 is already an? (topic|case|industry)$/, (m) => t('collection.error.nameTaken', { name: m[1], kind: t(`collection.kind.${m[2]}`) })],
  [/^description: at most (\d+) characters$/, (m) => t('collection.error.descriptionTooLong', { max: Number(m[1]) })],
  [/^templateIds: at most (\d+)$/, (m) => t('collection.error.tooMany', { max: Number(m[1]) })],
  [/^templateIds: (\d+) is listed twice$/, (m, name) => t('collection.error.twice', { template: name(m[1] ?? '') })],
  [/^templateIds: (\d+) is not an approved template$/, (m, name) => t('collection.error.notApproved', { template: name(m[1] ?? '') })],
  [/^templateIds: a collection needs a template before it is published$/, () => t('collection.error.emptyPublish')],
  [/^coverTemplateId: (\d+) is not in the collection$/, (m, name) => t('collection.error.coverMissing', { template: name(m[1] ?? '') })],
  [/^kind: `(.*)` is not topic, case or industry$/, (m) => t('collection.error.badKind', { kind: m[1] })],
];

/** Returns what to tell a manager of a failed collection call; `templateName` names the templates a refusal cites by id. */
export function collectionErrorText(err: unknown, templateName: TemplateNamer = () => undefined): string {
  if (err instanceof ApiError && err.kind === 'business') {
    const desc = (err.desc ?? '').trim();
    const name = (id: string) => templateName(Number(id)) ?? id;
    for (const [pattern, word] of WORDINGS) {
      const m = desc.match(pattern);
      if (m) return word(m, name);
    }
  }
  return errorText(err);
}

