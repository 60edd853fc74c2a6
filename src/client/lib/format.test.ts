import { describe, expect, it } from 'vitest';
import { formatClock, formatDuration, formatHeaderDate, formatPercent } from './format.ts';

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

describe('percentages and durations, one way everywhere', () => {
  it('writes a whole percentage without decimals and any other with two', () => {
    expect(formatPercent(100)).toBe('100%');
    expect(formatPercent('66.666')).toBe('66.67%');
    expect(formatPercent(0)).toBe('0%');
  });

  it('writes a time taken as m:ss', () => {
    expect(formatDuration(7)).toBe('0:07');
    expect(formatDuration(425)).toBe('7:05');
    expect(formatDuration(3725)).toBe('1:02:05');
  });
});
