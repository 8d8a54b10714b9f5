/**
 * The forms' length limits are the services' own: each is read from the Rust constant that enforces
 * it, so a change on either side fails here instead of letting a form accept what the server refuses.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_NAME_MAX, COLLECTION_TEMPLATES_MAX } from './collection';
import { CONTEST_LIMITS, SCORE_MAX } from './contest';
import { DELIVERY_DAYS_MAX, MARKET_LIMITS } from './market';
import { APPLICATION_LIMITS } from './provider';

const root = path.resolve(__dirname, '../../..');

function constant(file: string, name: string): number {
  const source = readFileSync(path.join(root, file), 'utf8');
  const found = new RegExp(`pub const ${name}: (?:usize|i32) = (\\d+);`).exec(source);
  if (!found) throw new Error(`${name} not found in ${file}`);
  return Number(found[1]);
}

describe('limits shared with the services', () => {
  it('a collection: name, description, templates (services/task/src/collection.rs)', () => {
    const file = 'services/task/src/collection.rs';
    expect([COLLECTION_NAME_MAX, COLLECTION_DESCRIPTION_MAX, COLLECTION_TEMPLATES_MAX]).toEqual([
      constant(file, 'NAME_MAX'),
      constant(file, 'DESCRIPTION_MAX'),
      constant(file, 'TEMPLATES_MAX'),
    ]);
  });

  it('a provider application and its rejection (services/auth/src/provider.rs)', () => {
    const file = 'services/auth/src/provider.rs';
    expect(APPLICATION_LIMITS).toEqual({
      name: constant(file, 'NAME_MAX'),
      contact: constant(file, 'CONTACT_MAX'),
      intro: constant(file, 'INTRO_MAX'),
      reason: constant(file, 'REASON_MAX'),
    });
  });

  it('a contest: title, theme, rules (services/task/src/contest.rs)', () => {
    const file = 'services/task/src/contest.rs';
    expect(CONTEST_LIMITS).toEqual({ title: constant(file, 'TITLE_MAX'), theme: constant(file, 'THEME_MAX'), rules: constant(file, 'RULES_MAX') });
    expect(SCORE_MAX).toBe(constant(file, 'SCORE_MAX'));
  });

  it('a marketplace service, request and decline (services/task/src/market.rs)', () => {
    const file = 'services/task/src/market.rs';
    expect(MARKET_LIMITS).toEqual({
      title: constant(file, 'TITLE_MAX'),
      description: constant(file, 'DESCRIPTION_MAX'),
      price: constant(file, 'PRICE_MAX'),
      samples: constant(file, 'SAMPLES_MAX'),
      note: constant(file, 'NOTE_MAX'),
      reason: constant(file, 'REASON_MAX'),
    });
    expect(DELIVERY_DAYS_MAX).toBe(constant(file, 'DAYS_MAX'));
  });
});
