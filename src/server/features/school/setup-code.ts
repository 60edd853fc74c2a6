import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '../../errors.ts';

/**
 * The first run's set-up code (decision 050): whoever sets the school up must have read the
 * server's log, so reaching a fresh server first is not enough to become its administrator.
 */

/** Crockford's base32: no I, L, O or U, so a code read off a terminal cannot be misread. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
/** 12 characters of 5 bits: 60 bits, unguessable at the throttle's few tries an hour. */
const CODE_LENGTH = 12;

/**
 * The code derived from the server's secret: every instance of a cluster (one JWT_SECRET) prints
 * the same, and it survives restarts until the school is set up. The secret cannot be recovered
 * from it (HMAC-SHA256), and tokens signed with the secret say nothing of it.
 */
export function setupCodeFromSecret(secret: string): string {
  const digest = createHmac('sha256', secret).update('studyhall:first-run-setup-code:v1').digest();
  const characters = Array.from({ length: CODE_LENGTH }, (_, index) => ALPHABET[digest[index]! % 32]);
  return [0, 4, 8].map((start) => characters.slice(start, start + 4).join('')).join('-');
}

/**
 * A code as compared: without case, spaces or dashes, and with Crockford's look-alikes read as
 * the digits they stand for (O for 0, I and L for 1).
 */
export const normaliseSetupCode = (text: string) =>
  text.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');

/** SETUP_CODE when given, otherwise the code derived from the secret. */
export const resolveSetupCode = (given: string | undefined, secret: string) => given ?? setupCodeFromSecret(secret);

export const wrongSetupCode = () =>
  new AppError('SETUP_CODE_WRONG', "This is not the server's set-up code. Copy it from the server's log.");

/** Compares in constant time, after the normalisation a person's typing needs (case, dashes, spaces). */
export function createSetupCodeCheck(code: string) {
  const digestOf = (text: string) => createHash('sha256').update(normaliseSetupCode(text)).digest();
  const expected = digestOf(code);
  return {
    matches: (given: string) => timingSafeEqual(digestOf(given), expected),
    /** Throws SETUP_CODE_WRONG (403) unless `given` is the code. */
    require(given: string) {
      if (!timingSafeEqual(digestOf(given), expected)) throw wrongSetupCode();
    },
  };
}

export type SetupCodeCheck = ReturnType<typeof createSetupCodeCheck>;

/** What the server prints at start while the school is not set up (warn: seen at every LOG_LEVEL but error). */
export function setupCodeAnnouncement(code: string, port: number): string {
  return [
    'This StudyHall has no school yet. To set it up, open /setup on this server',
    `(e.g. http://localhost:${port}/setup) and enter this one-time set-up code: ${code}`,
    '(printed at every start until the school is set up; only someone who can read this log can set it up)',
  ].join(' ');
}
