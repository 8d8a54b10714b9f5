import { screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { Collection } from '@/api/collection';
import { ApiError } from '@/api/errors';
import type { TaskSummary } from '@/api/videoTask';
import { collection } from '@/test/collectionFixtures';
import { MANAGER, renderApp, SIGNED_IN } from '@/test/renderApp';
import { tpl } from '@/test/templateFixtures';
import { TOOL_TYPES } from '@/test/toolboxFixtures';
import { shortcutTools } from './ToolShortcuts';

const work = (id: number) => ({ id, taskName: `作品${id}`, status: 10, reason: '', videoUrl: '', coverUrl: '' }) as TaskSummary;

/** The home page's own calls: none is answered until all are asked, so a waterfall never loads. */
const SECTIONS = ['/videotask/mine', '/template/list', '/toolbox/types'];

function mockServer(pending = 3, topics: Collection[] = []) {
  const asked = new Set<string>();
  let release: () => void = () => {};
  const allAsked = new Promise<void>((resolve) => (release = resolve));
  return jest.spyOn(api, 'get').mockImplementation(async (url: string, params?: Record<string, unknown>) => {
    if (SECTIONS.includes(url)) {
      asked.add(url);
      if (asked.size === SECTIONS.length) release();
      await allAsked;
    }
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/template/list') return { total: 2, list: [tpl(7, { taskName: '新品上市' }), tpl(8)] };
    if (url === '/videotask/mine') return { total: 1, list: [work(3)] };
    if (url === '/toolbox/types') return { dataList: TOOL_TYPES };
    if (url === '/template/check') return { total: params?.state === 'pending' ? pending : 0, list: [] };
    if (url === '/collection/list') return topics;
    throw new Error(`unexpected GET ${url}`);
  });
}

beforeEach(() => {
  jest.spyOn(api, 'stream').mockRejectedValue(new ApiError({ kind: 'http', url: '/videotask/events', status: 404, message: '404' }));
  jest.spyOn(api, 'post').mockResolvedValue({ ticket: 'tk', expiresInSeconds: 600 });
});
afterEach(() => jest.restoreAllMocks());
jest.setTimeout(60_000);

describe('shortcutTools', () => {
  it('keeps the shown tools, the usable ones first, at most the limit', () => {
    const tools = shortcutTools(TOOL_TYPES, 7);
    expect(tools).toHaveLength(7);
    expect(tools.map((x) => x.path)).not.toContain('ai-extract-portrait');
    expect(tools[6]!.path).toBe('intelligent-beauty');
    expect(shortcutTools(TOOL_TYPES, 2).map((x) => x.path)).toEqual(['extract-audio', 'video-to-gif']);
  });
});

describe('the home page', () => {
  it('signed in: recent works, newest templates and tools, all asked at once', async () => {
    const get = mockServer();
    renderApp('/', SIGNED_IN);
    expect(await screen.findByTestId('recent-work-3')).toHaveAttribute('href', '/diy?taskId=3');
    await waitFor(() => expect(within(screen.getByTestId('featured-templates')).getByText('新品上市')).toBeInTheDocument());
    expect(await screen.findByTestId('home-tool-video-compress')).toHaveAttribute('href', '/tools/video-compress');
    expect(screen.getByTestId('home-tool-intelligent-beauty')).toHaveAttribute('data-available', 'false');
    expect(screen.queryByTestId('home-review')).toBeNull();
    expect(get).not.toHaveBeenCalledWith('/template/check', expect.anything());
  });

  it('for a template manager: how many templates wait for review, linking to the check list', async () => {
    mockServer(3);
    renderApp('/', MANAGER);
    const review = await screen.findByTestId('home-review');
    expect(review).toHaveTextContent('有 3 个模板等待审核');
    expect(within(review).getByTestId('home-review-link').closest('a')).toHaveAttribute('href', '/manage/check-template/pending');
  });

  it('shows the published topics with cover, name and size, each leading to its templates on the picker', async () => {
    const get = mockServer(0, [
      collection(1, { name: '夏日专题', published: true, coverUrl: '/cover/7.jpg', templateCount: 2 }),
      collection(2, { name: '新年专题', published: true, templateCount: 5, position: 1 }),
    ]);
    renderApp('/', SIGNED_IN);
    const topics = await screen.findByTestId('home-topics');
    expect(topics).toHaveTextContent('专题');
    expect(get).toHaveBeenCalledWith('/collection/list', { kind: 'topic' }, { silent: true });
    const summer = within(topics).getByTestId('home-topic-1');
    expect(summer).toHaveAttribute('href', '/template-select?collection=1');
    expect(summer).toHaveTextContent('夏日专题');
    expect(summer).toHaveTextContent('2 个模板');
    expect(within(summer).getByAltText('夏日专题')).toHaveAttribute('src', '/cover/7.jpg');
    expect(within(topics).getByTestId('home-topic-2')).toHaveTextContent('新年专题');
  });

  it('leaves the topics out while none is published', async () => {
    mockServer(0, []);
    renderApp('/', SIGNED_IN);
    await waitFor(() => expect(within(screen.getByTestId('featured-templates')).getByText('新品上市')).toBeInTheDocument());
    expect(screen.queryByTestId('home-topics')).toBeNull();
  });

  it('signed out: the area cards only, nothing of a tenant asked', async () => {
    const get = mockServer();
    renderApp('/');
    expect(await screen.findByTestId('area-editor')).toBeInTheDocument();
    expect(screen.queryByTestId('recent-works')).toBeNull();
    expect(get).not.toHaveBeenCalledWith('/videotask/mine', expect.anything());
    expect(get).not.toHaveBeenCalledWith('/collection/list', expect.anything(), expect.anything());
  });
});
