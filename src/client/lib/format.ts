import { formatAccuracy } from '#shared/accuracy';

/** 12-hour clock for the dashboard header, e.g. "4:05 PM". */
export function formatClock(date: Date): string {
  const hours = date.getHours() % 12 || 12;
  const minutes = String(date.getMinutes()).padStart(2, '0');
  return `${hours}:${minutes} ${date.getHours() < 12 ? 'AM' : 'PM'}`;
}

/** Header date as d/m/yyyy (SPEC §2), e.g. "21/11/2026". */
export function formatHeaderDate(date: Date): string {
  return `${date.getDate()}/${date.getMonth() + 1}/${date.getFullYear()}`;
}

/** SPEC §9 dates: en-GB, 2-digit day, short month, year, with the time, e.g. "21 Nov 2026, 16:05". */
export function formatDateTime(value: string | Date): string {
  return new Date(value).toLocaleString('en-GB', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
}

/** A countdown as m:ss (or h:mm:ss past an hour), e.g. "9:05". */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  const rest = String(seconds % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

const DAY = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });

/** SPEC §9 date without its time, e.g. "21 Nov 2026"; "—" for a value that is not a date. */
export function formatDay(value: string | Date): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : DAY.format(date);
}

/** "1 minute", "3 minutes": a count with its word in the right number (English -s plural). */
export const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/**
 * Every percentage the app shows (accuracy, % correct): a whole number when it is one,
 * otherwise two decimals (SPEC §4 accuracy display), then "%": "100%", "66.67%".
 */
export const formatPercent = (value: number | string) => `${formatAccuracy(value)}%`;

/** A time taken, e.g. 425 s -> "7:05" (m:ss, h:mm:ss past an hour), as the quiz timer counts. */
export const formatDuration = (totalSeconds: number) => formatCountdown(totalSeconds);
