import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import type { SmartTask } from '@/api/aitask';
import { renderEditor } from '@/test/renderApp';
import { ModeBar } from './ModeBar';
import { SmartTaskView } from './SmartClipsPanel';

jest.setTimeout(60_000);
afterEach(() => jest.restoreAllMocks());

const task = (over: Partial<SmartTask>): SmartTask => ({
  id: 3,
  industryId: 7,
  state: 'waiting',
  status: 0,
  progress: 0,
  reason: '',
  materialIds: ['m-1'],
  aiCutedIds: [],
  ranges: [],
  src: '',
  cover: '',
  ...over,
});

describe('smart clips in the AI template mode', () => {
  it('offers smart clips in the AI template mode only', async () => {
    jest.spyOn(api, 'get').mockResolvedValue({ dataList: [] });
    jest.spyOn(api, 'post').mockResolvedValue({ dataList: [], total: 0 });
    renderEditor(<ModeBar save={async () => 1} />, { usedFor: 'AI_TEMPLATE' });
    fireEvent.click(screen.getByTestId('smart-clips'));
    expect(await screen.findByTestId('smart-clips-drawer')).toHaveTextContent('未使用 AI 模型');
    expect(screen.getByTestId('smart-task-start')).toBeDisabled();
  });

  it('has no smart clips in a plain work', () => {
    jest.spyOn(api, 'get').mockResolvedValue([]);
    renderEditor(<ModeBar save={async () => 1} />, { usedFor: 'ALL' });
    expect(screen.queryByTestId('smart-clips')).toBeNull();
  });

  it('reads the task until it is done, then says how many clips became materials and where they came from', async () => {
    const post = jest
      .spyOn(api, 'post')
      .mockResolvedValueOnce(task({ state: 'running', status: 1, progress: 40 }))
      .mockResolvedValue(task({ state: 'done', status: 10, progress: 100, aiCutedIds: ['c-1', 'c-2'], ranges: [{ startMs: 800, endMs: 2_000 }, { startMs: 2_000, endMs: 2_800 }] }));
    renderEditor(<SmartTaskView id={3} />, { usedFor: 'AI_TEMPLATE' });
    expect(await screen.findByText('正在剪辑…')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('smart-task')).toHaveAttribute('data-state', 'done'), { timeout: 5_000 });
    expect(screen.getByTestId('smart-task-done')).toHaveTextContent('2 个片段已加入我的素材');
    expect(screen.getByTestId('smart-task-ranges')).toHaveTextContent('0:00.8–0:02.0, 0:02.0–0:02.8');
    expect(post).toHaveBeenCalledWith('/aitask/get', { id: 3 });
  });
});
