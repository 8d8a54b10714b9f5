import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { api } from '@/api/client';
import { outputSize } from '@/api/ring';
import { editorActions as a } from '@/editor/state/editorSlice';
import { renderEditor } from '@/test/renderApp';
import { QS_PROFILE } from '@/test/ringFixtures';
import { InCallToggle, InCallWarnings, StageInCallOverlay } from './InCall';

/** The editor's use of the in-call parts: the toggle, then the warnings and the stage's overlay while it is on. */
function Harness() {
  const [on, setOn] = useState(false);
  return (
    <>
      <InCallToggle on={on} onChange={setOn} />
      {on && <InCallWarnings />}
      <div style={{ position: 'relative', width: 270, height: 480 }}>{on && <StageInCallOverlay scale={0.5} />}</div>
    </>
  );
}

function serve(violations: unknown[] = []) {
  const get = jest.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/ring/profile') return QS_PROFILE;
    throw new Error(`unexpected GET ${url}`);
  });
  const post = jest.spyOn(api, 'post').mockImplementation(async (url: string) => {
    if (url === '/ring/precheck') return { conforms: violations.length === 0, violations };
    throw new Error(`unexpected POST ${url}`);
  });
  return { get, post };
}

afterEach(() => jest.restoreAllMocks());

describe('the editor in-call preview', () => {
  it('asks nothing until it is turned on', async () => {
    const { get, post } = serve();
    renderEditor(<Harness />);
    await screen.findByTestId('in-call-toggle');
    expect(get).not.toHaveBeenCalled();
    expect(post).not.toHaveBeenCalled();
    expect(screen.queryByTestId('in-call-chrome')).toBeNull();
  });

  it('lays the call screen over the stage and names each layer under a safe zone, with the pre-check', async () => {
    const { post } = serve([{ rule: 'duration', measured: 3, limit: 5, message: 'too short', fixable: false }]);
    const store = renderEditor(<Harness />, {
      prepare: (store) => {
        store.dispatch(a.setAspect('9:16'));
        store.dispatch(a.addLayer({ kind: 'text', size: 'TOP', content: '欢迎光临' }));
        const { doc } = store.getState().editor;
        const text = doc.scenes[0]!.layers[0]!;
        // The text sits at the top, a picture in the middle: only the text is under a band.
        store.dispatch(a.updateLayer({ id: text.id, changes: { x: 20, y: 10 } }));
        store.dispatch(a.addLayer({ kind: 'picture', src: '/p.png', width: 100, height: 100 }));
        const picture = store.getState().editor.doc.scenes[0]!.layers[1]!;
        store.dispatch(a.updateLayer({ id: picture.id, changes: { x: 20, y: doc.resolutionRatio.height * 0.3, w: 100, h: 100 } }));
      },
    });
    fireEvent.click(screen.getByTestId('in-call-toggle'));
    expect(await screen.findByTestId('in-call-chrome')).toBeInTheDocument();
    expect(screen.getByTestId('safe-zone-top')).toHaveAttribute('data-percent', '22');
    expect(screen.getByTestId('safe-zone-bottom')).toHaveAttribute('data-percent', '24');
    const hits = await screen.findByTestId('zone-hits');
    expect(hits).toHaveTextContent('1 个图层在来电遮挡区内');
    expect(within(hits).getAllByRole('listitem')).toHaveLength(1);
    expect(hits).toHaveTextContent('文字「欢迎光临」在顶部来电信息区内');
    const checked = await screen.findByTestId('precheck-violations');
    expect(within(checked).getByTestId('violation-duration')).toHaveTextContent('时长 3 s，下限 5 s');
    const sent = post.mock.calls.find(([u]) => u === '/ring/precheck')?.[1] as Record<string, number>;
    // The size the renderer makes (9:16 renders at the catalogue's target width).
    expect({ width: sent.width, height: sent.height }).toEqual(outputSize(store.getState().editor.doc.resolutionRatio));
    expect((sent.height ?? 0) / (sent.width ?? 1)).toBeCloseTo(16 / 9, 2);
    expect(sent.seconds).toBeGreaterThan(0);
  });

  it('says so when nothing is under a band and the pre-check passes', async () => {
    serve();
    renderEditor(<Harness />, { prepare: (store) => store.dispatch(a.setAspect('9:16')) });
    fireEvent.click(screen.getByTestId('in-call-toggle'));
    await waitFor(() => expect(screen.getByTestId('in-call-warnings')).toHaveTextContent('没有内容被来电信息遮挡，规格检查通过'));
  });
});
