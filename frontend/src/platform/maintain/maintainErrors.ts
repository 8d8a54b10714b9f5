/**
 * Words the category, system-library and catalogue-offer refusals (category service, material
 * service `system.rs`, the offer's save) in the page's language; anything else as every call's
 * failure is worded.
 */
import i18next from 'i18next';
import { ApiError, errorText } from '@/api/errors';

type Wording = [RegExp, (m: RegExpMatchArray) => string];

const t = (key: string, values?: Record<string, unknown>) => i18next.t(key, values);

/** A catalogue's name in the page's language (`animation`, `artWord`), else as the server wrote it. */
const catalogueName = (catalogue: string) => t(`maintain.offer.catalogue.${catalogue}`, { defaultValue: catalogue });

const WORDINGS: Wording[] = [
  [/^categoryName: `(.*)` already exists here$/, (m) => t('maintain.error.duplicate', { name: m[1] })],
  [/^category `(.*)` is in use: (\d+) template\(s\) .*\((.*)\); move them/, (m) => t('maintain.error.inUse', { name: m[1], count: Number(m[2]), templates: m[3] })],
  [/^(categoryName|materialName): must not be empty$/, () => t('maintain.error.emptyName')],
  [/^(categoryName|materialName): longer than (\d+) characters$/, (m) => t('maintain.error.longName', { max: Number(m[2]) })],
  [/is not a system category/, () => t('maintain.error.notSystemCategory')],
  [/^uploadFile: a \w+ file does not go into category/, () => t('maintain.error.wrongFile')],
  [/^categoryId: category \d+ lists/, () => t('maintain.error.wrongKind')],
  [/^categoryId: required/, () => t('maintain.error.categoryRequired')],
  // Run-time settings (task service `maintain.rs` `parse_setting`): the message names the key.
  [/^([a-z]+\.[A-Za-z]+): (-?\d+) is out of range (-?\d+)–(-?\d+)$/, (m) => t('maintainFarm.config.outOfRange', { key: m[1], value: m[2], min: m[3], max: m[4] })],
  [/^([a-z]+\.[A-Za-z]+): `(.*)` is not a whole number$/, (m) => t('maintainFarm.config.notNumber', { key: m[1], value: m[2] })],
  // The catalogue offer (issue 29, `POST /maintain/catalogue/offer`): the message names the key.
  [/^items: `(.*)` is not an entry of (\w+)$/, (m) => t('maintain.offer.error.notEntry', { key: m[1], catalogue: catalogueName(m[2] ?? '') })],
  [/^items: `(.*)` is named twice$/, (m) => t('maintain.offer.error.twice', { key: m[1] })],
  [/^items: `(.*)` is missing$/, (m) => t('maintain.offer.error.missing', { key: m[1] })],
  [/^items: at least one entry must stay offered$/, () => t('maintain.offer.noneOffered')],
  [/^catalogue: `(.*)` is not animation or artWord$/, (m) => t('maintain.offer.error.unknownCatalogue', { catalogue: m[1] })],
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
