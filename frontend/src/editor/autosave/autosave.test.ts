import { buildLayer, newRule, newScene } from '@/editor/state/defaults';
import { CLEARED, editToOffer, fingerprint, parseStoredEdit, storedEdit } from './autosave';

describe('autosave rules', () => {
  const saved = newRule();
  const edited = { ...saved, visualFilter: 'warm' };

  it('fingerprints documents apart and the same document alike', () => {
    expect(fingerprint(saved)).toBe(fingerprint(JSON.parse(JSON.stringify(saved))));
    expect(fingerprint(saved)).not.toBe(fingerprint(edited));
  });

  it('offers stored edits made on top of the document as opened', () => {
    const stored = parseStoredEdit(storedEdit(fingerprint(saved), '我的作品', edited, 1_700_000_000_000));
    expect(stored?.at).toBe(1_700_000_000_000);
    expect(editToOffer(stored, saved, fingerprint(saved), '我的作品')?.rule.visualFilter).toBe('warm');
  });

  it('offers a renamed document too', () => {
    const stored = parseStoredEdit(storedEdit(fingerprint(saved), '新名字', saved, 1));
    expect(editToOffer(stored, saved, fingerprint(saved), '旧名字')?.name).toBe('新名字');
  });

  it('does not offer edits older than a later save, or the same document', () => {
    const older = parseStoredEdit(storedEdit(fingerprint(saved), 'n', edited, 1));
    // The task was saved since (here or elsewhere): it is no longer the document the edits began from.
    expect(editToOffer(older, edited, fingerprint(edited), 'n')).toBeNull();
    const same = parseStoredEdit(storedEdit(fingerprint(saved), 'n', saved, 1));
    expect(editToOffer(same, saved, fingerprint(saved), 'n')).toBeNull();
  });

  it('offers a new document\'s edits only to a new document', () => {
    const withShape = { ...saved, scenes: [{ ...saved.scenes[0]!, layers: [buildLayer({ kind: 'shape', shape: 'rect' }, 1, 100, [0, 3], saved.resolutionRatio)] }] };
    const stored = parseStoredEdit(storedEdit('', '未命名', withShape, 1));
    expect(editToOffer(stored, saved, '', '未命名')).not.toBeNull();
    expect(editToOffer(stored, saved, fingerprint(saved), '未命名')).toBeNull();
  });

  it('offers a new document nothing when the stored one is empty too, whatever its ratio or scene ids', () => {
    const blank = newRule();
    const tried = { ...newRule(), resolutionRatio: { ...blank.resolutionRatio, name: '9:16', width: 360, height: 640 }, scenes: [{ ...newScene(3), isActive: true }] };
    expect(editToOffer(parseStoredEdit(storedEdit('', '未命名', tried, 1)), blank, '', '未命名')).toBeNull();
    const withText = { ...blank, scenes: [{ ...blank.scenes[0]!, layers: [buildLayer({ kind: 'text', size: 'TOP' }, 1, 100, [0, 3], blank.resolutionRatio)] }] };
    expect(editToOffer(parseStoredEdit(storedEdit('', '未命名', withText, 1)), blank, '', '未命名')).not.toBeNull();
  });

  it('tells documents apart by what they hold, not by which scene was on show or the editor ids of scenes', () => {
    const shown = { ...saved, scenes: [{ ...saved.scenes[0]!, bgColor: '#112233', isActive: false, frontendId: 7 }] };
    const stored = parseStoredEdit(storedEdit(fingerprint(saved), 'n', shown, 1));
    const opened = { ...saved, scenes: [{ ...saved.scenes[0]!, bgColor: '#112233' }] };
    expect(editToOffer(stored, opened, fingerprint(saved), 'n')).toBeNull();
  });

  it('reads nothing from an empty, cleared or foreign state', () => {
    expect(parseStoredEdit('')).toBeNull();
    expect(parseStoredEdit(CLEARED)).toBeNull();
    expect(parseStoredEdit('{"scenes": []}')).toBeNull();
    expect(parseStoredEdit('not json')).toBeNull();
  });
});
