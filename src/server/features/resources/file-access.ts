import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { forbidden } from '../../errors.ts';

/** File addresses stay valid this long: as long as the session that listed them. */
const ACCESS_LIFETIME_SECONDS = 12 * 60 * 60;
/** Expiries are rounded up to the hour, so one file keeps one address (and stays cached) for an hour. */
const ROUND_SECONDS = 60 * 60;

/**
 * Signed file addresses. `<a target=_blank>`, `<img>` and `<video>` cannot send a
 * bearer header, so the list hands each caller addresses signed for them and that
 * resource only: `access` = user id, expiry and an HMAC of (resource, user, expiry).
 * The key is derived from the JWT secret but is not it, so an access value can
 * never pass as a session token nor the other way round.
 */
export function createFileAccess(secret: string, now: () => number = Date.now) {
  const key = createHash('sha256').update(`studyhall:file-access:${secret}`).digest();
  const mac = (resourceId: string, userId: string, expires: number) =>
    createHmac('sha256', key).update(`${resourceId}.${userId}.${expires}`).digest('base64url');

  return {
    /** The `access` value that lets `userId` fetch `resourceId` for the next 12 to 13 hours. */
    sign(resourceId: string, userId: string): string {
      const nowSeconds = Math.floor(now() / 1000);
      const expires = Math.ceil((nowSeconds + ACCESS_LIFETIME_SECONDS) / ROUND_SECONDS) * ROUND_SECONDS;
      return `${userId}.${expires}.${mac(resourceId, userId, expires)}`;
    },

    /** The user the value was signed for; 403 when it is forged, for another file, or expired. */
    verify(resourceId: string, access: string): string {
      const [userId, expiresText, signature] = access.split('.');
      const expires = Number(expiresText);
      if (!userId || !signature || !Number.isSafeInteger(expires)) throw invalidAccess();
      const expected = Buffer.from(mac(resourceId, userId, expires));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalidAccess();
      if (expires * 1000 < now()) {
        throw forbidden('This file link has expired. Open the file again from the resources page.');
      }
      return userId;
    },
  };
}

const invalidAccess = () => forbidden('This file link is not valid. Open the file from the resources page.');

export type FileAccess = ReturnType<typeof createFileAccess>;
