import { screen } from '@testing-library/react';
import { api } from '@/api/client';
import { SAMPLE_SIZE } from '@/api/systemFonts';
import { renderApp, SIGNED_IN } from '@/test/renderApp';

const ADMIN = { ...SIGNED_IN, roleId: 0 };
const CREATOR = { ...SIGNED_IN, roleId: 8 };

function serve() {
  jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/system/info') return { name: 'reelforge', version: '0.1.0', mode: 'all' };
    if (url === '/font/ofdefault')
      return [
        { id: 'sys-cjk', name: 'Noto Sans CJK SC', nameCN: '思源黑体', style: 'Regular', format: 'ttc' },
        { id: 'sys-latin', name: 'DejaVu Sans', nameCN: 'DejaVu Sans', style: 'Bold', format: 'ttf' },
      ];
    throw new Error(`unexpected GET ${url}`);
  });
  return jest.spyOn(api, 'post').mockImplementation(async (url: string, body?: unknown) => {
    const { fontId, text } = body as { fontId: string; text: string };
    if (url !== '/font/test') throw new Error(`unexpected POST ${url}`);
    // The Latin font lacks every Chinese character of the sample.
    const missing = fontId === 'sys-latin' ? [...new Set(text)].filter((c) => /\p{Script=Han}|[，。！？、；：“”（）]/u.test(c)).join('') : '';
    return { code: 2000, desc: '', data: { missing, ok: missing === '' } };
  });
}

afterEach(() => jest.restoreAllMocks());

describe('FontPage', () => {
  it('is for administrators only', async () => {
    serve();
    renderApp('/eb-maintain/font', CREATOR);
    expect(await screen.findByTestId('login-expired')).toBeInTheDocument();
  });

  it('lists the system fonts with their coverage of the common characters', async () => {
    const post = serve();
    renderApp('/eb-maintain/font', ADMIN);
    expect(await screen.findByTestId('font-sys-cjk')).toHaveTextContent('思源黑体 (Noto Sans CJK SC)');
    expect(screen.getByTestId('font-sys-latin')).toHaveTextContent('DejaVu Sans');
    expect(await screen.findByText(`${SAMPLE_SIZE} / ${SAMPLE_SIZE} 个字符`)).toBeInTheDocument();
    expect(await screen.findByText(`62 / ${SAMPLE_SIZE} 个字符`)).toBeInTheDocument();
    expect(post).toHaveBeenCalledWith('/font/test', expect.objectContaining({ fontId: 'sys-cjk' }), { silent: true });
  });
});
