import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, type RequestOptions } from '@/api/client';
import type { MaterialQuota } from '@/api/quotaUsage';
import { applyLanguage } from '@/app/i18n';
import { ApiError } from '@/api/errors';
import type { Material } from '@/api/material';
import { material, page } from '@/test/materials';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

const CATEGORIES = {
  dataList: [{ categoryId: 1, categoryName: '行业', dimension: 'industry', higherUpId: -1, push: false, children: [{ categoryId: 11, categoryName: '餐饮', dimension: 'industry', higherUpId: 1, push: false }] }],
};

type PostHandler = (url: string, body: Record<string, unknown>, options?: Partial<RequestOptions>) => unknown;

const QUOTA: MaterialQuota = {
  usedBytes: 1.2 * 1024 ** 3,
  limitBytes: 5 * 1024 ** 3,
  materials: 37,
  limitMaterials: 2000,
  tenantUsedBytes: 0,
  tenantLimitBytes: 0,
  tenantMaterials: 0,
  tenantLimitMaterials: 0,
};

function serve(pages: (body: Record<string, unknown>) => unknown, extra: PostHandler = () => undefined, quota: () => MaterialQuota = () => QUOTA) {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/category/taskvideo') return CATEGORIES;
    if (url === '/material/quota') return quota();
    throw new Error(`unexpected GET ${url}`);
  });
  return jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown, options?: Partial<RequestOptions>) => {
    const body = (data ?? {}) as Record<string, unknown>;
    if (url === '/material/ofuser') return pages(body);
    const answer = await extra(url, body, options);
    if (answer === undefined) throw new Error(`unexpected POST ${url}`);
    return answer;
  });
}

function listCalls(post: jest.SpyInstance) {
  return post.mock.calls.filter(([url]) => url === '/material/ofuser').map(([, body]) => body as Record<string, unknown>);
}

/**
 * Presses OK on the popconfirm just opened: the last OK text in the page (a text query is much
 * cheaper than a role query on a whole page).
 */
async function confirmPopup(): Promise<void> {
  const texts = await screen.findAllByText(/^确\s?定$/);
  const last = texts[texts.length - 1];
  if (!last) throw new Error('no OK button');
  fireEvent.click(last.closest('button') ?? last);
}

// Each step re-renders a page of cards and antd popups; on the shared, loaded machine a whole
// journey can pass the default 30 s without anything being wrong.
jest.setTimeout(120_000);

afterEach(() => jest.restoreAllMocks());

