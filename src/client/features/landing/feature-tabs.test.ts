import { describe, expect, it } from 'vitest';
import { directionAt, tabClassName, tabIndexAfterKey } from './feature-tabs.ts';

describe('tabIndexAfterKey', () => {
  it('moves right and left, wrapping around at the ends', () => {
    expect(tabIndexAfterKey('ArrowRight', 0, 2)).toBe(1);
    expect(tabIndexAfterKey('ArrowRight', 1, 2)).toBe(0);
    expect(tabIndexAfterKey('ArrowLeft', 1, 3)).toBe(0);
    expect(tabIndexAfterKey('ArrowLeft', 0, 3)).toBe(2);
  });

  it('jumps to the first and last tab with Home and End', () => {
    expect(tabIndexAfterKey('Home', 2, 3)).toBe(0);
    expect(tabIndexAfterKey('End', 0, 3)).toBe(2);
  });

  it('right to left (Arabic), moves to the next tab with Left and back with Right', () => {
    expect(tabIndexAfterKey('ArrowLeft', 0, 2, 'rtl')).toBe(1);
    expect(tabIndexAfterKey('ArrowLeft', 1, 2, 'rtl')).toBe(0);
    expect(tabIndexAfterKey('ArrowRight', 1, 3, 'rtl')).toBe(0);
    expect(tabIndexAfterKey('ArrowRight', 0, 3, 'rtl')).toBe(2);
    expect(tabIndexAfterKey('Home', 2, 3, 'rtl')).toBe(0);
    expect(tabIndexAfterKey('End', 0, 3, 'rtl')).toBe(2);
  });

  it('leaves every other key alone (Tab must still leave the tab list)', () => {
    for (const key of ['Tab', 'Enter', ' ', 'ArrowDown', 'ArrowUp', 'a']) {
      expect(tabIndexAfterKey(key, 0, 2)).toBeUndefined();
    }
  });
});

describe('directionAt', () => {
  /** An element whose nearest ancestor with `dir` (if any) says `dir`, as Element.closest answers. */
  const elementIn = (dir: string | null) =>
    ({ closest: () => (dir === null ? null : { getAttribute: () => dir }) }) as unknown as Element;

  it('reads the direction from the nearest dir, <html> included, left to right without one', () => {
    expect(directionAt(elementIn('rtl'))).toBe('rtl');
    expect(directionAt(elementIn('ltr'))).toBe('ltr');
    expect(directionAt(elementIn(null))).toBe('ltr');
  });
});

describe('tabClassName', () => {
  it('lifts only the selected tab onto the white pill', () => {
    expect(tabClassName(true)).toContain('bg-surface text-brand-700');
    expect(tabClassName(false)).not.toMatch(/(^| )bg-surface( |$)/);
  });
});
