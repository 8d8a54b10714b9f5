import enUS from './en-US.json';
import zhCN from './zh-CN.json';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([k, v]) => keys(v, prefix ? `${prefix}.${k}` : k));
}

function placeholders(text: string): string[] {
  return [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1] ?? '').sort();
}

function lookup(tree: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree);
}

describe('locale parity', () => {
  it('zh-CN and en-US have the same keys', () => {
    expect(keys(enUS).sort()).toEqual(keys(zhCN).sort());
  });

  it('every text is non-empty and uses the same placeholders in both languages', () => {
    for (const key of keys(zhCN)) {
      const zh = lookup(zhCN, key);
      const en = lookup(enUS, key);
      expect(typeof zh === 'string' && zh.trim() !== '').toBe(true);
      expect(typeof en === 'string' && en.trim() !== '').toBe(true);
      expect([key, placeholders(String(en))]).toEqual([key, placeholders(String(zh))]);
    }
  });
});
