import { api } from './client';
import { fetchCatalogueOffer, offeredInOrder, offerRows, saveCatalogueOffer } from './catalogueOffer';
import { encodeBody, isJsonUrl, JSON_CONTENT_TYPE } from './encoding';

const entries = [{ key: 'a' }, { key: 'b' }, { key: 'c' }, { key: 'd' }];
const keys = (list: Array<{ key: string }>) => list.map((e) => e.key);

afterEach(() => jest.restoreAllMocks());

describe('offeredInOrder', () => {
  it('offers every entry in its own order when there is no offer', () => {
    expect(keys(offeredInOrder(entries, undefined))).toEqual(['a', 'b', 'c', 'd']);
  });

  it("follows the offer's order and leaves out the hidden entries", () => {
    const offer = [
      { key: 'c', offered: true },
      { key: 'a', offered: false },
      { key: 'd', offered: true },
      { key: 'b', offered: true },
    ];
    expect(keys(offeredInOrder(entries, offer))).toEqual(['c', 'd', 'b']);
  });

  it('puts the entries the offer does not name last, offered, and ignores keys that are not entries', () => {
    const offer = [
      { key: 'zz', offered: true },
      { key: 'd', offered: true },
      { key: 'b', offered: false },
      { key: 'd', offered: false },
    ];
    expect(keys(offeredInOrder(entries, offer))).toEqual(['d', 'a', 'c']);
    expect(offerRows(entries, offer).map((r) => [r.entry.key, r.offered])).toEqual([
      ['d', true],
      ['b', false],
      ['a', true],
      ['c', true],
    ]);
  });

  it('keeps the entries themselves', () => {
    const rich = [
      { key: 'x', n: 1 },
      { key: 'y', n: 2 },
    ];
    expect(offeredInOrder(rich, [{ key: 'y', offered: true }])).toEqual([
      { key: 'y', n: 2 },
      { key: 'x', n: 1 },
    ]);
  });
});

describe('catalogue offer calls', () => {
  it('reads the offer quietly and takes only well-formed items', async () => {
    const get = jest.spyOn(api, 'get').mockResolvedValue({ catalogue: 'artWord', items: [{ key: 'ice', offered: false }, { nope: 1 }, { key: 'gold', offered: true }] });
    await expect(fetchCatalogueOffer('artWord')).resolves.toEqual({
      catalogue: 'artWord',
      items: [
        { key: 'ice', offered: false },
        { key: 'gold', offered: true },
      ],
    });
    expect(get).toHaveBeenCalledWith('/catalogue/offer/artWord', undefined, { silent: true });
  });

  it('fails an answer without items (the editor then offers everything)', async () => {
    jest.spyOn(api, 'get').mockResolvedValue([]);
    await expect(fetchCatalogueOffer('animation')).rejects.toThrow('no items');
  });

  it('posts the whole list as JSON', async () => {
    const items = [
      { key: 'ice', offered: false },
      { key: 'gold', offered: true },
    ];
    const post = jest.spyOn(api, 'post').mockResolvedValue({ catalogue: 'artWord', items });
    await expect(saveCatalogueOffer({ catalogue: 'artWord', items })).resolves.toEqual({ catalogue: 'artWord', items });
    expect(post).toHaveBeenCalledWith('/maintain/catalogue/offer', { catalogue: 'artWord', items }, { silent: true });
    expect(isJsonUrl('/maintain/catalogue/offer')).toBe(true);
    expect(encodeBody('/maintain/catalogue/offer', { catalogue: 'artWord', items }).contentType).toBe(JSON_CONTENT_TYPE);
  });
});
