/** AI ability kinds that have pages (spec platform §2: /ai/ability/{kind}-{ability}). */
export const ABILITY_KINDS = ['create', 'analyze'] as const;
export type AbilityKind = (typeof ABILITY_KINDS)[number];

export interface AbilitySlug {
  kind: AbilityKind;
  ability: string;
}

/** Returns the kind and ability of a slug like `create-text-to-image`, or null when malformed. */
export function parseAbilitySlug(slug: string | undefined): AbilitySlug | null {
  const match = /^(create|analyze)-([a-z0-9][a-z0-9-]*)$/i.exec(slug ?? '');
  if (!match?.[1] || !match[2]) return null;
  return { kind: match[1].toLowerCase() as AbilityKind, ability: match[2] };
}
