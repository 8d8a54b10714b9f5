/** The toolbox's words: a tool's name by page or type, a parameter's name, a problem and a refusal in the page's language. */
import type { TFunction } from 'i18next';
import { ApiError, errorText } from '@/api/errors';
import { refusedField, type ToolType } from '@/api/toolbox';
import type { Problem } from './params';
import { TOOLS } from './tools';

/** The locale key under `page.` of a tool page, or null for a page the menu does not list. */
export function pageKeyOf(path: string): string | null {
  return TOOLS.find((tool) => tool.path === path)?.page ?? null;
}

/**
 * Runs without a toolbox page, by the locale key of their name: the AI abilities' (docs/ai.md "Media
 * abilities") and the editor's reverse (docs/toolbox.md "The editor's media edits").
 */
const PAGELESS_RUNS: Readonly<Record<string, string>> = {
  VIDEO_COVER: 'aiMedia.type.VIDEO_COVER',
  AUDIO_DENOISE: 'aiMedia.type.AUDIO_DENOISE',
  AUDIO_ECHO_CANCEL: 'aiMedia.type.AUDIO_ECHO_CANCEL',
  AUDIO_GAIN_CONTROL: 'aiMedia.type.AUDIO_GAIN_CONTROL',
  VIDEO_REVERSE: 'toolbox.mine.reverseRun',
};

/** A tool's name: its page's name, a pageless run's name, else its type as the server spells it. */
export function toolName(t: TFunction, tool: Pick<ToolType, 'path' | 'type'>): string {
  const key = pageKeyOf(tool.path);
  if (key) return t(`page.${key}`);
  const named = PAGELESS_RUNS[tool.type];
  return named ? t(named) : tool.type;
}

/** The name of the tool of `type` among `types`, else the type itself. */
export function typeName(t: TFunction, types: readonly ToolType[], type: string): string {
  const tool = types.find((x) => x.type === type);
  return tool ? toolName(t, tool) : type;
}

/** The codes of why a tool is not available that the page words itself (GET /toolbox/types `reasonCode`). */
const REASON_CODES = ['no_model', 'not_built', 'not_configured'] as const;

/** Why `tool` is not available in the page's language: from its code when known, else the server's words. */
export function unavailableText(t: TFunction, tool: Pick<ToolType, 'reason' | 'reasonCode'>): string {
  const code = REASON_CODES.find((c) => c === tool.reasonCode);
  if (code === 'not_configured') return t('toolboxLooks.notConfigured', { reason: tool.reason });
  if (code) return t(`toolbox.unavailable.code.${code}`);
  return tool.reason || t('toolbox.unavailable.noReason');
}

const RANGE_END = /^params\.ranges\[(\d+)\]\.(startMs|endMs)$/;
const SPLIT_TIME = /^params\.times\[(\d+)\]$/;
const NTH_INPUT = /^materialIds\[(\d+)\]$/;

/** A parameter as the server names it (`params.fps`, `params.ranges[1].endMs`, `materialIds[1]`) in the page's words. */
export function fieldLabel(t: TFunction, field: string): string {
  const ranged = RANGE_END.exec(field);
  if (ranged) return t(ranged[2] === 'startMs' ? 'toolbox.field.rangeStart' : 'toolbox.field.rangeEnd', { n: Number(ranged[1]) + 1 });
  const split = SPLIT_TIME.exec(field);
  if (split) return t('toolbox.field.timeN', { n: Number(split[1]) + 1 });
  const nth = NTH_INPUT.exec(field);
  if (nth) return t('toolbox.field.inputN', { n: Number(nth[1]) + 1 });
  const name = field.startsWith('params.') ? field.slice('params.'.length) : field;
  const key = `toolbox.field.${name}`;
  return t(key, { defaultValue: t(`toolboxLooks.field.${name}`, { defaultValue: name }) });
}

/** A problem the page found, naming its parameter. */
export function problemText(t: TFunction, problem: Problem): string {
  // A key with a section of its own (`toolboxLooks.problem.…`) is used whole.
  const key = problem.key.includes('.') ? problem.key : `toolbox.problem.${problem.key}`;
  return t('toolbox.problem.named', { field: fieldLabel(t, problem.field), text: t(key, problem.values ?? {}) });
}

/**
 * A refused run in words: the parameter the refusal names (`data.field`) and the server's message
 * (`desc`), which names it too; other failures as every call words them.
 */
export function refusalText(t: TFunction, err: unknown): string {
  const field = refusedField(err);
  const desc = err instanceof ApiError ? (err.desc ?? '').trim() : '';
  if (field && desc) return t('toolbox.problem.named', { field: fieldLabel(t, field), text: desc });
  return errorText(err);
}
