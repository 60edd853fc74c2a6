import { describe, expect, it } from 'vitest';
import { decodeBoardDownload, encodeBoardDownload } from './board-download.ts';

describe('a board download’s framing', () => {
  it('gives back the updates it framed, in order, empty ones included', () => {
    const updates = [new Uint8Array([1, 2, 3]), new Uint8Array(0), new Uint8Array(300).fill(7)];
    expect(decodeBoardDownload(encodeBoardDownload(updates))).toEqual(updates);
    expect(decodeBoardDownload(encodeBoardDownload([]))).toEqual([]);
  });

  it('refuses a body that is not one: cut short, too long, or counting more than it holds', () => {
    const body = encodeBoardDownload([new Uint8Array([1, 2, 3])]);
    expect(() => decodeBoardDownload(body.subarray(0, body.length - 1))).toThrow();
    expect(() => decodeBoardDownload(new Uint8Array([...body, 0]))).toThrow();
    expect(() => decodeBoardDownload(new Uint8Array([200, 1]))).toThrow();
  });
});
