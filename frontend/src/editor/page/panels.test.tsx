import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { api } from '@/api/client';
import { makeQueryClient, Providers } from '@/app/providers';
import { makeStore } from '@/app/store';
import { initialUserState } from '@/auth/userSlice';
import type { Layer } from '@/editor/model/gen/Layer';
import { buildLayer, newRule } from '@/editor/state/defaults';
import { editorActions as a } from '@/editor/state/editorSlice';
import { material, page } from '@/test/materials';
import { firstSceneLayers, renderEditor, SIGNED_IN } from '@/test/renderApp';
import { defaultFont, familyFace, resetFontFaces } from '@/editor/fonts/fonts';
import { ColorField, readRecentColors, recentColorsKey, useStoredRecentColors } from './ColorField';
import { LayerView } from './LayerView';
import { ShortcutSheet } from './ShortcutSheet';
import { useEditorKeys } from './useEditorKeys';
import { PropertyPanel } from './PropertyPanel';
import { StageBackground } from './SceneBackground';
import { useEditorSelector } from './useEditor';
import { selectCurrentScene } from '@/editor/state/selectors';
import { ShapePanel } from './ShapePanel';

const SVG = '<svg viewBox="0 0 100 100"><path d="M50 0L100 100H0Z" fill="currentColor"/></svg>';
const FONTS = [
  { id: 'u-1', name: 'My Hand', nameCN: '我的手写', style: 'Regular', system: false, format: 'ttf', relativePath: '/font/file/u-1' },
  { id: 'sys-2', name: 'Noto Serif CJK SC', nameCN: '思源宋体', style: 'Regular', system: true, format: 'otf', relativePath: '/font/file/sys-2' },
];

const FONTS_WITH_DEFAULT = [
  ...FONTS,
  { id: 'sys-cjk', name: 'Noto Sans CJK SC', nameCN: '思源黑体', style: 'Regular', system: true, format: 'ttc', relativePath: '/font/file/sys-cjk' },
  { id: 'sys-cjk-bold', name: 'Noto Sans CJK SC', nameCN: '思源黑体', style: 'Bold', system: true, format: 'ttc', relativePath: '/font/file/sys-cjk-bold' },
];

jest.setTimeout(60_000);
afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

const renderWith = (ui: React.ReactNode) => renderEditor(ui);

/**
 * Draws a text layer (`patch` over a new one) with the font list `fonts` and says which font files
 * it fetched and the faces it registered (jsdom has no FontFace API: a stand-in records them).
 */
async function facesMadeFor(fonts: unknown[], patch: Record<string, unknown>): Promise<{ files: string[]; made: string[] }> {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url.startsWith('/font/ofuseranddefault/')) return fonts;
    if (url.startsWith('/font/file/')) return { arrayBuffer: async () => new ArrayBuffer(8) };
    throw new Error(`unexpected ${url}`);
  });
  const made: string[] = [];
  const g = globalThis as unknown as { FontFace?: unknown };
  g.FontFace = class {
    constructor(name: string, _data: ArrayBuffer, d: FontFaceDescriptors) {
      made.push(`${name} ${d.weight} ${d.style}`);
    }
    load = async () => this;
  };
  Object.defineProperty(document, 'fonts', { configurable: true, value: { add: () => undefined } });
  try {
    const layer = { ...buildLayer({ kind: 'text', size: 'TOP' }, 1, 100, [0, 3], newRule().resolutionRatio), ...patch } as unknown as Layer;
    renderWith(<LayerView layer={layer} scale={1} editing={false} flagged={false} onEditEnd={() => undefined} />);
    await waitFor(() => expect(screen.getByTestId('layer-text').dataset.font).toBe('ready'));
    const files = get.mock.calls.map((c) => String(c[0])).filter((u) => u.startsWith('/font/file/'));
    return { files, made };
  } finally {
    delete g.FontFace;
    delete (document as unknown as { fonts?: unknown }).fonts;
    resetFontFaces();
  }
}

const layers = firstSceneLayers;

