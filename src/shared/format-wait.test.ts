import { describe, expect, it } from 'vitest';
import { formatWait } from './format-wait.ts';

describe('formatWait', () => {
  it('rounds up to what a person reads', () => {
    expect(formatWait(0.001)).toBe('in 1 second');
    expect(formatWait(40)).toBe('in 40 seconds');
    expect(formatWait(59.001)).toBe('in 1 minute');
    expect(formatWait(60)).toBe('in 1 minute');
    expect(formatWait(60.001)).toBe('in 2 minutes');
    expect(formatWait(90 * 60)).toBe('in 90 minutes');
    expect(formatWait(91 * 60)).toBe('in 2 hours');
  });
});
