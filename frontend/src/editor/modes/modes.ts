/**
 * The editor's modes (spec editor-core §2, query `usedFor`) and the rules each one adds: which
 * template kind a work of the mode is offered as, whether layers can be marked as replaceable
 * slots (and business-card fields), the document's `ruleType`, and what clearing a task keeps.
 * Pure functions over the document; the slot kinds follow `reelforge_timeline::layout::slot_kind`.
 */
import type { TemplateKind } from '@/api/template';
import type { Layer } from '@/editor/model/gen/Layer';
import type { Rule } from '@/editor/model/gen/Rule';
import type { RuleType } from '@/editor/model/gen/RuleType';
import type { SlotKind } from '@/editor/model/gen/SlotKind';
import type { SlotCounts } from '@/editor/model/gen/SlotCounts';
import { newScene } from '@/editor/state/defaults';

/** The `usedFor` values of spec §2. */
export const USED_FOR = ['ALL', 'AI_TEMPLATE', 'TASK_TEMPLATE', 'BUSINESS_CARD_TEMPLATE', 'IVVR'] as const;
export type UsedFor = (typeof USED_FOR)[number];

/** What a mode changes in the editor. */
export interface ModeRules {
  usedFor: UsedFor;
  /** The template kind a work of this mode is offered as (`POST /template/submit`); null: a plain work. */
  templateKind: TemplateKind | null;
  /** Layers can be marked as replaceable slots (`canModify`), texts with a most length. */
  slots: boolean;
  /** Text slots name the business-card field they are filled from (`cardField`). */
  cardFields: boolean;
  /** The document's ruleType. */
  ruleType: RuleType;
  /** Clearing the task keeps the document's sounds (spec §4: 'clears audio (unless IVVR)'). */
  keepAudioOnClear: boolean;
}

const RULES: Record<UsedFor, ModeRules> = {
  ALL: { usedFor: 'ALL', templateKind: null, slots: false, cardFields: false, ruleType: 'VIDEO_EDIT', keepAudioOnClear: false },
  TASK_TEMPLATE: { usedFor: 'TASK_TEMPLATE', templateKind: 'classic', slots: true, cardFields: false, ruleType: 'VIDEO_EDIT', keepAudioOnClear: false },
  AI_TEMPLATE: { usedFor: 'AI_TEMPLATE', templateKind: 'ai', slots: true, cardFields: false, ruleType: 'VIDEO_EDIT', keepAudioOnClear: false },
  BUSINESS_CARD_TEMPLATE: {
    usedFor: 'BUSINESS_CARD_TEMPLATE',
    templateKind: 'businessCard',
    slots: true,
    cardFields: true,
    ruleType: 'VIDEO_EDIT',
    keepAudioOnClear: false,
  },
  IVVR: { usedFor: 'IVVR', templateKind: 'ivvr', slots: true, cardFields: false, ruleType: 'IVVR', keepAudioOnClear: true },
};

/** The rules of a `usedFor` value (case-insensitive); anything else, '' included, is a plain work (ALL). */
export function modeOf(usedFor: string): ModeRules {
  const key = usedFor.trim().toUpperCase() as UsedFor;
  return RULES[key] ?? RULES.ALL;
}

/** The slot kind a layer is when marked replaceable (word and art word: text; picture and GIF: picture; video), else null. */
export function slotKindOf(type: Layer['type']): SlotKind | null {
  if (type === 'word' || type === 'artWord') return 'text';
  if (type === 'picture' || type === 'gif') return 'picture';
  if (type === 'video') return 'video';
  return null;
}

/** Whether a layer is a replaceable slot. */
export function isSlot(layer: Layer): boolean {
  return layer.canModify === 1 && slotKindOf(layer.type) !== null;
}

function allLayers(layers: ReadonlyArray<Layer>): Layer[] {
  return layers.flatMap((l) => (l.type === 'group' ? [l, ...allLayers(l.attachList)] : [l]));
}

/**
 * The slot counts the server stores on a template (replaceWord / replacePicture / replaceVideo):
 * every replaceable layer, group members included, and the replaceable attach materials of
 * `actionArrange`, as `layout::template_slots` counts them.
 */
export function slotCounts(rule: Rule): SlotCounts {
  const counts: SlotCounts = { text: 0, picture: 0, video: 0 };
  const add = (kind: SlotKind | null, canModify: number) => {
    if (kind !== null && canModify === 1) counts[kind] += 1;
  };
  for (const l of rule.scenes.flatMap((s) => allLayers(s.layers))) add(slotKindOf(l.type), l.canModify);
  for (const item of rule.actionArrange.flatMap((a) => a.action.attachMaterial)) add(slotKindOf(item.materialType as Layer['type']), item.canModify);
  return counts;
}

/** Why a document cannot be offered as a template of this mode yet (the server's submit refuses it), or null. */
export type SubmitBlock = 'notTemplate' | 'noSlot' | 'noCardField';

/** What blocks offering the document as a template: no slot; for a business card, no text with a card field. */
export function submitBlock(rule: Rule, mode: ModeRules): SubmitBlock | null {
  if (mode.templateKind === null) return 'notTemplate';
  const c = slotCounts(rule);
  if (c.text + c.picture + c.video === 0) return 'noSlot';
  if (mode.cardFields) {
    const carded = rule.scenes.flatMap((s) => allLayers(s.layers)).some((l) => (l.type === 'word' || l.type === 'artWord') && (l.cardField ?? 0) > 0);
    if (!carded) return 'noCardField';
  }
  return null;
}

/** A new document of this mode: the mode's ruleType. */
export function ruleForMode(rule: Rule, mode: ModeRules): Rule {
  return rule.ruleType === mode.ruleType ? rule : { ...rule, ruleType: mode.ruleType };
}

/**
 * The document of a cleared task (spec §4): one blank scene, the frame size kept; the sounds
 * cleared, except for IVVR, whose audio the platform sets. The server's `/videotask/clear` does
 * the same to a stored task (`domain::blank_rule`).
 */
export function clearedRule(rule: Rule, mode: ModeRules): Rule {
  return {
    ...rule,
    scenes: [newScene(1)],
    actionArrange: [],
    audio: mode.keepAudioOnClear ? rule.audio : [],
  };
}