describe('shape panel', () => {
  it('lists the 24 catalogue shapes and adds one with its SVG', async () => {
    const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url.startsWith('/shape/')) return { shapeCode: SVG, uuid: url.slice(7), name: url.slice(7) };
      throw new Error(`unexpected ${url}`);
    });
    const store = renderWith(<ShapePanel />);
    expect(screen.getAllByTestId(/^shape-[a-z]/).filter((el) => el.dataset.testid !== 'shape-panel')).toHaveLength(24);
    fireEvent.click(screen.getByTestId('shape-lightning'));
    await waitFor(() => expect(layers(store)).toHaveLength(1));
    expect(layers(store)[0]).toMatchObject({ type: 'shape', shape: 'lightning', uuid: 'lightning', shapeCode: SVG });
    expect(get).toHaveBeenCalledWith('/shape/lightning', undefined, { silent: true });
  });

  it('adds the basic kind when the drawing cannot be had', async () => {
    jest.spyOn(api, 'get').mockRejectedValue(new Error('shape lightning does not exist'));
    const store = renderWith(<ShapePanel />);
    fireEvent.click(screen.getByTestId('shape-lightning'));
    await waitFor(() => expect(layers(store)).toHaveLength(1));
    expect(layers(store)[0]).toMatchObject({ type: 'shape', shape: 'lightning', uuid: '' });
    expect(layers(store)[0]).not.toHaveProperty('shapeCode');
  });
});

