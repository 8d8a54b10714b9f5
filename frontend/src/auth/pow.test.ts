import { createHash, webcrypto } from 'node:crypto';
import { leadingZeroBits, sha256, solveChallenge } from './pow';

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');

describe('proof of work', () => {
  it('counts leading zero bits across bytes', () => {
    expect(leadingZeroBits(new Uint8Array([0, 0, 0x1f, 0xff]))).toBe(19);
    expect(leadingZeroBits(new Uint8Array([0x80]))).toBe(0);
    expect(leadingZeroBits(new Uint8Array([0, 0]))).toBe(16);
  });

  it('hashes as SHA-256 does without SubtleCrypto', () => {
    for (const text of ['', 'abc', 'c1.16.1790000000.nonce.mac:12345', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(1000)]) {
      const data = new TextEncoder().encode(text);
      expect([text.length, hex(sha256(data))]).toEqual([text.length, createHash('sha256').update(data).digest('hex')]);
    }
  });

  it('finds the smallest solution, with SubtleCrypto and without', async () => {
    const token = 'c1.10.1790000000.0123456789abcdef.mac';
    const solves = (n: number) => leadingZeroBits(createHash('sha256').update(`${token}:${n}`).digest()) >= 10;
    let n = 0;
    while (!solves(n)) n++;
    const smallest = String(n);
    const crypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
    try {
      Object.defineProperty(globalThis, 'crypto', { value: webcrypto, configurable: true });
      expect(await solveChallenge(token, 10)).toBe(smallest);
      Object.defineProperty(globalThis, 'crypto', { value: {}, configurable: true });
      expect(await solveChallenge(token, 10)).toBe(smallest);
    } finally {
      if (crypto) Object.defineProperty(globalThis, 'crypto', crypto);
    }
  });

  it('stops when aborted', async () => {
    const abort = new AbortController();
    abort.abort(new Error('left the page'));
    await expect(solveChallenge('t', 30, abort.signal)).rejects.toThrow('left the page');
  });
});
