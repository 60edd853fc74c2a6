import { describe, expect, it } from 'vitest';
import { instantToZoned, isTimeZone, timeZoneSchema, zonedToInstant, zoneOffsetMs } from './time-zones.ts';

const at = (date: string, time: string, zone: string) => zonedToInstant({ date, time }, zone)?.toISOString();

describe('school time zones', () => {
  it('accepts the runtime’s zones, their aliases and UTC, and nothing else', () => {
    expect(isTimeZone('Europe/Madrid')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Asia/Kolkata')).toBe(true);
    expect(isTimeZone('Asia/Calcutta')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(timeZoneSchema.safeParse('+02:00').success).toBe(false);
    expect(timeZoneSchema.safeParse('America/New_York').success).toBe(true);
  });

  it('reads a wall clock in winter and in summer with each season’s offset', () => {
    expect(at('2026-01-15', '09:00', 'Europe/Madrid')).toBe('2026-01-15T08:00:00.000Z');
    expect(at('2026-07-15', '09:00', 'Europe/Madrid')).toBe('2026-07-15T07:00:00.000Z');
    expect(at('2026-07-15', '09:00', 'America/New_York')).toBe('2026-07-15T13:00:00.000Z');
    expect(at('2026-07-15', '09:00', 'Asia/Kolkata')).toBe('2026-07-15T03:30:00.000Z');
    expect(at('2026-07-15', '23:59', 'UTC')).toBe('2026-07-15T23:59:00.000Z');
    expect(zoneOffsetMs(Date.parse('2026-07-15T00:00:00Z'), 'Europe/Madrid')).toBe(2 * 3_600_000);
  });

  it('moves a time the clocks skipped forward by the gap (spring forward)', () => {
    // Europe/Madrid skips 02:00–03:00 on 29 March 2026; New York skips it on 8 March.
    expect(at('2026-03-29', '02:30', 'Europe/Madrid')).toBe('2026-03-29T01:30:00.000Z');
    expect(instantToZoned(new Date('2026-03-29T01:30:00Z'), 'Europe/Madrid')).toEqual({
      date: '2026-03-29',
      time: '03:30',
    });
    expect(at('2026-03-29', '01:59', 'Europe/Madrid')).toBe('2026-03-29T00:59:00.000Z');
    expect(at('2026-03-29', '03:00', 'Europe/Madrid')).toBe('2026-03-29T01:00:00.000Z');
    expect(at('2026-03-08', '02:15', 'America/New_York')).toBe('2026-03-08T07:15:00.000Z');
  });

  it('takes the first of a time that happens twice (fall back)', () => {
    // 02:30 happens twice in Madrid on 25 October 2026: at +02:00, then at +01:00.
    expect(at('2026-10-25', '02:30', 'Europe/Madrid')).toBe('2026-10-25T00:30:00.000Z');
    expect(instantToZoned(new Date('2026-10-25T01:30:00Z'), 'Europe/Madrid')).toEqual({
      date: '2026-10-25',
      time: '02:30',
    });
    expect(at('2026-11-01', '01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(at('2026-10-25', '03:00', 'Europe/Madrid')).toBe('2026-10-25T02:00:00.000Z');
  });

  it('goes there and back for every half hour across both changes', () => {
    for (const zone of ['Europe/Madrid', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'UTC']) {
      for (const start of ['2026-03-28T00:00:00Z', '2026-10-24T00:00:00Z', '2026-04-04T00:00:00Z']) {
        for (let step = 0; step < 96; step++) {
          const instant = new Date(Date.parse(start) + step * 1_800_000);
          const wall = instantToZoned(instant, zone);
          const back = zonedToInstant(wall, zone)!;
          // The second of a repeated hour reads back as its first: the same wall clock, an hour earlier.
          expect(instantToZoned(back, zone)).toEqual(wall);
          expect(instant.getTime() - back.getTime()).toBeGreaterThanOrEqual(0);
          expect(instant.getTime() - back.getTime()).toBeLessThanOrEqual(3_600_000);
        }
      }
    }
  });

  it('refuses a malformed or impossible wall clock', () => {
    expect(zonedToInstant({ date: '2026-02-30', time: '10:00' }, 'UTC')).toBeNull();
    expect(zonedToInstant({ date: '2026-02-03', time: '24:00' }, 'UTC')).toBeNull();
    expect(zonedToInstant({ date: '26-02-03', time: '10:00' }, 'UTC')).toBeNull();
    expect(zonedToInstant({ date: '2026-02-03', time: '10:61' }, 'UTC')).toBeNull();
  });
});
