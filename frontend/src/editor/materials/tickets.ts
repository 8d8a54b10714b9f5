/**
 * Material addresses in a document (`/diyvrbt/material/file/{id}/{part}`): the stage fetches them
 * with the media ticket of `?ticket=` (6 h), the saved document never carries one (the render
 * resolves a material by its id), and an opened document gets fresh tickets from
 * `POST /material/byIds`, whose answer signs every material it lists.
 */
import { api } from '@/api/client';
import type { Material } from '@/api/material';
import type { Rule } from '@/editor/model/gen/Rule';

/** A material address inside a JSON text, with its ticket if any: id, part, query. */
const ADDRESS = /(\/diyvrbt\/material\/file\/)([^/"?#\\]+)(\/[a-z]+)(\?[^"#\\]*)?/g;

/** The ticket of a signed address, or null. */
export function ticketOf(url: string): string | null {
  const q = url.indexOf('?');
  return q < 0 ? null : new URLSearchParams(url.slice(q + 1)).get('ticket');
}

function mapAddresses(rule: Rule, to: (prefix: string, id: string, part: string) => string): Rule {
  return JSON.parse(JSON.stringify(rule).replace(ADDRESS, (_m, prefix: string, id: string, part: string) => to(prefix, id, part))) as Rule;
}

/** The document with every material address unsigned. */
export function withoutTickets(rule: Rule): Rule {
  return mapAddresses(rule, (prefix, id, part) => `${prefix}${id}${part}`);
}

/** The ids of the materials a document addresses, each once, in document order. */
export function materialIds(rule: Rule): string[] {
  const ids = new Set<string>();
  for (const m of JSON.stringify(rule).matchAll(ADDRESS)) ids.add(m[2] as string);
  return [...ids];
}

/** The document with each address of a material in `tickets` signed with its ticket (others unsigned). */
export function withTickets(rule: Rule, tickets: ReadonlyMap<string, string>): Rule {
  return mapAddresses(rule, (prefix, id, part) => {
    const ticket = tickets.get(id);
    return ticket ? `${prefix}${id}${part}?ticket=${encodeURIComponent(ticket)}` : `${prefix}${id}${part}`;
  });
}

/** The materials of these ids the caller may use, signed afresh. */
export function fetchMaterialsByIds(ids: string[]): Promise<Material[]> {
  return api.post<Material[]>('/material/byIds', { ids: ids.join(',') });
}

/** Signs an opened document's material addresses afresh; when the call fails they stay as saved. */
export async function resign(rule: Rule, fetch: (ids: string[]) => Promise<Material[]> = fetchMaterialsByIds): Promise<Rule> {
  const ids = materialIds(rule);
  if (ids.length === 0) return rule;
  try {
    const tickets = new Map<string, string>();
    for (const m of await fetch(ids)) {
      const ticket = ticketOf(m.url) ?? ticketOf(m.coverUrl);
      if (ticket) tickets.set(m.id, ticket);
    }
    return withTickets(rule, tickets);
  } catch {
    return rule;
  }
}
