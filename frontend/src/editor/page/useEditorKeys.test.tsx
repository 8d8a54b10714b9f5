import { fireEvent, screen } from '@testing-library/react';
import { editorActions as a } from '@/editor/state/editorSlice';
import { firstSceneLayers, renderEditor } from '@/test/renderApp';
import { useEditorKeys } from './useEditorKeys';

jest.setTimeout(60_000);

/** The hook with a text input, a textarea and editable content to type in. */
function Keys() {
  useEditorKeys(jest.fn(), jest.fn());
  return (
    <>
      <input aria-label="input" />
      <textarea aria-label="textarea" />
      <div contentEditable suppressContentEditableWarning aria-label="editable">
        <span>正文</span>
      </div>
    </>
  );
}

/** An editor holding two rectangles, both selected, with the second addition undoable. */
function setup() {
  const store = renderEditor(<Keys />, {
    prepare: (s) => {
      s.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
      s.dispatch(a.addLayer({ kind: 'shape', shape: 'rect' }));
      s.dispatch(a.select({ ids: firstSceneLayers(s).map((l) => l.id) }));
    },
  });
  return { store, count: () => firstSceneLayers(store).length };
}

const MODIFIERS = [
  ['Ctrl', { ctrlKey: true }],
  ['⌘', { metaKey: true }],
] as const;

describe('editor shortcuts', () => {
  it.each(MODIFIERS)('undoes with %s+Z and redoes with %s+Shift+Z', (_name, mod) => {
    const { count } = setup();
    fireEvent.keyDown(window, { key: 'z', ...mod });
    expect(count()).toBe(1);
    // Shift makes the key an upper-case Z in most browsers.
    fireEvent.keyDown(window, { key: 'Z', shiftKey: true, ...mod });
    expect(count()).toBe(2);
  });

  it.each(MODIFIERS)('redoes with %s+Y', (_name, mod) => {
    const { count } = setup();
    fireEvent.keyDown(window, { key: 'z', ...mod });
    expect(count()).toBe(1);
    fireEvent.keyDown(window, { key: 'y', ...mod });
    expect(count()).toBe(2);
  });

  it.each(['Delete', 'Backspace'])('deletes every selected layer with %s, and undo brings them back', (key) => {
    const { store, count } = setup();
    fireEvent.keyDown(window, { key });
    expect(count()).toBe(0);
    expect(store.getState().editor.selection).toEqual([]);
    fireEvent.keyDown(window, { key: 'z', metaKey: true });
    expect(count()).toBe(2);
  });

  it('leaves the document alone without a selection', () => {
    const { store, count } = setup();
    store.dispatch(a.select({ ids: [] }));
    fireEvent.keyDown(window, { key: 'Delete' });
    fireEvent.keyDown(window, { key: 'Backspace' });
    expect(count()).toBe(2);
  });

  it.each(['input', 'textarea', 'editable'])('fires none of them while typing in the %s', (label) => {
    const { store, count } = setup();
    const field = screen.getByLabelText(label);
    // Inside editable content the key's target is whatever element holds the caret.
    const target = label === 'editable' ? (field.firstElementChild as HTMLElement) : field;
    const keys = [
      { key: 'Delete' },
      { key: 'Backspace' },
      { key: 'z', ctrlKey: true },
      { key: 'z', metaKey: true },
      { key: 'Z', ctrlKey: true, shiftKey: true },
      { key: 'Z', metaKey: true, shiftKey: true },
      { key: 'y', ctrlKey: true },
      { key: 'ArrowLeft' },
      { key: 'd', ctrlKey: true },
    ];
    const before = firstSceneLayers(store);
    for (const k of keys) fireEvent.keyDown(target, k);
    expect(firstSceneLayers(store)).toBe(before);
    expect(count()).toBe(2);
  });

  it('leaves keys that end a pinyin composition to the text', () => {
    const { count } = setup();
    fireEvent.keyDown(window, { key: 'Backspace', isComposing: true });
    expect(count()).toBe(2);
  });
});
