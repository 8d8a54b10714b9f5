import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import '@/app/i18n';
import type { OfferItem } from '@/api/catalogueOffer';
import { ApiError } from '@/api/errors';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { maintainErrorText } from './maintainErrors';

const ADMIN = { ...SIGNED_IN, roleId: 0 };
const CREATOR = { ...SIGNED_IN, roleId: 8 };

const KEYS = CATALOGUE.animations.map((a) => a.key);
/** The tenant's order: bounce-up first, the fade in hidden, everything else as the catalogue lists it. */
const OFFER: OfferItem[] = [
  { key: 'MOTIONIN_BOUNCE_UP', offered: true },
  ...KEYS.filter((k) => k !== 'MOTIONIN_BOUNCE_UP').map((key) => ({ key, offered: key !== 'MOTIONIN_OPACITY' })),
];

function serve(items: OfferItem[] = OFFER, post: (url: string, body: { catalogue: string; items: OfferItem[] }) => unknown = (_url, body) => body) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/catalogue/offer/animation') return { catalogue: 'animation', items };
    if (url === '/maintain/audit') return [{ actor: 'admin1', action: 'catalogue', item: 'catalogue:animation', before: '', after: 'MOTIONIN_OPACITY', time: '2025-01-01 10:00:00' }];
    throw new Error(`unexpected GET ${url}`);
  });
  const sent = jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => post(url, body as { catalogue: string; items: OfferItem[] }));
  return { get, post: sent };
}

/** The keys of a section's rows, top to bottom. */
const rowsOf = (section: 'in' | 'out') =>
  within(screen.getByTestId(`offer-section-${section}`))
    .getAllByTestId(/^offer-name-/)
    .map((el) => el.dataset.testid?.replace('offer-name-', ''));

afterEach(() => jest.restoreAllMocks());

