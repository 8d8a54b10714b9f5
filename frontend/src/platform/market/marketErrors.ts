/**
 * Words the marketplace calls' refusals (the market contract: code 3000, an English message naming
 * the field; 4001 for a caller who is not a service provider) in the page's language; anything else
 * as every call's failure is worded.
 */
import i18next from 'i18next';
import { ApiError, errorText } from '@/api/errors';

type Wording = [RegExp, (m: RegExpMatchArray) => string];

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

/** "request 12 is delivered, only an open request is withdrawn": the state it is in, what was tried. */
const requestClosed = (m: RegExpMatchArray) => t('market.error.requestClosed', { state: t(`market.requestState.${m[1]}`), action: t(`market.error.action.${m[2]}`) });

const WORDINGS: Wording[] = [
  // Reading a service and placing a request.
  [/^(?:id: |serviceId: )?service \d+ does not exist$/, () => t('market.error.serviceGone')],
  [/^serviceId: service \d+ is your own$/, () => t('market.error.ownService')],
  [/^serviceId: you already have an open request \(\d+\) for service \d+$/, () => t('market.error.alreadyRequested')],
  [/^note: required$/, () => t('market.error.noteRequired')],
  [/^note: at most (\d+) characters$/, (m) => t('market.error.noteTooLong', { max: Number(m[1]) })],
  // Answering a request, or withdrawing it.
  [/^requestId: request \d+ does not exist$/, () => t('market.error.requestGone')],
  [/^requestId: request \d+ is (open|withdrawn|declined|delivered), only an open request is (withdrawn|declined|delivered)$/, requestClosed],
  [/^reason: required$/, () => t('market.error.reasonRequired')],
  [/^reason: at most (\d+) characters$/, (m) => t('market.error.reasonTooLong', { max: Number(m[1]) })],
  [/^taskId: task \d+ does not exist$/, () => t('market.error.taskGone')],
  [/^taskId: task \d+ has no video yet\b/, () => t('market.error.noVideo')],
  // The provider's form.
  // The task service words a role refusal "this needs the SERVICE_PROVIDER role".
  [/^(?:role SERVICE_PROVIDER required|this needs the SERVICE_PROVIDER role)$/, () => t('market.error.notProvider')],
  [/^title: required$/, () => t('market.error.titleRequired')],
  [/^title: at most (\d+) characters$/, (m) => t('market.error.titleTooLong', { max: Number(m[1]) })],
  [/^kind: `.*` is not template or video$/, () => t('market.error.badKind')],
  [/^description: at most (\d+) characters$/, (m) => t('market.error.descriptionTooLong', { max: Number(m[1]) })],
  [/^price: at most (\d+) characters$/, (m) => t('market.error.priceTooLong', { max: Number(m[1]) })],
  [/^deliveryDays: -?\d+ is out of range (\d+)\D+(\d+)$/, (m) => t('market.error.badDays', { min: Number(m[1]), max: Number(m[2]) })],
  [/^sampleTaskIds: at most (\d+) samples$/, (m) => t('market.error.tooManySamples', { max: Number(m[1]) })],
  [/^sampleTaskIds: task \d+ does not exist$/, () => t('market.error.sampleGone')],
  [/^sampleTaskIds: task \d+ has no video yet\b/, () => t('market.error.sampleNoVideo')],
  // Refusals the contract names only by their field.
  [/^requestId: /, () => t('market.error.requestRefused')],
  [/^(?:id|serviceId): /, () => t('market.error.serviceRefused')],
];

/** Returns what to tell the user of a failed marketplace call, in the page's language. */
export function marketErrorText(err: unknown): string {
  const refused = err instanceof ApiError && (err.kind === 'business' || (err.kind === 'auth' && err.code === 4001));
  if (refused) {
    const desc = (err.desc ?? '').trim();
    for (const [pattern, word] of WORDINGS) {
      const m = desc.match(pattern);
      if (m) return word(m);
    }
  }
  return errorText(err);
}
