import { randomInt } from 'node:crypto';

/**
 * Letters and digits that cannot be misread when a teacher reads a password out or a student
 * copies it from paper: no 0, O, o, 1, I, i, l or L.
 */
export const TEMPORARY_PASSWORD_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZabcdefghjkmnpqrstuvwxyz23456789';
/** 10 characters of 55: about 58 bits, far past guessing under the sign-in throttle (decision 016). */
export const TEMPORARY_PASSWORD_LENGTH = 10;

/**
 * A password a person types once (decision 033): a teacher's reset now, a roster import's
 * generated passwords later. Crypto randomness, one unbiased draw per character; grouped
 * `abcde-fghjk` for reading (the dash is part of the password, so it is typed as shown).
 */
export function generateTemporaryPassword(): string {
  const characters = Array.from(
    { length: TEMPORARY_PASSWORD_LENGTH },
    () => TEMPORARY_PASSWORD_ALPHABET[randomInt(TEMPORARY_PASSWORD_ALPHABET.length)]!,
  );
  const half = TEMPORARY_PASSWORD_LENGTH / 2;
  return `${characters.slice(0, half).join('')}-${characters.slice(half).join('')}`;
}
