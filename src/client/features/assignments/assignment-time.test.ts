import { describe, expect, it } from 'vitest';
import { fromSchoolInput, toSchoolInput } from './assignment-time.ts';

describe('the editor’s date fields on the school’s clock (decision 062)', () => {
  it('reads a typed time in the school’s zone, whatever zone the browser is in', () => {
    expect(fromSchoolInput('2026-12-03T18:30', 'Asia/Kolkata')).toBe('2026-12-03T13:00:00.000Z');
    expect(fromSchoolInput('2026-07-01T09:00', 'America/New_York')).toBe('2026-07-01T13:00:00.000Z');
    expect(fromSchoolInput('2026-12-01T09:00', 'America/New_York')).toBe('2026-12-01T14:00:00.000Z');
  });

  it('shows a stored instant on the school’s clock, and reads it back to the same instant', () => {
    expect(toSchoolInput('2026-12-03T13:00:00.000Z', 'Asia/Kolkata')).toBe('2026-12-03T18:30');
    const instant = '2026-03-29T10:15:00.000Z';
    for (const zone of ['Europe/Madrid', 'Pacific/Auckland', 'UTC', 'Asia/Riyadh'])
      expect(fromSchoolInput(toSchoolInput(instant, zone), zone)).toBe(instant);
  });

  it('leaves an empty field empty and passes an unreadable one on for the schema to refuse', () => {
    expect(toSchoolInput(null, 'UTC')).toBe('');
    expect(fromSchoolInput('  ', 'UTC')).toBeNull();
    expect(fromSchoolInput('2026-02-30T10:00', 'UTC')).toBe('2026-02-30T10:00');
  });
});
