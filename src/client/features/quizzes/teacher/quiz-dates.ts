/**
 * A date without its time, en-GB like lib/format.ts formatDateTime (SPEC §9):
 * "21 Nov 2026". Belongs beside formatDateTime in lib/format.ts; kept here
 * while that file is someone else's to edit.
 */
const DAY = new Intl.DateTimeFormat('en-GB', { day: '2-digit', month: 'short', year: 'numeric' });

export function formatDay(value: string | Date): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : DAY.format(date);
}
