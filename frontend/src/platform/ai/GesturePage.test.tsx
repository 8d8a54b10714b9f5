import { screen, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { Ability } from '@/api/ai';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { SYSTEM_INFO } from '@/test/templateFixtures';
import { GESTURES } from './gestures';

const gesture = (over: Partial<Ability>): Ability => ({
  key: 'gesture-recognition',
  group: 'other',
  nameZh: '手势识别',
  nameEn: 'Gesture recognition',
  hasPage: true,
  available: false,
  provider: 'none',
  reasonCode: 'no-local-implementation',
  reason: 'no local gesture model ships in a registry package',
  ...over,
});

function serve(abilities: Ability[]) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/ai/abilities') return abilities;
    throw new Error(`unexpected GET ${url}`);
  });
}

jest.setTimeout(60_000);
afterEach(() => jest.restoreAllMocks());

describe('/gesture', () => {
  it('lists the 24 gestures and says recognition is not configured, with the server’s reason', async () => {
    serve([gesture({})]);
    renderApp('/gesture', SIGNED_IN);
    const notice = await screen.findByTestId('gesture-not-configured');
    expect(notice).toHaveTextContent('手势识别未配置（无本地实现）');
    expect(notice).toHaveTextContent('no local gesture model ships in a registry package');
    expect(GESTURES).toHaveLength(24);
    expect(new Set(GESTURES.map((g) => g.key)).size).toBe(24);
    for (const g of GESTURES) expect(screen.getByTestId(`gesture-${g.key}`)).toBeInTheDocument();
    expect(within(screen.getByTestId('gesture-Heart_single')).getByText('单手比心')).toBeInTheDocument();
  });

  it('says so when a provider makes recognition available', async () => {
    serve([gesture({ available: true, provider: 'http', reasonCode: undefined, reason: undefined })]);
    renderApp('/gesture', SIGNED_IN);
    expect(await screen.findByTestId('gesture-available')).toBeInTheDocument();
  });

  it('is reached from the AI catalogue', async () => {
    serve([gesture({})]);
    renderApp('/ai/list', SIGNED_IN);
    const card = await screen.findByTestId('ability-gesture-recognition');
    expect(card.closest('a')).toHaveAttribute('href', '/gesture');
  });
});
