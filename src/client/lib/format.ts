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
