import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import { applyLanguage } from '@/app/i18n';
import { ApiError } from '@/api/errors';
import type { PhoneAnswer, RingOrder, RingReport, RingViolation } from '@/api/ring';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { CONFORMS, finishedWork, LOUD_AND_LONG, order, QS_PROFILE } from '@/test/ringFixtures';

interface Scenario {
  report?: RingReport;
  phone?: (phone: string) => PhoneAnswer | Error;
  saveRing?: (body: Record<string, unknown>) => RingOrder | Error;
  orders?: RingOrder[];
  /** The answer of /ring/check with a fixId (the fixed video's check). */
  fixedReport?: RingReport;
  /** The fix run's states, one per ask of /videotask/state (the last repeats). */
  fixStates?: { status: number; percent: number; reason?: string }[];
}

const refusal = (reason: string, extra: Record<string, unknown> = {}) =>
  new ApiError({ kind: 'business', url: '/platform/saveRing', code: 3000, desc: reason, message: reason, data: { reason, ...extra } });

function serve({ report = CONFORMS, phone, saveRing, orders = [], fixedReport = CONFORMS, fixStates = [] }: Scenario = {}) {
  const states = [...fixStates];
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/category/taskvideo') return { dataList: [] };
    if (url === '/videotask/mine') return { total: 1, list: [finishedWork(7)] };
    if (url === '/ring/profile') return QS_PROFILE;
    if (url === '/ring/orders') return { total: orders.length, list: orders };
    if (url === '/videotask/state') {
      const next = states.length > 1 ? states.shift() : states[0];
      return { taskId: 40, videoRelativePath: '', stage: 'rendering', reason: '', ...next };
    }
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    if (url === '/videotask/mediaTicket') return { ticket: 'tk', expiresInSeconds: 600 };
    if (url === '/ring/check') return body.fixId === undefined ? report : fixedReport;
    if (url === '/ring/fix') return { fixId: '40', jobId: 'j-40' };
    if (url === '/material/v2/ifdownloadbyphone') {
      const answer = phone ? phone(String(body.phone)) : { phone: String(body.phone), allowed: true, state: 0, reason: '' };
      if (answer instanceof Error) throw answer;
      return answer;
    }
    if (url === '/platform/saveRing') {
      const made = saveRing ? saveRing(body) : order(31, 0, { taskId: 7, phone: String(body.phone) });
      if (made instanceof Error) throw made;
      return made;
    }
    if (url === '/material/ringUpload') return order(Number(body.orderId), 2, { taskId: 7 });
    throw new Error(`unexpected POST ${url}`);
  });
  jest.spyOn(api, 'stream').mockImplementation(() => new Promise(() => undefined));
  return { get, post };
}

/** The events stream refused, so the fix's progress is polled from /videotask/state. */
function pollProgress() {
  jest.spyOn(api, 'stream').mockRejectedValue(refusal('not_a_stream'));
}

function posts(post: jest.SpyInstance, url: string) {
  return post.mock.calls.filter(([u]) => u === url).map(([, body]) => body as Record<string, unknown>);
}

async function openModal() {
  renderApp('/mydiyring', SIGNED_IN);
  fireEvent.click(await screen.findByTestId('set-ring-7'));
  return screen.findByTestId('ring-form');
}

function enterPhone(value: string) {
  fireEvent.change(screen.getByTestId('ring-phone'), { target: { value } });
  fireEvent.click(screen.getByTestId('ring-phone-ask'));
}

jest.setTimeout(120_000);

/** The fixable violation of LOUD_AND_LONG. */
const LOUD: RingViolation = { rule: 'loudness', measured: -9.8, limit: -14, message: 'loudness -9.8 LUFS above -14', fixable: true };
afterEach(() => jest.restoreAllMocks());

