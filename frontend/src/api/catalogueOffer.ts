/**
 * The tenant's offer of two editor catalogues (issue 29): which in/out animations and which
 * art-word styles the editor offers for new picks, and in which order. Any signed-in user reads it
 * (`GET /catalogue/offer/{catalogue}`); administrators change it (`POST /maintain/catalogue/offer`,
 * audited under `catalogue:{catalogue}`). A hidden entry is only not offered: a layer that already
 * uses it keeps it.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';
import { farmKeys } from './maintainFarm';

/** The catalogues with an offer: the in/out animations and the art-word styles. */
export type OfferCatalogue = 'animation' | 'artWord';

/** One entry of an offer: a catalogue key and whether the editor offers it. */
export interface OfferItem {
  key: string;
  offered: boolean;
}

/** A catalogue's offer: every key once, in the tenant's order. */
export interface CatalogueOffer {
  catalogue: OfferCatalogue;
  items: OfferItem[];
}

/** The audit item of a catalogue's offer. */
export const offerAuditItem = (catalogue: OfferCatalogue): string => `catalogue:${catalogue}`;

/** Reads the items of an answer, keeping only well-formed ones (undefined when the answer has none). */
function itemsOf(data: unknown): OfferItem[] | undefined {
  const items = (data as { items?: unknown } | null | undefined)?.items;
  if (!Array.isArray(items)) return undefined;
  return items
    .filter((i): i is { key: string; offered?: unknown } => typeof i === 'object' && i !== null && typeof (i as { key?: unknown }).key === 'string')
    .map((i) => ({ key: i.key, offered: i.offered !== false }));
}

/** Fetches a catalogue's offer; quiet on failure: the editor then offers every entry. */
export async function fetchCatalogueOffer(catalogue: OfferCatalogue): Promise<CatalogueOffer> {
  const data = await api.get<unknown>(`/catalogue/offer/${catalogue}`, undefined, { silent: true });
  const items = itemsOf(data);
  if (!items) throw new Error(`catalogue offer of ${catalogue}: no items`);
  return { catalogue, items };
}

/** Returns the tenant's offer of a catalogue. */
export function useCatalogueOffer(catalogue: OfferCatalogue) {
  return useQuery({ queryKey: queryKeys.catalogue.offer(catalogue), queryFn: () => fetchCatalogueOffer(catalogue), staleTime: 5 * 60_000 });
}

/** Saves a catalogue's whole offer (every key once, in the new order); refusals are left to the caller to word. */
export async function saveCatalogueOffer(offer: CatalogueOffer): Promise<CatalogueOffer> {
  const data = await api.post<unknown>('/maintain/catalogue/offer', { catalogue: offer.catalogue, items: offer.items.map(({ key, offered }) => ({ key, offered })) }, { silent: true });
  return { catalogue: offer.catalogue, items: itemsOf(data) ?? offer.items };
}

/** Saves an offer; the answer is the offer at once, and the offer and its audit trail are read again. */
export function useSaveCatalogueOffer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveCatalogueOffer,
    onSuccess: (saved) => client.setQueryData(queryKeys.catalogue.offer(saved.catalogue), saved),
    onSettled: (_data, _error, offer) =>
      Promise.all([
        client.invalidateQueries({ queryKey: queryKeys.catalogue.offer(offer.catalogue) }),
        client.invalidateQueries({ queryKey: farmKeys.audit(offerAuditItem(offer.catalogue)) }),
      ]),
  });
}

/**
 * Returns every entry with whether it is offered, in the offer's order: the entries the offer
 * names first (keys it names that are not entries are ignored), then those it does not name
 * (added to the catalogue later), offered, in their own order. With no offer every entry is
 * offered in its own order.
 */
export function offerRows<T extends { key: string }>(entries: readonly T[], offer: readonly OfferItem[] | undefined): Array<{ entry: T; offered: boolean }> {
  if (!offer) return entries.map((entry) => ({ entry, offered: true }));
  const byKey = new Map(entries.map((e) => [e.key, e]));
  const seen = new Set<string>();
  const rows: Array<{ entry: T; offered: boolean }> = [];
  for (const item of offer) {
    const entry = byKey.get(item.key);
    if (!entry || seen.has(item.key)) continue;
    seen.add(item.key);
    rows.push({ entry, offered: item.offered });
  }
  for (const entry of entries) if (!seen.has(entry.key)) rows.push({ entry, offered: true });
  return rows;
}

/**
 * Returns the entries the offer offers, in its order; entries it does not name come last,
 * offered. With no offer (loading or failed) all entries in their own order.
 */
export function offeredInOrder<T extends { key: string }>(entries: T[], offer: OfferItem[] | undefined): T[] {
  return offerRows(entries, offer)
    .filter((r) => r.offered)
    .map((r) => r.entry);
}
