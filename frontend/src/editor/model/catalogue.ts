/**
 * Catalogue look-ups matching services/timeline/src/catalogue: a name in a document is a key or a
 * numeric id; "" and "none" name nothing.
 */
import type { AnimationInfo } from './gen/AnimationInfo';
import type { AnimationPhase } from './gen/AnimationPhase';
import type { Filter } from './gen/Filter';
import type { TransitionInfo } from './gen/TransitionInfo';
import { CATALOGUE } from './gen/catalogue';

/** Returns the numeric id a name spells, as Rust's `str::parse::<u32>` reads it. */
function idOf(name: string): number | undefined {
  return /^\+?\d+$/.test(name) ? Number(name) : undefined;
}

/** Returns the transition a document names by key or id. */
export function findTransition(name: string): TransitionInfo | undefined {
  const id = idOf(name);
  return CATALOGUE.transitions.find((t) => t.key === name || (id !== undefined && t.id === id));
}

/** Returns the filter a document names by key or id. */
export function findFilter(name: string): Filter | undefined {
  const id = idOf(name);
  return CATALOGUE.filters.find((f) => f.key === name || (id !== undefined && f.id === id));
}

/** Returns the animation with a key. */
export function findAnimation(key: string): AnimationInfo | undefined {
  return CATALOGUE.animations.find((a) => a.key === key);
}

/** Returns whether an animation name is acceptable for a phase. */
export function isKnownAnimation(key: string, phase: AnimationPhase): boolean {
  return key === '' || key === 'none' || findAnimation(key)?.phase === phase;
}
