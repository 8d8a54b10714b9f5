import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { api } from '@/api/client';
import { queryKeys } from '@/api/keys';
import { TaskStatus, type TaskState } from '@/api/videoTask';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { RunModal } from './RunModal';

function state(status: number, percent: number, etaSeconds = 0): TaskState {
  return { taskId: 7, status, percent, stage: status === TaskStatus.success ? 'done' : 'rendering', framesDone: 0, framesTotal: 0, etaSeconds, videoRelativePath: '', reason: '' };
}

function renderModal() {
  // The progress stream stays open and silent: the test sets the state the stream would bring.
  jest.spyOn(api, 'stream').mockImplementation(() => new Promise(() => undefined));
  const queryClient = makeQueryClient();
  render(
    <Providers store={makeStore()} queryClient={queryClient}>
      <MemoryRouter>
        <RunModal taskId={7} taskName="未命名" onClose={() => undefined} />
      </MemoryRouter>
    </Providers>,
  );
  return (s: TaskState) => act(() => void queryClient.setQueryData(queryKeys.videoTask.state(7), s));
}

afterEach(() => jest.restoreAllMocks());

describe('RunModal', () => {
  it('is centred, so the toasts at the top of the page never cover its text', async () => {
    renderModal();
    await screen.findByTestId('run-title');
    expect(document.querySelector('.ant-modal-wrap')).toHaveClass('ant-modal-centered');
  });

  it('promises no fixed time: the time left shows only when the farm reports one', async () => {
    const set = renderModal();
    set(state(TaskStatus.executing, 40));
    await screen.findByTestId('task-progress');
    expect(screen.getByRole('dialog')).not.toHaveTextContent(/3-5|分钟/);
    expect(screen.queryByTestId('task-eta')).toBeNull();
    set(state(TaskStatus.executing, 60, 4));
    expect(await screen.findByTestId('task-eta')).toHaveTextContent('0:04');
  });

  it('changes its title when the render ends', async () => {
    const set = renderModal();
    set(state(TaskStatus.executing, 90));
    expect(await screen.findByTestId('run-title')).toHaveTextContent('视频生成中');
    set(state(TaskStatus.success, 100));
    await waitFor(() => expect(screen.getByTestId('run-title')).toHaveTextContent('视频已生成'));
    expect(screen.getByTestId('run-play')).toBeInTheDocument();
    // A finished work can become the ringtone from here.
    expect(screen.getByTestId('set-ring-7')).toHaveTextContent('设为视频彩铃');
    set(state(TaskStatus.error, 100));
    await waitFor(() => expect(screen.getByTestId('run-title')).toHaveTextContent('视频生成失败'));
  });
});
