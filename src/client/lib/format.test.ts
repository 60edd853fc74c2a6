import { describe, expect, it } from 'vitest';
import { formatClock, formatHeaderDate } from './format.ts';

describe('header clock and date', () => {
  it.each([
    [new Date(2026, 10, 21, 0, 5), '12:05 AM'],
    [new Date(2026, 10, 21, 9, 0), '9:00 AM'],
    [new Date(2026, 10, 21, 12, 30), '12:30 PM'],
    [new Date(2026, 10, 21, 23, 59), '11:59 PM'],
  ])('formats %s as %s', (date, expected) => {
    expect(formatClock(date)).toBe(expected);
  });

  it('writes the date as d/m/yyyy without padding', () => {
    expect(formatHeaderDate(new Date(2026, 0, 5))).toBe('5/1/2026');
    expect(formatHeaderDate(new Date(2026, 10, 21))).toBe('21/11/2026');
  });
});