describe('stage drawing', () => {
  it('draws a shape SVG painted with the layer fill', () => {
    const layer = { ...buildLayer({ kind: 'shape', shape: 'lightning', shapeCode: SVG }, 1, 100, [0, 3], newRule().resolutionRatio), fill: '#ff0000' } as Layer;
    render(<LayerView layer={layer} scale={1} editing={false} flagged={false} onEditEnd={() => undefined} />);
    const img = screen.getByTestId('shape-svg') as HTMLImageElement;
    expect(decodeURIComponent(img.src)).toContain('* { fill: #ff0000 }');
  });

  it('draws a catalogue rectangle at its box size with its corner radius, as the renderer does', () => {
    const square = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100" fill="currentColor"><rect width="100" height="100"/></svg>';
    const built = buildLayer({ kind: 'shape', shape: 'rect', shapeCode: square }, 1, 100, [0, 3], newRule().resolutionRatio);
    const layer = { ...built, w: 300, h: 120, borderRadius: 24 } as Layer;
    render(<LayerView layer={layer} scale={1} editing={false} flagged={false} onEditEnd={() => undefined} />);
    const img = screen.getByTestId('shape-svg') as HTMLImageElement;
    expect(decodeURIComponent(img.src)).toContain('<rect width="300" height="120" rx="24"/>');
  });

  it('fills a basic outline with the layer’s gradient, corner to corner, as the renderer does', () => {
    const built = buildLayer({ kind: 'shape', shape: 'circle' }, 1, 100, [0, 3], newRule().resolutionRatio);
    const layer = { ...built, w: 200, h: 100, fill: '', fillType: 'gradient', gradientColors: ['#f97316', '#a855f7'] } as Layer;
    const { container } = render(<LayerView layer={layer} scale={1} editing={false} flagged={false} onEditEnd={() => undefined} />);
    const ellipse = container.querySelector('ellipse') as SVGEllipseElement;
    const gradient = container.querySelector('linearGradient') as SVGLinearGradientElement;
    expect(ellipse.getAttribute('fill')).toBe(`url(#${gradient.id})`);
    expect([gradient.getAttribute('x2'), gradient.getAttribute('y2')]).toEqual(['200', '100']);
    expect(Array.from(gradient.querySelectorAll('stop')).map((s) => s.getAttribute('stop-color'))).toEqual(['#f97316', '#a855f7']);
  });

  it('draws a picture with its catalogue filter and blur as the renderer applies them', () => {
    const layer = { ...buildLayer({ kind: 'picture', src: '/p.png', width: 400, height: 300 }, 1, 100, [0, 3], newRule().resolutionRatio), filter: 'warm', blur: 4 } as Layer;
    render(<LayerView layer={layer} scale={1.5} editing={false} flagged={false} onEditEnd={() => undefined} />);
    const img = document.querySelector('#component1 img') as HTMLImageElement;
    expect(img.style.filter).toBe('sepia(0.3) saturate(1.3) hue-rotate(-10deg) blur(3px)');
    expect(img.style.objectFit).toBe('cover');
  });

  it('draws a text in its library font family', () => {
    jest.spyOn(api, 'get').mockResolvedValue({ arrayBuffer: async () => new ArrayBuffer(8) } as unknown as Blob);
    const layer = { ...buildLayer({ kind: 'text', size: 'TOP' }, 1, 100, [0, 3], newRule().resolutionRatio), fontId: 'sys-2', fontFamily: 'Noto Serif CJK SC' } as Layer;
    renderWith(<LayerView layer={layer} scale={1} editing={false} flagged={false} onEditEnd={() => undefined} />);
    expect(screen.getByTestId('layer-text').style.fontFamily).toBe('"Noto Serif CJK SC", "Noto Sans CJK SC"');
  });

  it('lays a text out at the document’s size and scales the laid-out block to the stage', () => {
    jest.spyOn(api, 'get').mockResolvedValue({ arrayBuffer: async () => new ArrayBuffer(8) } as unknown as Blob);
    const built = buildLayer({ kind: 'text', size: 'TOP' }, 1, 100, [0, 3], newRule().resolutionRatio);
    const layer = { ...built, w: 300, h: 60, fontSize: 40, borderWidth: 2, borderColor: '#000000' } as Layer;
    renderWith(<LayerView layer={layer} scale={0.95} editing={false} flagged={false} onEditEnd={() => undefined} />);
    const text = screen.getByTestId('layer-text');
    // Laid out at 40 px (the browser puts baselines on whole pixels of the size it lays out at).
    expect([text.style.fontSize, text.style.webkitTextStroke]).toEqual(['40px', '4px #000000']);
    const block = text.parentElement as HTMLElement;
    expect([block.style.width, block.style.height, block.style.transform, block.style.transformOrigin]).toEqual(['300px', '60px', 'scale(0.95)', '0 0']);
  });

  it('draws a text without a library font in the renderer’s default family, from its system font file', async () => {
    const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url.startsWith('/font/ofuseranddefault/')) return FONTS_WITH_DEFAULT;
      if (url === '/font/file/sys-cjk') return { arrayBuffer: async () => new ArrayBuffer(8) };
      throw new Error(`unexpected ${url}`);
    });
    const layer = buildLayer({ kind: 'text', size: 'TOP' }, 1, 100, [0, 3], newRule().resolutionRatio);
    renderWith(<LayerView layer={layer} scale={1} editing={false} flagged={false} onEditEnd={() => undefined} />);
    const text = screen.getByTestId('layer-text');
    expect(text.style.fontFamily).toBe('"Noto Sans CJK SC"');
    expect(text.dataset.font).toBe('loading');
    // jsdom has no FontFace API: there the face counts as loaded as soon as the font list names it.
    await waitFor(() => expect(text.dataset.font).toBe('ready'));
    expect(get).toHaveBeenCalledWith('/font/ofuseranddefault/13800000000');
    // The block is centred vertically in the box, as the renderer centres it.
    expect((text.parentElement as HTMLElement).style.justifyContent).toBe('center');
  });

  it('picks the default family’s face of the text’s weight, else its Regular', () => {
    expect(defaultFont(FONTS_WITH_DEFAULT, true, false)?.id).toBe('sys-cjk-bold');
    expect(defaultFont(FONTS_WITH_DEFAULT, false, true)?.id).toBe('sys-cjk');
    expect(defaultFont(FONTS, false, false)).toBeUndefined();
  });

  it('draws a bold text of a document that leaves italic out in the default family’s Bold face', async () => {
    expect(await facesMadeFor(FONTS_WITH_DEFAULT, { bold: true, italic: undefined })).toEqual({
      files: ['/font/file/sys-cjk-bold'],
      made: ['Noto Sans CJK SC 700 normal'],
    });
  });
});

