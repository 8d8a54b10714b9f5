import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { Collection } from '@/api/collection';
import { ApiError } from '@/api/errors';
import type { TemplateSummary } from '@/api/template';
import { collection } from '@/test/collectionFixtures';
import { MANAGER, renderApp } from '@/test/renderApp';
import { SYSTEM_INFO, tpl } from '@/test/templateFixtures';

const APPROVED = [tpl(7, { taskName: '清凉饮品' }), tpl(8, { taskName: '海边度假' }), tpl(9, { taskName: '夏日促销' })];

const AUDIT = [
  { actor: 'm1', action: 'publish', before: 'false', after: 'true', atMs: Date.UTC(2026, 10, 20, 2, 0, 0) },
  { actor: 'm1', action: 'create', before: '', after: '夏日专题', atMs: Date.UTC(2026, 10, 19, 2, 0, 0) },
];

/** A manager's server holding one topic; `refuse` answers a save with a refusal instead. */
function serve(stored: Collection, templates: TemplateSummary[], refuse?: string) {
  let current = stored;
  const detail = () => ({ ...current, templates: current.templateIds.map((id) => templates.find((x) => x.id === id)), audit: AUDIT });
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === `/manage/collection/${current.id}`) return detail();
    if (url === '/template/list') {
      const list = APPROVED.filter((x) => !params?.name || x.taskName.includes(String(params.name)));
      return { total: list.length, list };
    }
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
    const body = data as Record<string, unknown>;
    if (url === '/manage/collection/save') {
      if (refuse) throw new ApiError({ kind: 'business', url, code: 3000, desc: refuse, message: 'x' });
      const ids = body.templateIds as number[];
      current = { ...current, name: String(body.name), description: String(body.description), templateIds: ids, coverTemplateId: Number(body.coverTemplateId ?? 0), templateCount: ids.length };
      return detail();
    }
    throw new Error(`unexpected POST ${url}`);
  });
  return { get, post };
}

const saves = (post: jest.SpyInstance) => post.mock.calls.filter(([u]) => u === '/manage/collection/save').map(([, body]) => body as Record<string, unknown>);
const rowIds = () => screen.getAllByTestId(/^collection-template-\d+$/).map((row) => row.getAttribute('data-testid'));

const SUMMER = collection(3, { name: '夏日专题', description: '夏天用', templateIds: [7], coverTemplateId: 7, templateCount: 1, coverUrl: '/cover/7.jpg' });

jest.setTimeout(120_000);
afterEach(() => jest.restoreAllMocks());

describe('collection detail (manager)', () => {
  it('shows the name, the templates in order with covers, and the recent changes', async () => {
    serve({ ...SUMMER, templateIds: [8, 7] }, APPROVED);
    renderApp('/manage/topic/3', MANAGER);
    expect(await screen.findByTestId('collection-name-input')).toHaveValue('夏日专题');
    expect(screen.getByTestId('collection-description-input')).toHaveValue('夏天用');
    expect(rowIds()).toEqual(['collection-template-8', 'collection-template-7']);
    expect(within(screen.getByTestId('collection-template-8')).getByAltText('海边度假')).toHaveAttribute('src', '/cover/8.jpg');
    expect(screen.getByTestId('collection-cover-7')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('collection-save')).toBeDisabled();
    const audit = screen.getByTestId('collection-audit');
    expect(audit).toHaveTextContent('最近操作');
    expect(audit).toHaveTextContent('发布');
    expect(audit).toHaveTextContent('新建');
  });

  it('adds a template from the approved ones, sets it as cover, reorders and saves the whole list', async () => {
    const { post } = serve(SUMMER, APPROVED);
    renderApp('/manage/topic/3', MANAGER);
    fireEvent.click(await screen.findByTestId('collection-add-templates'));
    const picker = await screen.findByTestId('collection-picker');
    expect(await within(picker).findByTestId('collection-pick-7')).toBeDisabled();
    const search = within(within(picker).getByTestId('collection-picker-search')).getByRole('searchbox');
    fireEvent.change(search, { target: { value: '促销' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(await within(picker).findByTestId('collection-pick-9'));
    expect(within(picker).queryByTestId('collection-pick-8')).toBeNull();
    expect(within(picker).getByTestId('collection-pick-9')).toBeDisabled();
    fireEvent.click(screen.getByTestId('collection-picker-done'));

    expect(await screen.findByTestId('collection-template-9')).toHaveTextContent('夏日促销');
    fireEvent.click(screen.getByTestId('collection-cover-9'));
    expect(screen.getByTestId('collection-cover-9')).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByTestId('collection-template-up-9'));
    expect(rowIds()).toEqual(['collection-template-9', 'collection-template-7']);
    fireEvent.change(screen.getByTestId('collection-name-input'), { target: { value: '夏日专题 2026 ' } });
    expect(screen.getByTestId('collection-unsaved')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('collection-save'));
    await waitFor(() => expect(saves(post)).toHaveLength(1));
    expect(saves(post)[0]).toEqual({ id: 3, kind: 'topic', name: '夏日专题 2026', description: '夏天用', templateIds: [9, 7], coverTemplateId: 9 });
    await waitFor(() => expect(screen.queryByTestId('collection-unsaved')).toBeNull());
    expect(screen.getByTestId('collection-save')).toBeDisabled();
  });

  it('moves the cover to the first template when the cover is removed', async () => {
    const { post } = serve({ ...SUMMER, templateIds: [7, 8] }, APPROVED);
    renderApp('/manage/topic/3', MANAGER);
    fireEvent.click(await screen.findByTestId('collection-template-remove-7'));
    expect(screen.getByTestId('collection-cover-8')).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(screen.getByTestId('collection-save'));
    await waitFor(() => expect(saves(post)).toHaveLength(1));
    expect(saves(post)[0]).toMatchObject({ templateIds: [8], coverTemplateId: 8 });
  });

  it('shows the server refusal in words, naming the template', async () => {
    serve({ ...SUMMER, templateIds: [7, 8] }, [...APPROVED.slice(0, 1), tpl(8, { taskName: '海边度假', auditState: 'rejected' })], 'templateIds: 8 is not an approved template');
    renderApp('/manage/topic/3', MANAGER);
    expect(await screen.findByTestId('collection-template-8')).toHaveTextContent('已不在审核通过状态');
    fireEvent.click(screen.getByTestId('collection-template-down-7'));
    fireEvent.click(screen.getByTestId('collection-save'));
    expect(await screen.findByTestId('collection-error')).toHaveTextContent('模板“海边度假”不在审核通过状态，不能加入，请先移除它');
    expect(screen.getByTestId('collection-unsaved')).toBeInTheDocument();
  });

  it('opens a collection of another kind at its own address', async () => {
    serve(collection(4, { kind: 'case', name: '餐饮案例' }), APPROVED);
    const { router } = renderApp('/manage/topic/4', MANAGER);
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage/case/4'));
    expect(await screen.findByTestId('collection-detail-case')).toHaveTextContent('案例详情');
  });
});
