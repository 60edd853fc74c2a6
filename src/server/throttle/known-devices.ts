import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { cookiesOf } from '#shared/cookies';

/**
 * Known devices: OWASP's "device cookies" (Authentication Cheat Sheet, "Account Lockout";
 * decision 016). A browser that has signed in to an account keeps a signed cookie for that
 * account. Its later sign-ins to that account are counted on their own: neither the
 * network's budget (a script behind the school's address) nor the account's lock-out (a
 * classmate failing on purpose) refuses them; they have a lock-out of their own.
 *
 * The cookie only says "this browser has known this account's password"; it signs no one in.
 * It is HttpOnly, SameSite=Strict and sent to the role's sign-in address only (its Path), so
 * scripts in pages never see it and nothing else carries it. One cookie per account, named
 * by a keyed hash of the account: neither the name nor the value says whose it is.
 */

/** A known device stays known this long after its last sign-in: a term's holidays. */
export const KNOWN_DEVICE_LIFETIME_SECONDS = 90 * 24 * 60 * 60;
/**
 * Device cookies one browser keeps per sign-in address; the oldest go first. A computer
 * room's browser serves a whole class, and its Cookie header must stay well under the 8 KB
 * line a proxy accepts (nginx's default): 30 cookies are about 3 KB.
 */
export const MAX_KNOWN_DEVICE_COOKIES = 30;
const COOKIE_PREFIX = 'studyhall_device_';

export type KnownDevice = { id: string };

/** `account` is the throttle's key of the name typed at sign-in (the role and a hash of the name). */
export function createKnownDevices(secret: string, now: () => number = Date.now) {
  // Derived from the JWT secret, but not it: a device cookie can never pass as a session token.
  const key = createHash('sha256').update(`studyhall:known-device:${secret}`).digest();
  const mac = (text: string) => createHmac('sha256', key).update(text).digest('base64url');
  const cookieName = (account: string) => `${COOKIE_PREFIX}${mac(`name\n${account}`).slice(0, 16)}`;
  const signature = (account: string, id: string, issuedAt: number) => mac(`device\n${account}\n${id}\n${issuedAt}`);

  return {
    /** The device, when its cookie for `account` is genuine and current; undefined for anyone else. */
    recognise(request: FastifyRequest, account: string): KnownDevice | undefined {
      const [id, issuedAtText, given] = (readCookies(request).get(cookieName(account)) ?? '').split('.');
      const issuedAt = Number(issuedAtText);
      if (!id || !given || !Number.isSafeInteger(issuedAt)) return undefined;
      const expected = Buffer.from(signature(account, id, issuedAt));
      const actual = Buffer.from(given);
      if (actual.length !== expected.length || !timingSafeEqual(actual, expected)) return undefined;
      if (now() / 1000 - issuedAt > KNOWN_DEVICE_LIFETIME_SECONDS) return undefined;
      return { id };
    },

    /** After a successful sign-in: this browser is known to `account` for another 90 days (a known device keeps its id). */
    remember(request: FastifyRequest, reply: FastifyReply, account: string, device: KnownDevice | undefined) {
      const id = device?.id ?? randomBytes(12).toString('base64url');
      const issuedAt = Math.floor(now() / 1000);
      const name = cookieName(account);
      const attributes = `Path=${request.routeOptions.url}; HttpOnly; SameSite=Strict${request.protocol === 'https' ? '; Secure' : ''}`;
      const cookies = [
        `${name}=${id}.${issuedAt}.${signature(account, id, issuedAt)}; Max-Age=${KNOWN_DEVICE_LIFETIME_SECONDS}; ${attributes}`,
      ];
      const others = [...readCookies(request)]
        .filter(([other]) => other.startsWith(COOKIE_PREFIX) && other !== name)
        .map(([other, value]) => ({ other, issuedAt: Number(value.split('.')[1]) || 0 }))
        .sort((a, b) => b.issuedAt - a.issuedAt);
      for (const { other } of others.slice(MAX_KNOWN_DEVICE_COOKIES - 1))
        cookies.push(`${other}=; Max-Age=0; ${attributes}`);
      reply.header('set-cookie', cookies);
    },
  };
}

export type KnownDevices = ReturnType<typeof createKnownDevices>;

const readCookies = (request: FastifyRequest) => cookiesOf(request.headers.cookie);