describe("a library font's faces", () => {
  const family = [
    { id: 'lib-r', name: 'Lib Sans', nameCN: 'Lib Sans', style: 'Regular', system: true, format: 'ttf', relativePath: '/font/file/lib-r' },
    { id: 'lib-i', name: 'Lib Sans', nameCN: 'Lib Sans', style: 'Italic', system: true, format: 'ttf', relativePath: '/font/file/lib-i' },
    { id: 'one-r', name: 'One Face', nameCN: 'One Face', style: 'Regular', system: false, format: 'ttf', relativePath: '/font/file/one-r' },
  ];

  it("draws an italic text from its family's Italic file, as the renderer picks it, though the layer names the Regular", async () => {
    expect(await facesMadeFor(family, { fontId: 'lib-r', fontFamily: 'Lib Sans', italic: true })).toEqual({ files: ['/font/file/lib-i'], made: ['Lib Sans 400 italic'] });
  });

  it('never registers a Regular file as italic: a family without one is slanted by the browser', async () => {
    expect(await facesMadeFor(family, { fontId: 'one-r', fontFamily: 'One Face', italic: true })).toEqual({ files: ['/font/file/one-r'], made: ['One Face 400 normal'] });
  });

  it('matches slant before weight, as CSS and the renderer match faces', () => {
    expect(familyFace(family, 'Lib Sans', true, true)?.id).toBe('lib-i');
    expect(familyFace(family, 'Lib Sans', true, false)?.id).toBe('lib-r');
    expect(familyFace(family, 'One Face', false, false, true)).toBeUndefined();
  });
});

describe('font picker and glyph warning', () => {
  it('lists the caller and system fonts, stores the font id and family, and warns of missing glyphs', async () => {
    jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
      if (url === '/font/ofuseranddefault/13800000000') return FONTS;
      if (url.startsWith('/font/file/')) return { arrayBuffer: async () => new ArrayBuffer(4) };
      throw new Error(`unexpected ${url}`);
    });
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string, data?: unknown) => {
      if (url === '/font/test') return { code: 2000, data: { missing: (data as { text: string }).text.includes('铃') ? '铃' : '', ok: !(data as { text: string }).text.includes('铃') } };
      throw new Error(`unexpected ${url}`);
    });
    const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
    store.dispatch(a.newDocument({ usedFor: 'ALL' }));
    store.dispatch(a.addLayer({ kind: 'text', size: 'TOP', content: '铃声' }));
    store.dispatch(a.select({ ids: [1] }));
    const queryClient = makeQueryClient();
    queryClient.setDefaultOptions({ queries: { retry: false } });
    render(
      <Providers store={store} queryClient={queryClient}>
        <PropertyPanel />
      </Providers>,
    );
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '字体' }));
    fireEvent.click(await screen.findByText('思源宋体'));
    expect(layers(store)[0]).toMatchObject({ fontId: 'sys-2', fontFamily: 'Noto Serif CJK SC' });
    // The check waits for the text to rest (GLYPH_CHECK_DELAY) before it asks.
    expect(await screen.findByTestId('glyph-warning', {}, { timeout: 20_000 })).toHaveTextContent('铃');
    expect(post).toHaveBeenCalledWith('/font/test', { text: '铃声', fontId: 'sys-2' }, { silent: true });
    act(() => {
      store.dispatch(a.updateLayer({ id: 1, changes: { content: 'ok' } }));
    });
    await waitFor(() => expect(screen.queryByTestId('glyph-warning')).toBeNull(), { timeout: 20_000 });
  });
});

describe('colour pickers', () => {
  it('offer the recent colours, record a pick, and keep them per user in localStorage', async () => {
    localStorage.setItem(recentColorsKey('13800000000'), JSON.stringify(['#123456']));
    function Harness() {
      useStoredRecentColors();
      return <ColorField value="#000000" onChange={() => undefined} data-testid="picker" />;
    }
    const store = renderWith(<Harness />);
    await waitFor(() => expect(store.getState().editor.recentColors).toEqual(['#123456']));
    act(() => {
      store.dispatch(a.colorUsed('#abcdef'));
    });
    expect(JSON.parse(localStorage.getItem(recentColorsKey('13800000000')) ?? '[]')).toEqual(['#abcdef', '#123456']);
    fireEvent.click(screen.getByTestId('picker'));
    expect(await screen.findByText('最近使用')).toBeInTheDocument();
    expect(readRecentColors('someone-else')).toEqual([]);
  });
});

