import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '@/api/client';
import type { EnterpriseSpace, ShareDto } from '@/api/enterprise';
import { ApiError } from '@/api/errors';
import { renderApp, SIGNED_IN } from '@/test/renderApp';
import { SYSTEM_INFO } from '@/test/templateFixtures';

function share(id: number, over: Partial<ShareDto> = {}): ShareDto {
  return {
    id,
    kind: 'work',
    itemId: String(100 + id),
    name: `作品${id}`,
    mediaKind: 'video',
    sharedBy: 'ann@example.cn',
    sharedTime: '2026-11-28 10:00:00',
    sharedMs: 1,
    mine: false,
    coverUrl: `/diyvrbt/enterprise/media/${id}/cover?ticket=x`,
    videoUrl: `/diyvrbt/enterprise/media/${id}/video?ticket=x`,
    ...over,
  };
}

const ENTERPRISE = { id: 3, name: '星河传媒', createTime: '2026-11-28 09:00:00', memberCount: 2, members: [] };

function serve(space: EnterpriseSpace) {
  return jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return SYSTEM_INFO;
    if (url === '/enterprise/space') return space;
    throw new Error(`unexpected GET ${url}`);
  });
}

afterEach(() => jest.restoreAllMocks());
jest.setTimeout(120_000);

describe('/workbench/yqx', () => {
  it('tells a user in no enterprise whom to ask, not an error', async () => {
    serve({ enterprise: null, admin: false, shares: [] });
    renderApp('/workbench/yqx', SIGNED_IN);
    expect(await screen.findByTestId('enterprise-none')).toHaveTextContent('请联系你的企业管理员');
    expect(screen.queryByTestId('enterprise-share')).toBeNull();
    expect(screen.queryByTestId('enterprise-error')).toBeNull();
  });

  it("lists the enterprise's shared works with who shared them, copies one, and offers unshare only on one's own", async () => {
    serve({ enterprise: ENTERPRISE, admin: false, shares: [share(1), share(2, { mine: true, name: '我的片子' }), share(3, { kind: 'material', mediaKind: 'picture', videoUrl: '', name: 'logo.png' })] });
    const post = jest.spyOn(api, 'post').mockResolvedValue({ taskId: 77 });
    renderApp('/yqx', SIGNED_IN);
    expect(await screen.findByTestId('enterprise-name')).toHaveTextContent('星河传媒');
    expect(screen.getByTestId('share-by-1')).toHaveTextContent('ann@example.cn 分享');
    expect(screen.getByTestId('share-by-2')).toHaveTextContent('我分享的');
    expect(screen.queryByTestId('share-unshare-1')).toBeNull();
    expect(screen.getByTestId('share-unshare-2')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: '共享作品（2）' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: /成员/ })).toBeNull();
    fireEvent.click(screen.getByTestId('share-copy-1'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/enterprise/copy', { shareId: 1 }, { silent: true }));
    expect(await screen.findByTestId('share-to-works-1')).toHaveAttribute('href', '/workbench/my-task');
    fireEvent.click(screen.getByTestId('share-play-1'));
    expect(await screen.findByTestId('share-video')).toHaveAttribute('src', '/diyvrbt/enterprise/media/1/video?ticket=x');
    fireEvent.click(screen.getByRole('tab', { name: '共享素材（1）' }));
    expect(await screen.findByTestId('share-name-3')).toHaveTextContent('logo.png');
    expect(screen.getByTestId('enterprise-material-note')).toHaveTextContent('暂不支持直接在编辑器中使用');
    expect(screen.queryByTestId('share-copy-3')).toBeNull();
  });

  it('words a refused copy in the page language', async () => {
    serve({ enterprise: ENTERPRISE, admin: false, shares: [share(1)] });
    jest.spyOn(api, 'post').mockRejectedValue(new ApiError({ kind: 'business', url: '/enterprise/copy', code: 3000, desc: 'shareId: share 1 does not exist', message: 'x' }));
    renderApp('/workbench/yqx', SIGNED_IN);
    fireEvent.click(await screen.findByTestId('share-copy-1'));
    expect(await screen.findByTestId('share-error-1')).toHaveTextContent('这项分享已不存在');
  });

  it('gives an enterprise administrator the members, adding by account and removing', async () => {
    const members = [{ enterpriseId: 3, userId: 'ann@example.cn', addedBy: 'root@example.cn', addedTime: '2026-11-28 09:10:00' }];
    serve({ enterprise: { ...ENTERPRISE, members }, admin: true, shares: [share(1)] });
    const post = jest
      .spyOn(api, 'post')
      .mockRejectedValueOnce(new ApiError({ kind: 'business', url: '/enterprise/member/add', code: 3000, desc: 'userId: no user `ghost` here (an account or a mobile number of this platform)', message: 'x' }))
      .mockResolvedValue({});
    renderApp('/workbench/yqx', SIGNED_IN);
    expect(await screen.findByTestId('share-unshare-1')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('tab', { name: '成员（2）' }));
    const panel = await screen.findByTestId('members-3');
    expect(within(panel).getByText('ann@example.cn')).toBeInTheDocument();
    fireEvent.change(within(panel).getByTestId('member-input-3'), { target: { value: 'ghost' } });
    fireEvent.click(within(panel).getByTestId('member-add-3'));
    expect(await screen.findByTestId('member-error-3')).toHaveTextContent('没有找到用户“ghost”');
    fireEvent.click(within(panel).getByTestId('member-add-3'));
    await waitFor(() => expect(post).toHaveBeenLastCalledWith('/enterprise/member/add', { userId: 'ghost' }, { silent: true }));
  });
});
