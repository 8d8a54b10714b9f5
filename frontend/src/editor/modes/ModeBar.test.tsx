import { fireEvent, screen, waitFor } from '@testing-library/react';
import { api } from '@/api/client';
import { PropertyPanel } from '@/editor/page/PropertyPanel';
import { EditorPro } from '@/editor/pro/pro';
import { editorActions as a } from '@/editor/state/editorSlice';
import { firstSceneLayers, renderEditor } from '@/test/renderApp';
import { ModeBar } from './ModeBar';

jest.setTimeout(60_000);
afterEach(() => jest.restoreAllMocks());

function renderWith(usedFor: string, ui: React.ReactNode) {
  jest.spyOn(api, 'get').mockResolvedValue([]);
  return renderEditor(ui, { usedFor });
}

const layers = firstSceneLayers;

describe('mode bar and slot fields', () => {
  it('names a plain work and offers no template submit', () => {
    renderWith('ALL', <ModeBar save={async () => 1} />);
    expect(screen.getByTestId('mode-tag')).toHaveTextContent('视频作品');
    expect(screen.queryByTestId('submit-template')).toBeNull();
    expect(screen.queryByTestId('slot-counts')).toBeNull();
  });

  it('marks a text as a slot with a most length, counts it and submits the template with the mode kind', async () => {
    const store = renderWith(
      'TASK_TEMPLATE',
      <>
        <ModeBar save={async () => 42} />
        <PropertyPanel />
      </>,
    );
    const post = jest.spyOn(api, 'post').mockResolvedValue({ id: 5, auditState: 'pending' });
    expect(screen.getByTestId('mode-tag')).toHaveTextContent('模板制作');
    expect(screen.getByTestId('slot-counts')).toHaveTextContent('文字 0 · 图片 0 · 视频 0');
    fireEvent.click(screen.getByTestId('submit-template'));
    expect(post).not.toHaveBeenCalled();

    store.dispatch(a.addLayer({ kind: 'text', size: 'TOP' }));
    fireEvent.click(await screen.findByTestId('slot-toggle'));
    expect(layers(store)[0]).toMatchObject({ canModify: 1 });
    expect(screen.getByTestId('slot-counts')).toHaveTextContent('文字 1 · 图片 0 · 视频 0');
    expect(screen.getByTestId('mode-bar').querySelector('style')?.textContent).toContain('[data-slot="1"]');
    fireEvent.change(screen.getByTestId('slot-max-length'), { target: { value: '4' } });
    await waitFor(() => expect(layers(store)[0]).toMatchObject({ maxLength: 4 }));
    expect(screen.getByTestId('slot-too-long')).toBeInTheDocument();

    fireEvent.click(screen.getByTestId('submit-template'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/template/submit', { taskId: 42, kind: 'classic', categoryIds: [], sizeCategoryId: 41 }));
  });

  it('gives a business card text a card field, which makes it a slot', async () => {
    const store = renderWith('BUSINESS_CARD_TEMPLATE', <PropertyPanel />);
    store.dispatch(a.addLayer({ kind: 'text', size: 'TOP' }));
    expect(await screen.findByTestId('slot-card-field')).toBeInTheDocument();
    expect(screen.queryByTestId('slot-max-length')).toBeNull();
  });

  it('shows no slot section for a shape, and none in a plain work', async () => {
    const store = renderWith('IVVR', <PropertyPanel />);
    store.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
    expect(await screen.findByTestId('property-panel')).toBeInTheDocument();
    expect(screen.queryByTestId('slot-fields')).toBeNull();
  });

  it('the pro editor adds the advanced section and a pro tag', async () => {
    const store = renderWith(
      'ALL',
      <EditorPro on>
        <ModeBar save={async () => 1} />
        <PropertyPanel />
      </EditorPro>,
    );
    store.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
    expect(screen.getByTestId('pro-tag')).toBeInTheDocument();
    expect(await screen.findByTestId('advanced-section')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('advanced-end'), { target: { value: '2.5' } });
    await waitFor(() => expect(layers(store)[0]).toMatchObject({ endTime: 2.5 }));
  });

  it('a picture of the library can be cropped; a GIF says it cannot', async () => {
    const store = renderWith('ALL', <PropertyPanel />);
    store.dispatch(a.addLayer({ kind: 'picture', src: 'a.png', materialId: 'p1' }));
    expect(await screen.findByTestId('crop-button')).toBeEnabled();
    store.dispatch(a.addLayer({ kind: 'picture', src: 'b.gif', materialId: 'g1', gif: true }));
    await waitFor(() => expect(screen.getByTestId('crop-button')).toBeDisabled());
    expect(screen.getByTestId('crop-hint')).toHaveTextContent('动图不能裁剪：服务器只裁剪静态图片，裁剪会丢掉动画');
  });

  it('an art word has its own section', async () => {
    const store = renderWith('ALL', <PropertyPanel />);
    const { ART_WORD_STYLES } = await import('@/editor/artword/artWords');
    store.dispatch(a.addLayer({ kind: 'artWord', style: ART_WORD_STYLES[0]! }));
    expect(await screen.findByTestId('artword-look')).toBeInTheDocument();
  });
});
