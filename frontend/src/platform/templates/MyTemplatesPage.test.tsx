import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { TemplateSummary } from '@/api/template';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { order } from '@/test/ringFixtures';
import { SYSTEM_INFO, tpl } from '@/test/templateFixtures';

function serve(all: TemplateSummary[], rings = [order(5, 1, { taskId: 70 }), order(4, -1, { taskId: 70 })]) {
  return jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/template/mine') {
      const pageNum = Number(params?.pageNum ?? 1);
      return { total: all.length, list: all.slice((pageNum - 1) * 12, pageNum * 12) };
    }
    if (url === '/ring/orders') return { total: rings.length, list: rings };
    throw new Error(`unexpected GET ${url}`);
  });
}

jest.setTimeout(120_000);
afterEach(() => jest.restoreAllMocks());

describe('MyTemplatesPage', () => {
  it('lists my submitted templates with their audit state and the rejection reason', async () => {
    const get = serve([tpl(1, { auditState: 'pending' }), tpl(2, { auditState: 'rejected', reason: '封面不清晰' }), tpl(3, { auditState: 'approved', push: true })]);
    renderApp('/mytemring', SIGNED_IN);
    const pending = await screen.findByTestId('template-1');
    expect(within(pending).getByTestId('audit-state')).toHaveTextContent('待审核');
    const rejected = screen.getByTestId('template-2');
    expect(within(rejected).getByTestId('audit-state')).toHaveTextContent('未通过');
    expect(within(rejected).getByTestId('audit-reason')).toHaveTextContent('原因：封面不清晰');
    expect(within(screen.getByTestId('template-3')).getByText('已推荐')).toBeInTheDocument();
    expect(get).toHaveBeenCalledWith('/template/mine', { pageNum: 1, pageSize: 12 });
  });

  it("shows a template's ring state when the caller ordered its task as a ringtone (the latest order)", async () => {
    serve([tpl(1, { taskId: 70 }), tpl(2, { taskId: 80 }), tpl(3)]);
    renderApp('/mytemring', SIGNED_IN);
    const rung = await screen.findByTestId('template-1');
    expect(await within(rung).findByTestId('ring-state')).toHaveTextContent('设置成功');
    expect(within(screen.getByTestId('template-2')).queryByTestId('ring-state')).toBeNull();
    expect(within(screen.getByTestId('template-3')).queryByTestId('ring-state')).toBeNull();
  });

  it('/channel-temring lists a channel distributor’s templates with their ring state', async () => {
    serve([tpl(1, { taskId: 70 })]);
    renderApp('/channel-temring', { ...SIGNED_IN, roleId: 1 });
    expect(await screen.findByTestId('channel-templates')).toHaveTextContent('渠道模板彩铃');
    const rung = await screen.findByTestId('template-1');
    expect(await within(rung).findByTestId('ring-state')).toHaveTextContent('设置成功');
    expect(screen.queryByTestId('channel-only')).toBeNull();
  });

  it('/channel-temring tells a creator the page is the channel’s', async () => {
    serve([tpl(1)]);
    renderApp('/channel-temring', { ...SIGNED_IN, roleId: 7 });
    expect(await screen.findByTestId('channel-only')).toBeInTheDocument();
  });

  it('pages by 12', async () => {
    const get = serve(Array.from({ length: 13 }, (_, i) => tpl(i + 1, { auditState: 'pending' })));
    renderApp('/mytemring', SIGNED_IN);
    await screen.findByTestId('template-1');
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByTestId('template-13')).toBeInTheDocument();
    await waitFor(() => expect(get).toHaveBeenLastCalledWith('/template/mine', { pageNum: 2, pageSize: 12 }));
  });

  it('shows the empty state when I have submitted nothing', async () => {
    serve([]);
    renderApp('/mytemring', SIGNED_IN);
    expect(await screen.findByTestId('empty-state')).toBeInTheDocument();
  });
});
