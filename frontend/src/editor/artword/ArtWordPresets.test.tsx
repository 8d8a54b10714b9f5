import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import type { OfferItem } from '@/api/catalogueOffer';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { initialUserState } from '@/auth/userSlice';
import { SIGNED_IN } from '@/test/renderApp';
import { ArtWordPresets } from './ArtWordPresets';
import { ART_WORD_STYLES } from './artWords';

function serve(items?: OfferItem[]) {
  return jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/catalogue/offer/artWord' && items) return { catalogue: 'artWord', items };
    throw new Error(`unexpected GET ${url}`);
  });
}

function show() {
  const onPick = jest.fn();
  const queryClient = makeQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false } });
  render(
    <Providers store={makeStore({ user: { ...initialUserState, ...SIGNED_IN } })} queryClient={queryClient}>
      <ArtWordPresets onPick={onPick} />
    </Providers>,
  );
  return onPick;
}

const shown = () => screen.getAllByTestId(/^artword-(?!presets)/).map((el) => el.dataset.testid?.replace('artword-', ''));
const ALL = ART_WORD_STYLES.map((s) => s.key);

afterEach(() => jest.restoreAllMocks());

describe('ArtWordPresets', () => {
  it("offers the tenant's styles in its order, without the hidden ones, those it does not name last", async () => {
    const get = serve([
      { key: 'ice', offered: true },
      { key: 'gold', offered: false },
      { key: 'neon', offered: true },
    ]);
    const onPick = show();
    await waitFor(() => expect(shown()[0]).toBe('ice'));
    expect(shown()).toEqual(['ice', 'neon', ...ALL.filter((k) => !['ice', 'gold', 'neon'].includes(k))]);
    expect(screen.queryByTestId('artword-gold')).toBeNull();
    fireEvent.click(screen.getByTestId('artword-neon'));
    expect(onPick).toHaveBeenCalledWith(ART_WORD_STYLES.find((s) => s.key === 'neon'));
    expect(get).toHaveBeenCalledWith('/catalogue/offer/artWord', undefined, { silent: true });
  });

  it('offers every style in the catalogue order when the offer cannot be read', async () => {
    const get = serve();
    show();
    await waitFor(() => expect(get).toHaveBeenCalled());
    expect(shown()).toEqual(ALL);
  });
});