describe('shortcut sheet', () => {
  it('opens on ? (not while typing) and lists the keys', async () => {
    function Harness() {
      const [open, setOpen] = useState(false);
      useEditorKeys(
        () => undefined,
        () => setOpen(true),
      );
      return (
        <>
          <input aria-label="typing" />
          <ShortcutSheet open={open} onClose={() => setOpen(false)} />
        </>
      );
    }
    renderWith(<Harness />);
    fireEvent.keyDown(screen.getByLabelText('typing'), { key: '?' });
    expect(screen.queryByText('快捷键')).toBeNull();
    fireEvent.keyDown(window, { key: '?' });
    expect(await screen.findByText('快捷键')).toBeInTheDocument();
    expect(screen.getByText('Ctrl + Shift + G')).toBeInTheDocument();
    expect(screen.getByText('双击文字')).toBeInTheDocument();
  });
});

describe('property panel per kind', () => {
  function renderSelected(add: Parameters<typeof a.addLayer>[0]) {
    const store = makeStore({ user: { ...initialUserState, ...SIGNED_IN } });
    store.dispatch(a.newDocument({ usedFor: 'ALL' }));
    store.dispatch(a.addLayer(add));
    store.dispatch(a.select({ ids: [1] }));
    const queryClient = makeQueryClient();
    queryClient.setDefaultOptions({ queries: { retry: false } });
    render(
      <Providers store={store} queryClient={queryClient}>
        <PropertyPanel />
      </Providers>,
    );
    return store;
  }

  it('sets a video mute, cut and brightness', () => {
    const store = renderSelected({ kind: 'video', src: '/v.mp4' });
    fireEvent.click(screen.getByLabelText('静音'));
    fireEvent.change(screen.getByRole('spinbutton', { name: '出点 (s)' }), { target: { value: '2.5' } });
    expect(layers(store)[0]).toMatchObject({ noAudio: true, cutInfo: { start: 0, end: 2.5 } });
    expect(screen.getByRole('slider', { name: '亮度' })).toHaveAttribute('aria-valuenow', '100');
  });

  it("never puts a 1.7 s clip's out point past its source: the bar is as long as the cut, and a longer bar holds the last frame", async () => {
    jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/info/m1') return material('m1', { type: 'video', duration: 1.7 });
      throw new Error(`unexpected ${url}`);
    });
    const store = renderSelected({ kind: 'video', src: '/v.mp4', materialId: 'm1', duration: 1.7 });
    const out = () => screen.getByRole('spinbutton', { name: '出点 (s)' });
    expect(out()).toHaveValue('1.7');
    expect(layers(store)[0]).toMatchObject({ startTime: 0, endTime: 3 });
    await waitFor(() => expect(screen.getByTestId('cut-held')).toHaveTextContent('源视频只有 1.7 秒，之后的 1.3 秒停留在最后一帧'));
    fireEvent.change(out(), { target: { value: '3' } });
    expect(layers(store)[0]).toMatchObject({ cutInfo: { start: 0, end: 1.7 } });
    fireEvent.change(out(), { target: { value: '1.2' } });
    expect(layers(store)[0]).toMatchObject({ cutInfo: { start: 0, end: 1.2 }, endTime: 1.2 });
    expect(screen.queryByTestId('cut-held')).toBeNull();
  });

  it("grows a text's box as its words are typed in, and leaves a box that holds them", () => {
    const store = renderSelected({ kind: 'text', size: 'TOP' });
    const content = screen.getByRole('textbox', { name: '文字内容' });
    fireEvent.change(content, { target: { value: '铃声' } });
    expect(layers(store)[0]).toMatchObject({ content: '铃声', w: 320, x: 10 });
    fireEvent.change(content, { target: { value: '新年手机铃声限时大促销活动' } });
    expect(layers(store)[0]).toMatchObject({ w: 468, x: 0 });
  });

  it('masks a picture with a mask of the library (categoryId 2003) by its numeric id', async () => {
    const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/ofdefault') return page([material('31', { materialName: '圆形蒙版', categoryId: 2003 })]);
      throw new Error(`unexpected ${url}`);
    });
    const store = renderSelected({ kind: 'picture', src: '/p.png' });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '蒙版' }));
    fireEvent.click(await screen.findByText('圆形蒙版'));
    expect(layers(store)[0]).toMatchObject({ maskClip: 31 });
    expect(post.mock.calls[0]![1]).toMatchObject({ categoryId: 2003 });
    fireEvent.click(screen.getByLabelText('镜像'));
    expect(layers(store)[0]).toMatchObject({ mirror: true });
  });
});

