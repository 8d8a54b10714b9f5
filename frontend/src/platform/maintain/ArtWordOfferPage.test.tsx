import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import type { OfferItem } from '@/api/catalogueOffer';
import { ApiError } from '@/api/errors';
import { ART_WORD_STYLES } from '@/editor/artword/artWords';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

const ADMIN = { ...SIGNED_IN, roleId: 0 };
const CREATOR = { ...SIGNED_IN, roleId: 8 };

const KEYS = ART_WORD_STYLES.map((s) => s.key);
/** The tenant's order: the catalogue's reversed, gold hidden. */
const OFFER: OfferItem[] = [...KEYS].reverse().map((key) => ({ key, offered: key !== 'gold' }));

function serve(items: OfferItem[] = OFFER, post: (url: string, body: unknown) => unknown = (_url, body) => body) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/catalogue/offer/artWord') return { catalogue: 'artWord', items };
    if (url === '/maintain/audit') return [];
    throw new Error(`unexpected GET ${url}`);
  });
  const sent = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => post(url, body));
  return { get, post: sent };
}

const rows = () => screen.getAllByTestId(/^offer-name-/).map((el) => el.dataset.testid?.replace('offer-name-', ''));

afterEach(() => jest.restoreAllMocks());

describe('ArtWordOfferPage', () => {
  it('is for administrators only', async () => {
    serve();
    renderApp('/eb-maintain/artfont', CREATOR);
    expect(await screen.findByTestId('login-expired')).toBeInTheDocument();
  });

  it("lists the styles in the tenant's order, each drawn as the editor draws it, with the audit trail", async () => {
    const { get } = serve();
    renderApp('/eb-maintain/artfont', ADMIN);
    expect(await screen.findByRole('heading', { name: '艺术字维护' })).toBeInTheDocument();
    await waitFor(() => expect(rows()).toEqual([...KEYS].reverse()));
    expect(screen.getByTestId('offer-name-gold')).toHaveTextContent('鎏金');
    expect(screen.getByTestId('offer-switch-gold')).not.toBeChecked();
    expect(screen.getByTestId('offer-switch-ice')).toBeChecked();
    expect(screen.getByTestId('offer-preview-ice').querySelector('[data-testid="layer-artword"]')).toHaveTextContent('艺术字');
    expect(await screen.findByText('暂无操作记录')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/maintain/audit', { item: 'catalogue:artWord' });
  });

  it('saves the whole list in the new order with the offered flags', async () => {
    const { post } = serve();
    renderApp('/eb-maintain/artfont', ADMIN);
    fireEvent.click(await screen.findByTestId('offer-switch-gold'));
    fireEvent.click(screen.getByTestId('offer-switch-fire'));
    fireEvent.click(screen.getByTestId('offer-up-gold'));
    fireEvent.click(screen.getByTestId('offer-down-ice'));
    const order = [...KEYS].reverse();
    [order[0], order[1]] = [order[1] as string, order[0] as string];
    const g = order.indexOf('gold');
    [order[g - 1], order[g]] = [order[g] as string, order[g - 1] as string];
    expect(rows()).toEqual(order);
    fireEvent.click(screen.getByTestId('offer-save'));
    expect(await screen.findByText('修改成功')).toBeInTheDocument();
    expect(post).toHaveBeenCalledTimes(1);
    expect(post).toHaveBeenCalledWith('/maintain/catalogue/offer', { catalogue: 'artWord', items: order.map((key) => ({ key, offered: key !== 'fire' })) }, { silent: true });
  });

  it('cannot save with every style hidden', async () => {
    const { post } = serve();
    renderApp('/eb-maintain/artfont', ADMIN);
    await screen.findByTestId('offer-switch-ice');
    for (const key of KEYS) if (key !== 'gold') fireEvent.click(screen.getByTestId(`offer-switch-${key}`));
    expect(screen.getByTestId('offer-save')).toBeDisabled();
    expect(screen.getByTestId('offer-none-hint')).toHaveTextContent('至少要提供一项才能保存');
    fireEvent.click(screen.getByTestId('offer-save'));
    expect(post).not.toHaveBeenCalled();
  });

  it("shows a refusal's reason in words", async () => {
    serve(OFFER, (url) => {
      throw new ApiError({ kind: 'business', url, code: 3000, desc: 'items: at least one entry must stay offered', message: 'x' });
    });
    renderApp('/eb-maintain/artfont', ADMIN);
    fireEvent.click(await screen.findByTestId('offer-switch-gold'));
    fireEvent.click(screen.getByTestId('offer-save'));
    expect(await screen.findByTestId('offer-error')).toHaveTextContent('至少要提供一项才能保存');
  });
});
