import { defaultSpec, drawElement, elementSize, ELEMENT_RESOLUTION, linesOf, type Ctx2D } from './drawElement';

/** A context that records what is drawn. */
function recorder() {
  const calls: string[] = [];
  const gradient = { addColorStop: (at: number, c: string) => calls.push(`stop ${at} ${c}`) };
  const ctx = {
    font: '',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    lineJoin: 'miter',
    lineWidth: 1,
    fillStyle: '',
    strokeStyle: '',
    shadowColor: '',
    shadowBlur: 0,
    shadowOffsetX: 0,
    shadowOffsetY: 0,
    measureText: () => ({ width: 100 }),
    fillText: (s: string) => calls.push(`fill ${s} shadow=${ctx.shadowColor}`),
    strokeText: (s: string) => calls.push(`stroke ${s} width=${ctx.lineWidth} ${String(ctx.strokeStyle)} shadow=${ctx.shadowColor}`),
    createLinearGradient: () => gradient,
    beginPath: () => calls.push('path'),
    roundRect: (...a: number[]) => calls.push(`plate ${a.join(',')}`),
    fill: () => calls.push(`plate fill shadow=${ctx.shadowColor}`),
    stroke: () => calls.push(`plate border ${String(ctx.strokeStyle)}`),
    clearRect: () => calls.push('clear'),
    setTransform: (a: number) => calls.push(`scale ${a}`),
  };
  return { ctx: ctx as unknown as Ctx2D, calls };
}

describe('make-element drawing', () => {
  it('sizes an art word by its lines plus room for the outline and shadow', () => {
    const s = defaultSpec('artWord', '限时特惠');
    const size = elementSize(s, [256]);
    // margin: outline 3 + shadow blur 6 + offset 4 + 4 = 17 on each side.
    expect(size).toEqual({ w: 256 + 34, h: Math.ceil(64 * 1.25 + 34), pad: 0 });
    expect(linesOf('a\nb')).toEqual(['a', 'b']);
  });

  it('draws an art word: outline under the fill with the shadow, then the gradient fill', () => {
    const { ctx, calls } = recorder();
    const s = defaultSpec('artWord', '特惠');
    drawElement(ctx, s, 'Noto Sans CJK SC', elementSize(s, [128]));
    expect(calls[0]).toBe(`scale ${ELEMENT_RESOLUTION}`);
    expect(calls).toContain('stop 0 #fff3b0');
    expect(calls).toContain('stop 1 #e0a100');
    const stroke = calls.findIndex((c) => c.startsWith('stroke 特惠'));
    const fill = calls.findIndex((c) => c.startsWith('fill 特惠'));
    expect(stroke).toBeGreaterThan(0);
    expect(fill).toBeGreaterThan(stroke);
    expect(calls[stroke]).toBe('stroke 特惠 width=6 #7a4a00 shadow=#00000080');
    expect(calls[fill]).toBe('fill 特惠 shadow=transparent');
    expect(calls.some((c) => c.startsWith('plate'))).toBe(false);
  });

  it('draws a button: a shadowed rounded plate with its border, then the text without a shadow', () => {
    const { ctx, calls } = recorder();
    const s = defaultSpec('button', '按 1');
    const size = elementSize(s, [80]);
    expect(size.pad).toBeGreaterThan(0);
    drawElement(ctx, s, 'x', size);
    expect(calls.indexOf('plate fill shadow=#00000066')).toBeGreaterThan(calls.findIndex((c) => c.startsWith('plate ')));
    expect(calls).toContain('plate border #ffffff');
    expect(calls).toContain('fill 按 1 shadow=transparent');
  });
});