describe('the ring-setting modal', () => {
  it('opens from a finished work and shows the check, the in-call preview with its safe zones and the video', async () => {
    const { post } = serve();
    await openModal();
    expect(await screen.findByTestId('ring-violations-ok')).toHaveTextContent('符合运营商的视频彩铃规格');
    expect(posts(post, '/ring/check')).toEqual([{ taskId: 7 }]);
    expect(await screen.findByTestId('safe-zone-top')).toHaveTextContent('来电信息区 22%');
    expect(screen.getByTestId('safe-zone-bottom')).toHaveTextContent('接听按钮区 24%');
    expect(screen.getByTestId('call-answer')).toHaveTextContent('接听');
    expect(screen.getByTestId('call-decline')).toHaveTextContent('挂断');
    const video = await screen.findByTestId('in-call-video');
    expect(video).toHaveAttribute('src', '/diyvrbt/videotask/download?taskId=7&ticket=tk');
    expect((video as HTMLVideoElement).muted).toBe(true);
    expect(video).toHaveAttribute('loop');
  });

  it('words each violation with its measured value and limit, and marks the fixable ones', async () => {
    serve({ report: LOUD_AND_LONG });
    await openModal();
    const list = await screen.findByTestId('ring-violations');
    expect(list).toHaveTextContent('有 2 项不符合运营商的规格');
    const loud = within(list).getByTestId('violation-loudness');
    expect(loud).toHaveTextContent('响度 −9.8 LUFS，上限 −14 LUFS');
    expect(within(loud).getByTestId('violation-fixable')).toBeInTheDocument();
    const long = within(list).getByTestId('violation-duration');
    expect(long).toHaveTextContent('时长 75 s，上限 60 s');
    expect(within(long).queryByTestId('violation-fixable')).toBeNull();
  });

  it('words the violations and the safe zones in English too, with the plural', async () => {
    serve({ report: LOUD_AND_LONG });
    await act(() => applyLanguage('en-US'));
    try {
      await openModal();
      const list = await screen.findByTestId('ring-violations');
      expect(list).toHaveTextContent('2 rules of the carrier’s profile are not met');
      expect(within(list).getByTestId('violation-loudness')).toHaveTextContent('Loudness −9.8 LUFS, the limit is −14 LUFS');
      expect(within(list).getByTestId('violation-duration')).toHaveTextContent('Duration 75 s, the limit is 60 s');
      expect(await screen.findByTestId('safe-zone-top')).toHaveTextContent('Caller info 22%');
      expect(screen.getByTestId('ring-modal-title')).toHaveTextContent('Set as video ringtone: 作品7');
    } finally {
      await act(() => applyLanguage('zh-CN'));
    }
  });

  it.each([
    [{ phone: '13800138000', allowed: true, state: 0, reason: '' }, 'ok', '此号码可以设置视频彩铃'],
    [{ phone: '13900000000', allowed: false, state: -2, reason: 'phone_not_joined' }, 'notJoined', '此号码未开通视频彩铃业务'],
    [{ phone: '123', allowed: false, state: -1, reason: 'phone_invalid' }, 'invalid', '这不是中国大陆的手机号码'],
  ])('shows the server answer about the number (%#)', async (answer, verdict, text) => {
    const { post } = serve({ phone: () => answer });
    await openModal();
    enterPhone(answer.phone);
    const shown = await screen.findByTestId('ring-phone-answer');
    expect(shown).toHaveAttribute('data-verdict', verdict);
    expect(shown).toHaveTextContent(text);
    expect(posts(post, '/material/v2/ifdownloadbyphone').at(-1)).toEqual({ phone: answer.phone });
  });

  it('shows a refused number answered as a failure by its reason', async () => {
    serve({ phone: () => refusal('phone_invalid') });
    await openModal();
    enterPhone('abc');
    expect(await screen.findByTestId('ring-phone-answer')).toHaveTextContent('这不是中国大陆的手机号码');
  });

  it('needs the copyright statement before anything is sent', async () => {
    const { post } = serve();
    await openModal();
    enterPhone('13800138000');
    await screen.findByTestId('ring-phone-answer');
    fireEvent.click(screen.getByTestId('ring-submit'));
    expect(await screen.findByText('请先勾选版权声明')).toBeInTheDocument();
    expect(posts(post, '/platform/saveRing')).toHaveLength(0);
  });

  it('fixes a video whose broken rules are all fixable, follows the run, checks and orders the fixed video', async () => {
    const loud: RingReport = { conforms: false, violations: [LOUD, { rule: 'size', measured: '1280x720', limit: '1080x1920', message: 'size', fixable: true }] };
    const { post } = serve({ report: loud, fixStates: [{ status: 1, percent: 40 }, { status: 10, percent: 100 }] });
    pollProgress();
    await openModal();
    expect(await screen.findByTestId('ring-fix-button')).toHaveTextContent('一键修复');
    fireEvent.click(screen.getByTestId('ring-fix-button'));
    await waitFor(() => expect(screen.getByTestId('ring-fix-progress')).toHaveTextContent('正在修复… 40%'), { timeout: 5000 });
    expect(posts(post, '/ring/fix')).toEqual([{ taskId: 7 }]);
  });

  it('checks the fixed video once the run succeeded and orders it with its fixId', async () => {
    const { post } = serve({ report: { conforms: false, violations: [LOUD] }, fixStates: [{ status: 10, percent: 100 }] });
    pollProgress();
    await openModal();
    fireEvent.click(await screen.findByTestId('ring-fix-button'));
    expect(await screen.findByTestId('ring-fix-done', {}, { timeout: 5000 })).toHaveTextContent('已修复');
    expect(await screen.findByTestId('ring-violations-ok')).toBeInTheDocument();
    expect(posts(post, '/ring/check')).toContainEqual({ taskId: 7, fixId: 40 });
    enterPhone('13800138000');
    await screen.findByTestId('ring-phone-answer');
    fireEvent.click(screen.getByTestId('ring-agree'));
    fireEvent.click(screen.getByTestId('ring-submit'));
    expect(await screen.findByTestId('ring-result-title')).toBeInTheDocument();
    expect(posts(post, '/platform/saveRing')).toEqual([{ taskId: 7, phone: '13800138000', copyrightAgreed: true, fixId: 40 }]);
  });

  it('offers no fix when a broken rule is not fixable', async () => {
    serve({ report: LOUD_AND_LONG });
    await openModal();
    await screen.findByTestId('ring-violations');
    expect(screen.queryByTestId('ring-fix-button')).toBeNull();
  });

  it('submits saveRing then ringUpload and shows the order waiting to be set', async () => {
    const { post } = serve({ orders: [] });
    await openModal();
    enterPhone('13800138000');
    await screen.findByTestId('ring-phone-answer');
    fireEvent.click(screen.getByTestId('ring-agree'));
    fireEvent.click(screen.getByTestId('ring-submit'));
    expect(await screen.findByTestId('ring-result-title')).toHaveTextContent('已提交，等待设置');
    const order = post.mock.calls.map(([u]) => u).filter((u) => u === '/platform/saveRing' || u === '/material/ringUpload');
    expect(order).toEqual(['/platform/saveRing', '/material/ringUpload']);
    expect(posts(post, '/platform/saveRing')).toEqual([{ taskId: 7, phone: '13800138000', copyrightAgreed: true }]);
    expect(posts(post, '/material/ringUpload')).toEqual([{ orderId: 31 }]);
    expect(screen.getByTestId('ring-state')).toHaveTextContent('已提交，等待设置');
    expect(screen.getByTestId('ring-to-mine')).toHaveAttribute('href', '/mydiyring?tab=ringtones');
  });

  it('asks about a number not asked yet when the form is sent, once, and stops on a refused number', async () => {
    const { post } = serve({ phone: (p) => ({ phone: p, allowed: false, state: -2, reason: 'phone_not_joined' }) });
    await openModal();
    const field = screen.getByTestId('ring-phone');
    fireEvent.change(field, { target: { value: '13900000000' } });
    fireEvent.click(screen.getByTestId('ring-agree'));
    // Leaving the field asks; the click on submit right after waits for that answer.
    fireEvent.blur(field);
    fireEvent.click(screen.getByTestId('ring-submit'));
    expect(await screen.findByTestId('ring-phone-answer')).toHaveTextContent('此号码未开通视频彩铃业务');
    expect(posts(post, '/material/v2/ifdownloadbyphone')).toHaveLength(1);
    expect(posts(post, '/platform/saveRing')).toHaveLength(0);
  });

  it('keeps every value when the server refuses, and words the refusal', async () => {
    let refuse = true;
    const { post } = serve({ saveRing: (body) => (refuse ? refusal('copyright_missing') : order(32, 0, { phone: String(body.phone) })) });
    await openModal();
    enterPhone('13800138000');
    await screen.findByTestId('ring-phone-answer');
    fireEvent.click(screen.getByTestId('ring-agree'));
    fireEvent.click(screen.getByTestId('ring-submit'));
    expect(await screen.findByTestId('ring-submit-error')).toHaveTextContent('请先勾选版权声明');
    expect(posts(post, '/material/ringUpload')).toHaveLength(0);
    expect(screen.getByTestId('ring-phone')).toHaveValue('13800138000');
    expect(within(screen.getByTestId('ring-form')).getByRole('checkbox')).toBeChecked();
    // Sent again as it stands, it goes through.
    refuse = false;
    fireEvent.click(screen.getByTestId('ring-submit'));
    expect(await screen.findByTestId('ring-result-title')).toHaveTextContent('已提交，等待设置');
    expect(posts(post, '/platform/saveRing')).toHaveLength(2);
  });

  it('lists the broken rules of a profile_violation refusal', async () => {
    serve({ saveRing: () => refusal('profile_violation', { violations: LOUD_AND_LONG.violations }) });
    await openModal();
    enterPhone('13800138000');
    await screen.findByTestId('ring-phone-answer');
    fireEvent.click(screen.getByTestId('ring-agree'));
    fireEvent.click(screen.getByTestId('ring-submit'));
    const error = await screen.findByTestId('ring-submit-error');
    expect(error).toHaveTextContent('视频不符合运营商的彩铃规格');
    expect(within(error).getByTestId('violation-loudness')).toHaveTextContent('响度 −9.8 LUFS，上限 −14 LUFS');
  });
});
