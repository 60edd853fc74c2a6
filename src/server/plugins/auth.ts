import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { USER_ROLES, type UserRole } from '#shared/constants';
import { TOKEN_LIFETIME_SECONDS } from '#shared/limits';
import { cacheTags, type VersionSnapshot } from '../cache/read-cache.ts';
import type { RequestVersions } from '../cache/request-versions.ts';
import { accountRemoved, AppError, forbidden, unauthorized } from '../errors.ts';

/** Who is calling, as proven by the token: never taken from the body. */
export type AuthenticatedUser = {
  id: string;
  role: UserRole;
  /** The account's session version the token was issued under (current, or the token is refused). */
  sessionVersion: number;
  /**
   * Issued while a teacher's reset was pending (decision 033): the token opens only the routes
   * whose policy allows it (change-password, the profile, sign-out everywhere).
   */
  mustChangePassword?: boolean;
};

/** An account as tokens name it. */
export type AccountRef = Pick<AuthenticatedUser, 'id' | 'role'>;

/**
 * Where the current session version of an account is read (decision 017): kept in memory
 * and refreshed by every change, on every instance, so checking it costs no database round trip.
 */
export interface SessionVersionLookup {
  /**
   * The account's current version; undefined when the account no longer exists. `snapshot`:
   * the request's tag versions, read after it arrived (request-versions.ts).
   */
  current(account: AccountRef, snapshot?: VersionSnapshot): Promise<SessionVersion | undefined>;
  /** Reads the version again, past what is kept (a token is newer than what this instance knew). */
  refresh(account: AccountRef): Promise<SessionVersion | undefined>;
}

/**
 * An account's session version; while an administrator has deactivated the account (decision
 * 030), the version it was deactivated at, marked so no session of it is current.
 */
export type SessionVersion = number | { deactivatedAt: number };

const versionNumber = (version: SessionVersion) => (typeof version === 'number' ? version : version.deactivatedAt);

/** What a deactivated teacher's token and sign-in are told. */
export const DEACTIVATED_MESSAGE = "Your account has been deactivated by your school's administrator.";

/** What an old token is told after a password change or "sign out of all devices". */
export const SIGNED_OUT_MESSAGE =
  'You were signed out because your password was changed or you signed out of all devices. Please log in again.';

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthenticatedUser;
    /** The request's tag versions, read with its session version in one round trip (Redis versions only). */
    tagVersions?: VersionSnapshot;
  }
}

const ISSUER = 'studyhall';

const claimsSchema = z.object({
  sub: z.uuid(),
  role: z.enum(USER_ROLES),
  /** Always set by issue(); jwtVerify has checked it is in the future. */
  exp: z.number(),
  /** Session version; tokens issued before versions existed carry none and count as 0 (every account's start). */
  sv: z.number().int().min(0).default(0),
  /** Set on a session that must choose a new password first (decision 033). */
  pc: z.literal(true).optional(),
});

/** How many verified tokens one instance remembers (a few hundred bytes each). */
const VERIFIED_TOKENS_KEPT = 20_000;

/**
 * Signs and verifies session tokens (HS256, role + subject + session version, 12 h).
 *
 * A token verified once is remembered until it expires: verifying through WebCrypto costs
 * the event loop about a tenth of a millisecond (a fifth of a leaderboard request's CPU,
 * measured with bench:api), and a session sends the same token with every call. The
 * answer is the same as verifying again: same token, same secret, and the expiry is
 * checked on every use. Tokens that fail are never remembered.
 *
 * The session version is checked on every use, remembered or not: a password change or
 * "sign out of all devices" bumps the account's version, and every older token is refused
 * from the next request on, on every instance (the lookup is shared through the read cache).
 */
