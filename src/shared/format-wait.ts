/**
 * A wait as a person reads it, rounded up: "in 40 seconds", "in 1 minute", "in 4 minutes",
 * "in 2 hours". One wording for the server's refusals (Retry-After) and the client's texts.
 */
export function formatWait(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  if (whole < 60) return `in ${whole} ${whole === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(whole / 60);
  if (minutes <= 90) return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  return `in ${Math.ceil(minutes / 60)} hours`;
}
