/** The words of a refused media edit (the crop dialog's, the video crop's). */
import i18next from 'i18next';
import { ApiError, errorText } from '@/api/errors';

/**
 * What to show of a refused or failed edit: as `errorText` says it, but a refusal it knows no words
 * for in the page's language in the server's own (`x: 640 is past the picture's width (640)`).
 */
export function refusalText(e: unknown): string {
  if (!(e instanceof ApiError)) return e instanceof Error ? e.message : String(e);
  const text = errorText(e);
  const desc = (e.desc ?? '').trim();
  return e.kind === 'business' && desc !== '' && text === i18next.t('api.error.failed') ? desc : text;
}