export function createTokenService(
  secret: string,
  sessions: SessionVersionLookup,
  now: () => number = Date.now,
  requestVersions?: RequestVersions,
) {
  const key = new TextEncoder().encode(secret);
  const verified = new Map<string, { user: AuthenticatedUser; expiresAtMs: number }>();

  function remember(token: string, user: AuthenticatedUser, expiresAtMs: number) {
    // Oldest first out: a Map iterates in insertion order.
    if (verified.size >= VERIFIED_TOKENS_KEPT) verified.delete(verified.keys().next().value!);
    verified.set(token, { user, expiresAtMs });
  }

  /** The token's user when its signature, issuer and expiry hold (the version is not checked here). */
  async function verifySignature(token: string): Promise<AuthenticatedUser> {
    const known = verified.get(token);
    if (known) {
      if (now() < known.expiresAtMs) return known.user;
      verified.delete(token);
      throw new AppError('SESSION_EXPIRED', 'Your session has expired, please log in again');
    }
    try {
      // Pinning the algorithm refuses "none" and any algorithm confusion.
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        currentDate: new Date(now()),
      });
      const claims = claimsSchema.safeParse(payload);
      if (!claims.success) throw unauthorized('Your session is invalid, please log in again');
      const user: AuthenticatedUser = {
        id: claims.data.sub,
        role: claims.data.role,
        sessionVersion: claims.data.sv,
        ...(claims.data.pc && { mustChangePassword: true }),
      };
      remember(token, user, claims.data.exp * 1000);
      return user;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired)
        throw new AppError('SESSION_EXPIRED', 'Your session has expired, please log in again');
      if (error instanceof joseErrors.JOSEError) throw unauthorized('Your session is invalid, please log in again');
      throw error;
    }
  }

  return {
    async issue(user: AuthenticatedUser): Promise<string> {
      return new SignJWT({ role: user.role, sv: user.sessionVersion, ...(user.mustChangePassword && { pc: true }) })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
        .sign(key);
    },

    /**
     * The token's user if its session is current. `request`: an HTTP request, which is given
     * its tag versions (the session's among them) when they live in Redis: one round trip.
     */
    async verify(token: string, request?: Pick<FastifyRequest, 'tagVersions'>): Promise<AuthenticatedUser> {
      const user = await verifySignature(token);
      let snapshot: VersionSnapshot | undefined;
      if (request && requestVersions) {
        snapshot = await requestVersions.take(`${user.role}:${user.id}`, [
          cacheTags.accountSessions(user.role, user.id),
        ]);
        request.tagVersions = snapshot;
      }
      const state = await sessionState(sessions, user, user.sessionVersion, snapshot);
      if (state === 'current') return user;
      verified.delete(token); // versions only grow: this token is never good again
      if (state === 'deactivated') throw new AppError('ACCOUNT_DEACTIVATED', DEACTIVATED_MESSAGE);
      throw state === 'ended' ? new AppError('SIGNED_OUT', SIGNED_OUT_MESSAGE) : accountRemoved();
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

/**
 * Whether a credential issued under `version` (a session token, a meeting token) still
 * belongs to a live session of the account: 'ended' after a password change or "sign out
 * of all devices", 'no-account' when the account is gone, 'deactivated' while an administrator
 * has deactivated it.
 */
export async function sessionState(
  sessions: SessionVersionLookup,
  account: AccountRef,
  version: number,
  snapshot?: VersionSnapshot,
): Promise<'current' | 'ended' | 'no-account' | 'deactivated'> {
  let current = await sessions.current(account, snapshot);
  // Newer than what this instance knows: the change's announcement was lost (Redis was
  // unreachable then). Read past the cache rather than refuse a fresh login.
  if (current !== undefined && versionNumber(current) < version) current = await sessions.refresh(account);
  if (current === undefined) return 'no-account';
  if (typeof current !== 'number') return 'deactivated';
  return current === version ? 'current' : 'ended';
}

/** The bearer token of a request, or a 401 when there is none. */
function readBearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw unauthorized();
  return match[1];
}

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

/** How a guard treats a session that must choose a new password first (decision 033). */
export type GuardOptions = { allowsPendingPasswordChange?: boolean };

/** What a session that must choose a new password is told by every other route. */
export const PASSWORD_CHANGE_REQUIRED_MESSAGE =
  'Your teacher reset your password: choose a new one before you continue.';

/**
 * The token's account has no other way in than choosing a new password: a reset's temporary
 * password is known to the teacher who read it out, so it must not open the account's data.
 */
function checkPasswordChange(user: AuthenticatedUser, options: GuardOptions) {
  if (user.mustChangePassword && !options.allowsPendingPasswordChange)
    throw new AppError('PASSWORD_CHANGE_REQUIRED', PASSWORD_CHANGE_REQUIRED_MESSAGE);
}

/** Marks the token checks, so the route policies can refuse a route that adds its own (route-policy.ts). */
const AUTH_GUARD = Symbol('studyhall.authGuard');
const markGuard = (guard: Guard): Guard => Object.assign(guard, { [AUTH_GUARD]: true });
export const isAuthGuard = (hook: unknown): boolean =>
  typeof hook === 'function' && (hook as { [AUTH_GUARD]?: boolean })[AUTH_GUARD] === true;

/**
 * onRequest hook factory (runs before the body is parsed or validated): the caller must hold a valid token of the given role.
 * 401 when the token is missing, tampered or expired; 403 for the wrong role.
 * Routes do not use it directly: route-policy.ts derives it from the route's declared caller.
 */
export function requireRole(tokens: TokenService, role: UserRole, options: GuardOptions = {}) {
  return markGuard(async function authorize(request: FastifyRequest, _reply: FastifyReply) {
    const user = await tokens.verify(readBearerToken(request), request);
    if (user.role !== role) throw forbidden(`This action is only for ${role}s`);
    checkPasswordChange(user, options);
    request.user = user;
  });
}

/**
 * onRequest hook of the administrator's calls (decision 030): a teacher's valid token, and the
 * database says the teacher administers the school now (not the token: a demotion holds at once).
 */
export function requireAdministrator(tokens: TokenService, isAdministrator: (teacherId: string) => Promise<boolean>) {
  const asTeacher = requireRole(tokens, 'teacher');
  return markGuard(async function authorize(request: FastifyRequest, reply: FastifyReply) {
    await asTeacher(request, reply);
    if (!(await isAdministrator(currentUser(request).id)))
      throw forbidden("Only the school's administrators can do this");
  });
}

/** onRequest hook for calls open to both roles: a valid token of either. */
export function requireUser(tokens: TokenService, options: GuardOptions = {}) {
  return markGuard(async function authorize(request: FastifyRequest, _reply: FastifyReply) {
    const user = await tokens.verify(readBearerToken(request), request);
    checkPasswordChange(user, options);
    request.user = user;
  });
}

/** The authenticated user set by the route's token check; a route without one is a bug. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw new Error("currentUser() used on a route whose policy's caller is not signed in");
  return request.user;
}
