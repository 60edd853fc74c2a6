import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';

/**
 * The school's time zone (decision 062): an IANA name, and the two conversions due dates need,
 * a wall-clock date and time in that zone to an instant and back. Intl only: no zone database
 * of our own, so the zones are the ones the runtime (Node's ICU, the browser) knows.
 */

export const UTC_ZONE = 'UTC';

let supported: Set<string> | null = null;

/** The runtime's IANA zones (Intl.supportedValuesOf), with UTC, which some engines list only as an alias. */
export function supportedTimeZones(): string[] {
  supported ??= new Set([UTC_ZONE, ...Intl.supportedValuesOf('timeZone')]);
  return [...supported];
}

/**
 * A zone the runtime lists, or an alias of one (a browser may report Asia/Kolkata where Node lists
 * Asia/Calcutta): what the school's setting accepts.
 */
export function isTimeZone(value: string): boolean {
  supportedTimeZones();
  if (supported!.has(value)) return true;
  try {
    return supported!.has(new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}

export const timeZoneSchema = z
  .string()
  .check(z.maxLength(64), z.refine(isTimeZone, { params: fieldCode('INVALID_CHOICE') }));

/** A wall-clock date and time: `YYYY-MM-DD` and `HH:MM` (24 hours), as date and time inputs give them. */
export type WallClock = { date: string; time: string };

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string) {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, formatter);
  }
  return formatter;
}

/** The zone's wall clock at `epochMs` as the epoch milliseconds of the same fields read as UTC. */
function wallClockAsUtc(epochMs: number, zone: string): number {
  const parts = Object.fromEntries(
    formatterOf(zone)
      .formatToParts(new Date(epochMs))
      .map((part) => [part.type, part.value]),
  );
  return Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
}

/** The zone's offset from UTC at `epochMs`, in milliseconds (positive east of Greenwich). */
export function zoneOffsetMs(epochMs: number, zone: string): number {
  const whole = Math.floor(epochMs / 1000) * 1000;
  return wallClockAsUtc(whole, zone) - whole;
}

const WALL_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const WALL_TIME = /^(\d{2}):(\d{2})$/;

/**
 * The instant the wall clock `date` `time` shows in `zone`; null for a malformed date or time.
 * As Temporal's "compatible" disambiguation: a time the clocks skipped (spring forward) is read
 * with the offset before the change, so 02:30 on that night is 03:30; a time that happens twice
 * (fall back) is the first of the two.
 */
export function zonedToInstant({ date, time }: WallClock, zone: string): Date | null {
  const d = WALL_DATE.exec(date);
  const t = WALL_TIME.exec(time);
  if (!d || !t) return null;
  const asUtc = Date.UTC(+d[1]!, +d[2]! - 1, +d[3]!, +t[1]!, +t[2]!);
  const check = new Date(asUtc);
  if (check.getUTCDate() !== +d[3]! || check.getUTCMonth() !== +d[2]! - 1 || +t[1]! > 23 || +t[2]! > 59) return null;
  // The offsets a day either side bound every transition near this wall time.
  const before = zoneOffsetMs(asUtc - 86_400_000, zone);
  const after = zoneOffsetMs(asUtc + 86_400_000, zone);
  const candidates = [...new Set([before, after])]
    .map((offset) => asUtc - offset)
    .filter((instant) => wallClockAsUtc(instant, zone) === asUtc)
    .sort((a, b) => a - b);
  // Both read back: the fall-back hour, the first of the two. Neither: the spring-forward gap.
  return new Date(candidates[0] ?? asUtc - before);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** The wall clock `instant` shows in `zone`, to the minute (seconds are dropped, as the inputs have none). */
export function instantToZoned(instant: Date, zone: string): WallClock {
  const wall = new Date(wallClockAsUtc(instant.getTime(), zone));
  return {
    date: `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}`,
    time: `${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`,
  };
}

/** The zone the browser (or the server's process) runs in, if it is one we accept; else UTC. */
export function runtimeTimeZone(): string {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isTimeZone(zone) ? zone : UTC_ZONE;
}