describe('scene panel', () => {
  it("sets the scene's length and stretches the layers that filled the scene, unless told not to", () => {
    const store = renderEditor(<PropertyPanel />, {
      prepare: (st) => {
        st.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
        st.dispatch(a.select({ ids: [] }));
      },
    });
    const length = screen.getByRole('spinbutton', { name: '时长' });
    expect(length).toHaveValue('3.0');
    const stretch = screen.getByRole('checkbox', { name: '同时拉伸铺满场景的图层' });
    expect(stretch).toBeChecked();
    fireEvent.change(length, { target: { value: '6' } });
    expect(store.getState().editor.doc.scenes[0]).toMatchObject({ timeLength: 6 });
    expect(layers(store)[0]).toMatchObject({ startTime: 0, endTime: 6 });
    fireEvent.click(stretch);
    fireEvent.change(length, { target: { value: '8' } });
    expect(store.getState().editor.doc.scenes[0]).toMatchObject({ timeLength: 8 });
    expect(layers(store)[0]).toMatchObject({ endTime: 6 });
  });
});

function Backdrop() {
  const scene = useEditorSelector(selectCurrentScene);
  return <StageBackground scene={scene} scale={2} />;
}

describe('scene background', () => {
  it('takes a video of the library by material id, fits or covers it, blurs it as the renderer does, and removes it', async () => {
    const clip = material('v-9', { type: 'video', materialName: '海浪', duration: 4 });
    jest.spyOn(api, 'get').mockResolvedValue([]);
    jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/material/ofuser' || url === '/material/ofdefault') return page([clip]);
      if (url === '/material/info/v-9') return clip;
      throw new Error(`unexpected ${url}`);
    });
    const store = renderWith(
      <>
        <PropertyPanel />
        <Backdrop />
      </>,
    );
    const scene = () => store.getState().editor.doc.scenes[0]!;
    fireEvent.click(screen.getByTestId('scene-bg-pick'));
    fireEvent.click(await screen.findByTestId('material-v-9'));
    await waitFor(() => expect(scene().id).toBe('v-9'));
    const drawn = await screen.findByTestId('stage-background');
    expect(drawn.tagName).toBe('VIDEO');
    expect(drawn).toHaveAttribute('src', clip.url);
    expect(drawn.style.objectFit).toBe('contain');
    expect(await screen.findByTestId('scene-bg-name')).toHaveTextContent('海浪');
    fireEvent.click(screen.getByText('铺满裁切'));
    expect(scene().bgFit).toBe('cover');
    act(() => {
      store.dispatch(a.setBackground({ id: scene().frontendId!, bgBlur: 8 }));
    });
    // σ = half the blur in output pixels (the renderer's filter::blur), here at scale 2.
    expect(screen.getByTestId('stage-background').style.filter).toBe('blur(8px)');
    expect(screen.getByTestId('stage-background').style.objectFit).toBe('cover');
    fireEvent.click(screen.getByTestId('scene-bg-remove'));
    expect(scene().id).toBeUndefined();
    expect(screen.queryByTestId('stage-background')).toBeNull();
  });
});
