import { api } from './client';
import { ApiError } from './errors';
import { formatFileSize, materialListBody, materialTypeOf, nextMaterialPage, parseUploadedId, settleListed, uploadMaterial, type MaterialPage } from './material';
import { material } from '@/test/materials';

afterEach(() => jest.restoreAllMocks());

const pageOf = (n: number, pageNum: number, total: number): MaterialPage => ({
  total,
  pageNum,
  pageSize: 2,
  dataList: Array.from({ length: n }, (_, i) => material(`${pageNum}-${i}`)),
});

describe('material helpers', () => {
  it('decides the type from the lowercased extension (spec platform §5)', () => {
    expect(['a.JPG', 'b.png', 'c.bmp', 'd.Mov', 'e.3gp', 'f.webm', 'g.M4A', 'h.gif', 'i.pptx'].map(materialTypeOf)).toEqual([
      'picture',
      'picture',
      'picture',
      'video',
      'video',
      'video',
      'audio',
      'gif',
      'pptx',
    ]);
    expect(['j.mkv', 'k.M4V', 'l.webp', 'm.HEIC', 'n.heif', 'o.avif', 'p.ogg', 'q.flac'].map(materialTypeOf)).toEqual(['video', 'video', 'picture', 'picture', 'picture', 'picture', 'audio', 'audio']);
    expect(materialTypeOf('notes.txt')).toBeNull();
    expect(materialTypeOf('noextension')).toBeNull();
  });

  it('reads the id of an upload answer', () => {
    expect(parseUploadedId('UPLOADED - 5f0c-uuid')).toBe('5f0c-uuid');
    expect(parseUploadedId('UPLOADED - ')).toBeNull();
    expect(parseUploadedId('素材添加成功')).toBeNull();
    expect(parseUploadedId(null)).toBeNull();
  });

  it('asks for the next page until everything is loaded', () => {
    expect(nextMaterialPage([pageOf(2, 1, 3)])).toBe(2);
    expect(nextMaterialPage([pageOf(2, 1, 3), pageOf(1, 2, 3)])).toBeUndefined();
    expect(nextMaterialPage([pageOf(0, 1, 5)])).toBeUndefined();
  });

  it('gives a settled material its end state in every cached page, leaving unchanged pages as they were', () => {
    const first = pageOf(2, 1, 3);
    const second = { ...pageOf(1, 2, 3), dataList: [material('late', { state: 'processing' })] };
    const data = { pages: [first, second], pageParams: [1, 2] };
    const settled = settleListed(data, 'late', { state: 'failed', failReason: 'no video stream' });
    expect(settled?.pages[0]).toBe(first);
    expect(settled?.pages[1]?.dataList[0]).toMatchObject({ id: 'late', state: 'failed', failReason: 'no video stream' });
    expect(settleListed(settled, 'late', { state: 'failed', failReason: 'no video stream' })).toBe(settled);
    expect(settleListed(data, 'absent', { state: 'ready', failReason: '' })).toBe(data);
    expect(settleListed(undefined, 'late', { state: 'ready', failReason: '' })).toBeUndefined();
  });

  it('formats sizes in steps of 1024', () => {
    expect([0, 1023, 1024, 1536, 5 * 1024 * 1024, 3.25 * 1024 ** 3].map(formatFileSize)).toEqual(['0B', '1023B', '1K', '1.5K', '5M', '3.3G']);
  });

  it('leaves absent filters out of the list body', () => {
    expect(materialListBody({ source: 'default', categoryId: 2003 }, 1)).toEqual({
      pageNum: 1,
      pageSize: 30,
      categoryId: 2003,
      type: undefined,
      horizontalOrVertical: undefined,
      orderType: undefined,
    });
  });
});

describe('uploadMaterial', () => {
  it('refuses an unknown file type without sending anything', async () => {
    const post = jest.spyOn(api, 'post');
    await expect(uploadMaterial(new File(['x'], 'notes.txt'), { userId: 'u' })).rejects.toMatchObject({ kind: 'business', desc: 'unsupported file type', data: { reason: 'unsupported_file_type' } });
    expect(post).not.toHaveBeenCalled();
  });

  it('rejects an answer that carries no id', async () => {
    jest.spyOn(api, 'post').mockResolvedValue('ok');
    await expect(uploadMaterial(new File(['x'], 'a.png'), { userId: 'u', categoryId: 11 })).rejects.toBeInstanceOf(ApiError);
  });
});
