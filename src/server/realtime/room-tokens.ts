import { createHash } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { USER_ROLES, type UserRole } from '#shared/constants';
import { FIELD_LIMITS } from '#shared/limits';
import { sessionState, type SessionVersionLookup } from '../plugins/auth.ts';

/**
 * Room tokens (decision 065): what opens a room protocol's socket, short-lived HS256 JWTs for one
 * user and one room. Each protocol signs with its own key, derived from the JWT secret but not
 * equal to it, and its tokens carry its own type and audience, so a token never passes as a
 * session token (it would have to be signed with the session key), nor a session token or another
 * protocol's token as this one. Browsers cannot set headers on a WebSocket: the token travels in
 * the socket's address, which is why it lives minutes, not hours.
 */

/** What every room token proves; a protocol adds claims of its own (a meeting's `host`). */
export type RoomTokenClaims = {
  /** The user's id. */
  sub: string;
  role: UserRole;
  /** Display name, read from the database when the token was minted. */
  name: string;
  /** The only room this token opens. */
  room: string;
  /** The session version of the login that minted it (decision 017): its end closes the socket. */
  sv: number;
};

/**
 * Whether the login that minted a room token is still signed in (decision 017): a room socket
 * asks when it opens and at every ping, so a password change, "sign out of all devices", a
 * removal or a deactivation closes it (SIGNED_OUT).
 */
export const roomSessionCheck =
  (sessions: SessionVersionLookup) =>
  async (claims: RoomTokenClaims): Promise<boolean> =>
    (await sessionState(sessions, { id: claims.sub, role: claims.role }, claims.sv)) === 'current';

/** Why a room token was refused: the socket closes with TOKEN_EXPIRED or FORBIDDEN. */
export class RoomTokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'The room token has expired' : 'The room token is not valid');
    this.name = 'RoomTokenError';
  }
}

export type RoomTokenOptions<Extra extends z.ZodRawShape> = {
  secret: string;
  /** The protocol's name in the key, the type and the audience: `meeting` → `studyhall:meeting`. */
  kind: string;
  /** What a room id of this protocol looks like. */
  isRoomId: (room: string) => boolean;
  /** The protocol's own claims; a default for a token minted before a claim existed. */
  extra: Extra;
  lifetimeSeconds: number;
  now?: () => number;
};

const ISSUER = 'studyhall';

export function createRoomTokens<Extra extends z.ZodRawShape>(options: RoomTokenOptions<Extra>) {
  const { kind } = options;
  const key = createHash('sha256').update(`studyhall:${kind}-token:${options.secret}`).digest();
  const audience = `studyhall:${kind}`;
  const type = `studyhall-${kind}+jwt`;
  const now = options.now ?? Date.now;
  const claimsSchema = z.object({
    sub: z.uuid(),
    role: z.enum(USER_ROLES),
    name: z.string().min(1).max(FIELD_LIMITS.name),
    room: z.string().refine(options.isRoomId),
    sv: z.number().int().min(0),
    ...options.extra,
  });
  type Claims = z.infer<typeof claimsSchema>;

  /** The token's claims; RoomTokenError when it is expired, forged or of another kind. */
  async function verify(token: string): Promise<Claims> {
    try {
      const { payload } = await jwtVerify(token, key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience,
        typ: type,
        currentDate: new Date(now()),
      });
      const claims = claimsSchema.safeParse(payload);
      if (!claims.success) throw new RoomTokenError('invalid');
      return claims.data;
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new RoomTokenError('expired');
      if (error instanceof joseErrors.JOSEError) throw new RoomTokenError('invalid');
      throw error;
    }
  }

  return {
    async issue(claims: Claims): Promise<{ token: string; expiresAt: Date }> {
      const issuedAt = Math.floor(now() / 1000);
      const expiresAt = issuedAt + options.lifetimeSeconds;
      const { sub, ...payload } = claims as RoomTokenClaims;
      const token = await new SignJWT(payload)
        .setProtectedHeader({ alg: 'HS256', typ: type })
        .setSubject(sub)
        .setIssuer(ISSUER)
        .setAudience(audience)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresAt: new Date(expiresAt * 1000) };
    },

    verify,

    /** The socket's verdict on a token: its claims, or the close reason that refuses it. */
    async check(token: string): Promise<Claims | 'TOKEN_EXPIRED' | 'FORBIDDEN'> {
      try {
        return await verify(token);
      } catch (error) {
        if (error instanceof RoomTokenError) return error.reason === 'expired' ? 'TOKEN_EXPIRED' : 'FORBIDDEN';
        throw error;
      }
    },
  };
}