describe('AnimationOfferPage', () => {
  it('is for administrators only', async () => {
    serve();
    renderApp('/eb-maintain/animation', CREATOR);
    expect(await screen.findByTestId('login-expired')).toBeInTheDocument();
  });

  it("lists the in and the out animations in the tenant's order with what each is offered, and the audit trail", async () => {
    const { get } = serve();
    renderApp('/eb-maintain/animation', ADMIN);
    expect(await screen.findByRole('heading', { name: '动画维护' })).toBeInTheDocument();
    await waitFor(() => expect(rowsOf('in')[0]).toBe('MOTIONIN_BOUNCE_UP'));
    expect(rowsOf('in')).toEqual(['MOTIONIN_BOUNCE_UP', ...KEYS.filter((k) => k.startsWith('MOTIONIN_') || (k.startsWith('PYTHONERASE_') && !k.endsWith('_OUT'))).filter((k) => k !== 'MOTIONIN_BOUNCE_UP')]);
    expect(rowsOf('out')).toEqual(KEYS.filter((k) => k.startsWith('MOTIONOUT_') || k.endsWith('_OUT')));
    expect(screen.getByTestId('offer-name-MOTIONIN_BOUNCE_UP')).toHaveTextContent('向上弹入');
    expect(screen.getByTestId('offer-switch-MOTIONIN_OPACITY')).not.toBeChecked();
    expect(screen.getByTestId('offer-switch-MOTIONIN_BOUNCE_UP')).toBeChecked();
    expect(screen.getByTestId('offer-preview-MOTIONIN_BOUNCE_UP')).toBeInTheDocument();
    expect(screen.getByTestId('offer-up-MOTIONIN_BOUNCE_UP')).toBeDisabled();
    expect(screen.getByTestId('offer-down-PYTHONERASE_DOWN')).toBeDisabled();
    expect(await screen.findByText('admin1')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/maintain/audit', { item: 'catalogue:animation' });
    expect(get).toHaveBeenCalledWith('/catalogue/offer/animation', undefined, { silent: true });
  });

  it('saves the whole list in the new order with the offered flags, once', async () => {
    const { get, post } = serve();
    renderApp('/eb-maintain/animation', ADMIN);
    fireEvent.click(await screen.findByTestId('offer-switch-MOTIONIN_OPACITY'));
    fireEvent.click(screen.getByTestId('offer-switch-MOTIONIN_MOVE_LEFT'));
    fireEvent.click(screen.getByTestId('offer-down-MOTIONIN_BOUNCE_UP'));
    // Moves stay inside a part: the first out-animation goes up past the out-animation above it only.
    fireEvent.click(screen.getByTestId('offer-up-MOTIONOUT_MOVE_LEFT'));
    expect(rowsOf('in').slice(0, 2)).toEqual(['MOTIONIN_OPACITY', 'MOTIONIN_BOUNCE_UP']);
    expect(rowsOf('out').slice(0, 2)).toEqual(['MOTIONOUT_MOVE_LEFT', 'MOTIONOUT_OPACITY']);
    const auditReads = get.mock.calls.filter(([url]) => url === '/maintain/audit').length;
    fireEvent.click(screen.getByTestId('offer-save'));
    expect(await screen.findByText('修改成功')).toBeInTheDocument();
    expect(post).toHaveBeenCalledTimes(1);
    const order = ['MOTIONIN_OPACITY', 'MOTIONIN_BOUNCE_UP', ...KEYS.filter((k) => !['MOTIONIN_OPACITY', 'MOTIONIN_BOUNCE_UP'].includes(k))];
    const iOut = order.indexOf('MOTIONOUT_OPACITY');
    order.splice(iOut, 2, 'MOTIONOUT_MOVE_LEFT', 'MOTIONOUT_OPACITY');
    expect(post).toHaveBeenCalledWith(
      '/maintain/catalogue/offer',
      { catalogue: 'animation', items: order.map((key) => ({ key, offered: key !== 'MOTIONIN_MOVE_LEFT' })) },
      { silent: true },
    );
    await waitFor(() => expect(get.mock.calls.filter(([url]) => url === '/maintain/audit').length).toBeGreaterThan(auditReads));
  });

  it('cannot save with nothing offered', async () => {
    const { post } = serve(KEYS.map((key) => ({ key, offered: key === 'MOTIONOUT_OPACITY' })));
    renderApp('/eb-maintain/animation', ADMIN);
    fireEvent.click(await screen.findByTestId('offer-switch-MOTIONOUT_OPACITY'));
    expect(screen.getByTestId('offer-save')).toBeDisabled();
    expect(screen.getByTestId('offer-none-hint')).toHaveTextContent('至少要提供一项才能保存');
    fireEvent.click(screen.getByTestId('offer-save'));
    fireEvent.click(screen.getByTestId('offer-switch-MOTIONIN_MOVE_UP'));
    expect(screen.getByTestId('offer-save')).toBeEnabled();
    expect(screen.queryByTestId('offer-none-hint')).toBeNull();
    expect(post).not.toHaveBeenCalled();
  });

  it("shows a refusal's reason in words", async () => {
    serve(OFFER, (url) => {
      throw new ApiError({ kind: 'business', url, code: 3000, desc: 'items: `MOTIONIN_FLY` is missing', message: 'x' });
    });
    renderApp('/eb-maintain/animation', ADMIN);
    fireEvent.click(await screen.findByTestId('offer-switch-MOTIONIN_OPACITY'));
    fireEvent.click(screen.getByTestId('offer-save'));
    expect(await screen.findByTestId('offer-error')).toHaveTextContent('缺少「MOTIONIN_FLY」，请刷新页面后重试');
    expect(screen.queryByText('修改成功')).toBeNull();
    // The edit stays, to be saved again.
    expect(screen.getByTestId('offer-switch-MOTIONIN_OPACITY')).toBeChecked();
  });

  it.each([
    ['items: `NOPE` is not an entry of animation', '「NOPE」不是动画中的条目，请刷新页面后重试'],
    ['items: `FADE_IN` is named twice', '「FADE_IN」出现了两次，请刷新页面后重试'],
    ['items: `ice` is missing', '缺少「ice」，请刷新页面后重试'],
    ['items: at least one entry must stay offered', '至少要提供一项才能保存'],
    ['catalogue: `xyz` is not animation or artWord', '未知的目录「xyz」'],
  ])('words the refusal %s', (desc, text) => {
    expect(maintainErrorText(new ApiError({ kind: 'business', url: '/maintain/catalogue/offer', code: 3000, desc, message: 'x' }))).toBe(text);
  });
});
