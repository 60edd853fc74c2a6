import { describe, expect, it } from 'vitest';
import { formatStorageSize } from './resources.ts';

describe('formatStorageSize', () => {
  it('says a size as a person reads it, with at most one decimal', () => {
    expect(formatStorageSize(0)).toBe('0 bytes');
    expect(formatStorageSize(1)).toBe('1 byte');
    expect(formatStorageSize(1000)).toBe('1000 bytes');
    expect(formatStorageSize(1024)).toBe('1 KB');
    expect(formatStorageSize(12.5 * 1024)).toBe('12.5 KB');
    expect(formatStorageSize(120 * 1024 * 1024)).toBe('120 MB');
    expect(formatStorageSize(4.84 * 1024 ** 3)).toBe('4.8 GB');
    expect(formatStorageSize(5 * 1024 ** 3)).toBe('5 GB');
    expect(formatStorageSize(2 * 1024 ** 4)).toBe('2 TB');
    expect(formatStorageSize(2048 * 1024 ** 4)).toBe('2048 TB');
  });
});
