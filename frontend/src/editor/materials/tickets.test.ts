import type { Material } from '@/api/material';
import type { Rule } from '@/editor/model/gen/Rule';
import { buildLayer, newRule } from '@/editor/state/defaults';
import { saveableRule } from '@/editor/state/selectors';
import { editorReducer, editorActions as a } from '@/editor/state/editorSlice';
import { api } from '@/api/client';
import { fetchMaterialsByIds, materialIds, resign, ticketOf, withoutTickets, withTickets } from './tickets';

const PIC = '/diyvrbt/material/file/m1/original?ticket=old.one';
const VID = '/diyvrbt/material/file/m2/original?ticket=old.two';

function docWithMedia(): Rule {
  const rule = newRule();
  const scene = rule.scenes[0]!;
  scene.layers.push(buildLayer({ kind: 'picture', src: PIC, materialId: 'm1', width: 100, height: 50 }, 1, 100, [0, 3], rule.resolutionRatio));
  scene.layers.push(buildLayer({ kind: 'video', src: VID, materialId: 'm2', width: 100, height: 50 }, 2, 101, [0, 3], rule.resolutionRatio));
  scene.layers.push(buildLayer({ kind: 'picture', src: '/diyvrbt/material/file/m1/cover?ticket=old.one', materialId: 'm1', width: 10, height: 10 }, 3, 102, [0, 3], rule.resolutionRatio));
  return rule;
}

function material(id: string, ticket: string): Material {
  return { id, url: `/diyvrbt/material/file/${id}/original?ticket=${ticket}`, coverUrl: '' } as Material;
}

describe('material tickets', () => {
  it('reads a ticket from a signed address', () => {
    expect(ticketOf(PIC)).toBe('old.one');
    expect(ticketOf('/diyvrbt/material/file/m1/original')).toBeNull();
  });

  it('lists each addressed material once and strips every ticket', () => {
    const rule = docWithMedia();
    expect(materialIds(rule)).toEqual(['m1', 'm2']);
    const bare = JSON.stringify(withoutTickets(rule));
    expect(bare).not.toContain('ticket');
    expect(bare).toContain('/diyvrbt/material/file/m1/cover"');
  });

  it('signs each address with its material ticket', () => {
    const signed = withTickets(docWithMedia(), new Map([['m1', 'new.one']]));
    const text = JSON.stringify(signed);
    expect(text).toContain('/diyvrbt/material/file/m1/original?ticket=new.one');
    expect(text).toContain('/diyvrbt/material/file/m1/cover?ticket=new.one');
    // A material the answer does not list is left unsigned rather than with a dead ticket.
    expect(text).toContain('/diyvrbt/material/file/m2/original"');
  });

  it('re-signs an opened document from /material/byIds, and keeps it as saved when the call fails', async () => {
    const fetch = jest.fn(async (ids: string[]) => ids.map((id) => material(id, `fresh-${id}`)));
    const signed = await resign(withoutTickets(docWithMedia()), fetch);
    expect(fetch).toHaveBeenCalledWith(['m1', 'm2']);
    expect(JSON.stringify(signed)).toContain('m2/original?ticket=fresh-m2');
    const rule = docWithMedia();
    expect(await resign(rule, async () => Promise.reject(new Error('down')))).toBe(rule);
    const none = newRule();
    expect(await resign(none, fetch)).toBe(none);
  });

  it('asks /material/byIds for every id in one "a,b" field (a form body would keep only the last of a repeated key)', async () => {
    const post = jest.spyOn(api, 'post').mockResolvedValue([]);
    await fetchMaterialsByIds(['m1', 'm2']);
    expect(post).toHaveBeenCalledWith('/material/byIds', { ids: 'm1,m2' });
    post.mockRestore();
  });

  it('saves no ticket', () => {
    const state = editorReducer(undefined, a.loaded({ rule: docWithMedia(), taskId: 3, name: 'x', usedFor: 'ALL' }));
    expect(JSON.stringify(saveableRule(state))).not.toContain('ticket=');
    expect(JSON.stringify(state.doc)).toContain('ticket=old.one');
  });
});