describe('MyMaterialPage', () => {
  it('lists my materials with cover, name, duration, size and state; a failed one shows its reason', async () => {
    const list: Material[] = [
      material('a'),
      material('b', { type: 'video', duration: 75, fileSize: 5 * 1024 * 1024 }),
      material('c', { state: 'failed', failReason: '无法解码视频', coverUrl: '' }),
    ];
    const post = serve(() => page(list));
    renderApp('/workbench/my-material', SIGNED_IN);
    expect(await screen.findByText('素材a')).toBeInTheDocument();
    expect(listCalls(post)[0]).toEqual({ pageNum: 1, pageSize: 30, categoryId: -1, type: undefined, horizontalOrVertical: undefined, orderType: 'newest' });
    const video = screen.getByTestId('material-b');
    expect(within(video).getByTestId('material-duration')).toHaveTextContent('1:15');
    expect(within(video).getByTestId('material-size')).toHaveTextContent('5M');
    expect(within(screen.getByTestId('material-a')).getByTestId('material-cover')).toHaveAttribute('src', '/diyvrbt/material/file/a/cover?ticket=t');
    expect(within(screen.getByTestId('material-a')).getByTestId('material-state')).toHaveTextContent('可用');
    const failed = screen.getByTestId('material-c');
    expect(within(failed).getByTestId('material-state')).toHaveTextContent('处理失败');
    expect(within(failed).getByTestId('material-fail-reason')).toHaveTextContent('无法解码视频');
    expect(screen.getByText('共 3 个素材')).toBeInTheDocument();
  });

  it('sends the type, orientation, sort and route category of the list', async () => {
    const post = serve(() => page([material('a')]));
    renderApp('/workbench/my-material/11', SIGNED_IN);
    await screen.findByText('素材a');
    expect(listCalls(post)[0]).toMatchObject({ categoryId: 11 });
    fireEvent.click(screen.getByRole('tab', { name: '视频' }));
    await waitFor(() => expect(listCalls(post).at(-1)).toMatchObject({ type: 'video', categoryId: 11 }));
    fireEvent.click(within(screen.getByTestId('material-orientation')).getByText('竖版'));
    await waitFor(() => expect(listCalls(post).at(-1)).toMatchObject({ type: 'video', horizontalOrVertical: 1 }));
    fireEvent.click(within(screen.getByTestId('material-order')).getByText('最热'));
    await waitFor(() => expect(listCalls(post).at(-1)).toMatchObject({ type: 'video', horizontalOrVertical: 1, orderType: 'hottest' }));
  });

  it('follows a processing material until probing fails, then shows the reason', async () => {
    let probed = false;
    const post = serve(
      () => page([probed ? material('p', { state: 'failed', failReason: '文件已损坏' }) : material('p', { state: 'processing', coverUrl: '' })]),
      (url, body) => {
        if (url !== '/material/getVideoState') return undefined;
        probed = true;
        return { state: 'failed', failReason: `文件已损坏 ${String(body.id)}` };
      },
    );
    renderApp('/workbench/my-material', SIGNED_IN);
    const card = await screen.findByTestId('material-p');
    await waitFor(() => expect(within(card).getByTestId('material-fail-reason')).toHaveTextContent('文件已损坏'));
    expect(post).toHaveBeenCalledWith('/material/getVideoState', { id: 'p' }, { silent: true });
    await waitFor(() => expect(listCalls(post).length).toBeGreaterThanOrEqual(2));
  });

  it('shows a material ready when the list says so, whatever its last poll answered', async () => {
    // The picture's poll answers ready and reloads the list, in which the clip is ready too; the
    // clip's own poll, which answered processing just before, then stops with that answer.
    let pictureDone = false;
    serve(
      () => page(['a', 'v'].map((id) => material(id, pictureDone ? {} : { state: 'processing', coverUrl: '' }))),
      (url, body) => {
        if (url !== '/material/getVideoState') return undefined;
        if (body.id === 'v') return { state: 'processing', failReason: '' };
        pictureDone = true;
        return { state: 'ready', failReason: '' };
      },
    );
    renderApp('/workbench/my-material', SIGNED_IN);
    for (const id of ['a', 'v']) {
      const card = await screen.findByTestId(`material-${id}`);
      await waitFor(() => expect(within(card).getByTestId('material-state')).toHaveAttribute('data-state', 'ready'));
    }
  });

  it('uploads with per-file progress, sends the fields with the file last, and reads the new id', async () => {
    let finish: (answer: string) => void = () => undefined;
    let form: FormData | null = null;
    serve(
      () => page([material('a')]),
      (url, body, options) => {
        if (url !== '/upload/material') return undefined;
        form = body as unknown as FormData;
        options?.onUploadProgress?.(40);
        return new Promise<string>((resolve) => {
          finish = resolve;
        });
      },
    );
    const { container } = renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'.repeat(10)], 'Clip.MP4', { type: 'video/mp4' })] } });
    const item = await screen.findByTestId('upload-item');
    await waitFor(() => expect(within(item).getByTestId('upload-progress')).toHaveTextContent('40%'));
    expect(form).not.toBeNull();
    const entries = Array.from((form as unknown as FormData).entries());
    expect(entries.map(([k]) => k)).toEqual(['userId', 'type', 'expireDay', 'categoryId', 'styleId', 'materialState', 'uploadFile']);
    expect(entries.slice(0, 6).map(([, v]) => v)).toEqual(['13800000000', 'video', '1000', '-1', '-1', '0']);
    expect((entries[6]?.[1] as File).name).toBe('Clip.MP4');
    finish('UPLOADED - 0b4f6a7e-1111-4c5d-9e8f-123456789abc');
    await waitFor(() => expect(item).toHaveAttribute('data-material-id', '0b4f6a7e-1111-4c5d-9e8f-123456789abc'));
    expect(item).toHaveAttribute('data-status', 'done');
    expect(await screen.findByText('素材添加成功')).toBeInTheDocument();
  });

  it('cancels an upload in flight: the request is aborted and the row says so', async () => {
    let signal: AbortSignal | undefined;
    serve(
      () => page([material('a')]),
      (url, _body, options) => {
        if (url !== '/upload/material') return undefined;
        signal = options?.signal;
        options?.onUploadProgress?.(30);
        // Settles as the client does when its request is aborted.
        return new Promise<string>((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(new ApiError({ kind: 'cancelled', url, message: `${url} 请求已取消` })));
        });
      },
    );
    const { container } = renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'.repeat(10)], 'Long.mp4', { type: 'video/mp4' })] } });
    const item = await screen.findByTestId('upload-item');
    await waitFor(() => expect(within(item).getByTestId('upload-progress')).toHaveTextContent('30%'));
    expect(signal?.aborted).toBe(false);
    fireEvent.click(within(item).getByRole('button', { name: '取消上传' }));
    await waitFor(() => expect(item).toHaveAttribute('data-status', 'cancelled'));
    expect(signal?.aborted).toBe(true);
    expect(within(item).getByTestId('upload-cancelled')).toHaveTextContent('已取消');
    expect(within(item).queryByTestId('upload-cancel')).toBeNull();
    expect(within(item).queryByTestId('upload-error')).toBeNull();
  });

  it('words a refused upload by its reason, in the page language', async () => {
    const post = serve(
      () => page([material('a')]),
      (url) => {
        if (url !== '/upload/material') return undefined;
        throw new ApiError({ kind: 'business', url, code: 3000, desc: 'file: larger than 500 MB', message: 'x', data: { reason: 'file_too_large', limitMb: 500 } });
      },
    );
    const { container } = renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'big.mov')] } });
    expect(await screen.findByText('文件太大，不能超过 500 MB')).toBeInTheDocument();
    expect(screen.getByTestId('upload-item')).toHaveAttribute('data-status', 'error');
    expect(post.mock.calls.filter(([url]) => url === '/upload/material')).toHaveLength(1);
  });

  it('shows my usage against my quota, in the page language, and reloads it after an upload', async () => {
    let quota = QUOTA;
    serve(
      () => page([material('a')]),
      (url) => {
        if (url !== '/upload/material') return undefined;
        quota = { ...QUOTA, usedBytes: 5 * 1024 ** 3, materials: 38 };
        return 'UPLOADED - n1';
      },
      () => quota,
    );
    const { container } = renderApp('/workbench/my-material', SIGNED_IN);
    expect(await screen.findByTestId('material-quota-text')).toHaveTextContent('已用 1.2 GB / 5 GB · 37 / 2000 个素材');
    expect(screen.getByTestId('material-quota').querySelector('.ant-progress')).not.toHaveClass('ant-progress-status-exception');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'new.png')] } });
    await waitFor(() => expect(screen.getByTestId('material-quota-text')).toHaveTextContent('已用 5 GB / 5 GB · 38 / 2000 个素材'));
    expect(screen.getByTestId('material-quota').querySelector('.ant-progress')).toHaveClass('ant-progress-status-exception');
    await act(() => applyLanguage('en-US'));
    try {
      expect(screen.getByTestId('material-quota-text')).toHaveTextContent('Used 5 GB of 5 GB · 38 of 2000 materials');
    } finally {
      await act(() => applyLanguage('zh-CN'));
    }
  });

  it('words a refusal beyond the quota with the usage, not the server\'s English', async () => {
    serve(
      () => page([material('a')]),
      (url) => {
        if (url !== '/upload/material') return undefined;
        const data = { reason: 'quota_exceeded', ...QUOTA, usedBytes: 4.5 * 1024 ** 3, limitMaterials: 0 };
        throw new ApiError({ kind: 'http', url, status: 413, desc: 'quota exceeded: delete materials to make room', message: 'x', data });
      },
    );
    const { container } = renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'big.mov')] } });
    const said = await screen.findByTestId('upload-error');
    expect(said).toHaveTextContent('素材空间已满（已用 4.5 GB / 5 GB · 37 / 不限 个素材），请删除不用的素材后再上传');
    expect(said).not.toHaveTextContent('quota exceeded');
  });

  it('says the server\'s refusal of a file type with the accepted formats, not as a passing failure', async () => {
    serve(
      () => page([material('a')]),
      (url) => {
        if (url !== '/upload/material') return undefined;
        // As the client rejects the gateway's answer {code: 3000, data: null, desc: 'unsupported file type'}.
        throw new ApiError({ kind: 'business', url, code: 3000, desc: 'unsupported file type', message: '/upload/material 请求失败: unsupported file type', data: null });
      },
    );
    const { container } = renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'photo.webp')] } });
    const said = await screen.findByTestId('upload-error');
    expect(said).toHaveTextContent('不支持这种文件。支持的格式：视频 MP4 MOV');
    expect(said).toHaveTextContent('图片 PNG JPG JPEG GIF WEBP');
    expect(said).not.toHaveTextContent('稍后重试');
  });

  it('says a transport failure (after the client tried again) in the page language, naming no address', async () => {
    serve(
      () => page([material('a')]),
      (url) => {
        if (url !== '/upload/material') return undefined;
        throw new ApiError({ kind: 'network', url, message: '/upload/material 请求失败: h2 protocol error: http2 error' });
      },
    );
    const { container } = renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'clip.mp4')] } });
    expect(await screen.findByTestId('upload-error')).toHaveTextContent('网络连接中断，请检查网络后重试');
    expect(document.body.textContent).not.toMatch(/upload\/material|h2 protocol/);
  });

  it('shows the accepted formats in the page language, and the picker takes them', async () => {
    serve(() => page([material('a')]));
    const { container } = renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    expect(screen.getByTestId('upload-formats')).toHaveTextContent('支持 视频 MP4 MOV M4V WEBM MKV AVI');
    expect(screen.getByTestId('upload-formats')).toHaveTextContent('图片 PNG JPG JPEG GIF WEBP HEIC HEIF AVIF BMP');
    expect(screen.getByTestId('upload-formats')).toHaveTextContent('音频 MP3 M4A AAC WAV OGG FLAC');
    const accept = (container.querySelector('input[type=file]') as HTMLInputElement).accept.split(',');
    for (const ext of ['.mp4', '.mov', '.m4v', '.webm', '.mkv', '.avi', '.png', '.jpg', '.jpeg', '.gif', '.webp', '.heic', '.heif', '.avif', '.bmp', '.mp3', '.m4a', '.aac', '.wav', '.ogg', '.flac']) {
      expect(accept).toContain(ext);
    }
    expect(accept).toContain('video/x-matroska');
  });

  it('refuses a file of another type at once, in the page language, with the formats', async () => {
    const post = serve(() => page([material('a')]));
    const { container } = renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    expect(await screen.findByTestId('upload-error')).toHaveTextContent('不支持这种文件。支持的格式：视频 MP4 MOV');
    expect(await screen.findAllByText(/^不支持这种文件/)).toHaveLength(2);
    expect(post.mock.calls.filter(([url]) => url === '/upload/material')).toHaveLength(0);
  });

  it('renames one material', async () => {
    const post = serve(
      () => page([material('a'), material('b')]),
      (url) => (url === '/material/updatename' ? null : undefined),
    );
    renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    fireEvent.click(screen.getByTestId('rename-a'));
    const input = await screen.findByTestId('rename-input');
    fireEvent.change(input, { target: { value: '  片头  ' } });
    fireEvent.click(screen.getByTestId('rename-ok'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/material/updatename', { materialId: 'a', materialName: '片头' }));
    expect(await screen.findByText('已重命名')).toBeInTheDocument();
  });

  it('deletes one material after confirmation', async () => {
    const post = serve(
      () => page([material('a'), material('b')]),
      (url) => (url === '/material/delete' ? null : undefined),
    );
    renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    fireEvent.click(screen.getByTestId('delete-b'));
    expect(post).not.toHaveBeenCalledWith('/material/delete', expect.anything());
    await confirmPopup();
    await waitFor(() => expect(post).toHaveBeenCalledWith('/material/delete', { materialId: 'b' }));
    expect(await screen.findByText('素材已删除')).toBeInTheDocument();
  });

  it('moves the selected materials to a category', async () => {
    const post = serve(
      () => page([material('a'), material('b'), material('c')]),
      (url) => (url === '/material/updateMaterialCategory' ? null : undefined),
    );
    renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    fireEvent.click(screen.getByTestId('material-select-a'));
    fireEvent.click(screen.getByTestId('material-select-c'));
    expect(screen.getByTestId('selected-count')).toHaveTextContent('已选 2 项');
    fireEvent.click(screen.getByTestId('batch-move'));
    const picker = await screen.findByTestId('move-target');
    const dialog = picker.closest('.ant-modal') as HTMLElement;
    fireEvent.mouseDown(within(picker).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('餐饮'));
    const ok = within(dialog).getByText(/^确\s?定$/);
    fireEvent.click(ok.closest('button') ?? ok);
    await waitFor(() => expect(post).toHaveBeenCalledWith('/material/updateMaterialCategory', { materialIds: 'a,c', categoryIds: '11' }));
    expect(await screen.findByText('已移动到新分类')).toBeInTheDocument();
  });

  it('deletes every selected material at once', async () => {
    const post = serve(
      () => page([material('a'), material('b'), material('c')]),
      (url) => (url === '/material/batchDelete' ? null : undefined),
    );
    renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    fireEvent.click(screen.getByTestId('select-all'));
    expect(screen.getByTestId('selected-count')).toHaveTextContent('已选 3 项');
    fireEvent.click(screen.getByTestId('batch-delete'));
    await confirmPopup();
    await waitFor(() => expect(post).toHaveBeenCalledWith('/material/batchDelete', { materialIds: 'a,b,c' }));
    expect(await screen.findByText('已删除 3 个素材')).toBeInTheDocument();
  });

  it('loads the next page when asked', async () => {
    const post = serve((body) => (body.pageNum === 1 ? page([material('a'), material('b')], 1, 3) : page([material('c')], 2, 3)));
    renderApp('/workbench/my-material', SIGNED_IN);
    await screen.findByText('素材a');
    fireEvent.click(screen.getByTestId('load-more'));
    expect(await screen.findByText('素材c')).toBeInTheDocument();
    expect(listCalls(post).map((b) => b.pageNum)).toEqual([1, 2]);
    expect(screen.queryByTestId('load-more')).not.toBeInTheDocument();
  });

  it('shows the empty state when there are no materials', async () => {
    serve(() => page([]));
    renderApp('/workbench/my-material', SIGNED_IN);
    expect(await screen.findByTestId('empty-state')).toHaveTextContent('这里还没有内容，去创作吧');
  });
});
