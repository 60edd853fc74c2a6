import { plural, t } from '@lingui/core/macro';

/**
 * A wait as a person reads it, in the active locale, rounded up: "in 40 seconds", "in 1 minute",
 * "in 2 hours" (Lingui plurals: Arabic has six forms). The client's twin of src/shared/format-wait.ts,
 * which stays English for the server's own sentences. Said after "Try again", without a full stop.
 */
export function waitText(waitSeconds: number): string {
  const seconds = Math.max(1, Math.ceil(waitSeconds));
  if (seconds < 60) {
    return t({
      comment: 'A wait, said after "Try again": in 1 second, in 40 seconds',
      message: plural(seconds, { one: 'in # second', other: 'in # seconds' }),
    });
  }
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 90) {
    return t({
      comment: 'A wait, said after "Try again": in 1 minute, in 4 minutes',
      message: plural(minutes, { one: 'in # minute', other: 'in # minutes' }),
    });
  }
  const hours = Math.ceil(minutes / 60);
  return t({
    comment: 'A wait, said after "Try again": in 2 hours',
    message: plural(hours, { one: 'in # hour', other: 'in # hours' }),
  });
}

/** A wait whose length is not known (no Retry-After came), said after "Try again". */
export const unknownWaitText = () =>
  t({ comment: 'A wait of unknown length, said after "Try again"', message: 'in a moment' });
