import { createHash } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { USER_ROLES } from '#shared/constants';
import { MEETING_LIMITS, isRoomId, type MeetingTokenClaims } from '#shared/meetings';
import { FIELD_LIMITS } from '#shared/limits';

const ISSUER = 'studyhall';
const AUDIENCE = 'studyhall:meeting';
const TOKEN_TYPE = 'studyhall-meeting+jwt';

const claimsSchema = z.object({
  sub: z.uuid(),
  role: z.enum(USER_ROLES),
  name: z.string().min(1).max(FIELD_LIMITS.name),
  room: z.string().refine(isRoomId),
  sv: z.number().int().min(0),
  // Tokens minted before decision 038 carry no claim: not a host.
  host: z.boolean().default(false),
});

/** Why a meeting token was refused: the socket closes with TOKEN_EXPIRED or FORBIDDEN. */
export class MeetingTokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'The meeting token has expired' : 'The meeting token is not valid');
    this.name = 'MeetingTokenError';
  }
}

/**
 * Meeting tokens: HS256 JWTs for one user and one room, to join within 10 minutes.
 * Signed with a key derived from the JWT secret but not equal to it, and carrying
 * their own type and audience, so a meeting token never passes as a session token
 * (it would have to be signed with the session key) nor a session token as this.
 */
export function createMeetingTokens(secret: string, options: { lifetimeSeconds?: number; now?: () => number } = {}) {
  const key = createHash('sha256').update(`studyhall:meeting-token:${secret}`).digest();
  const lifetimeSeconds = options.lifetimeSeconds ?? MEETING_LIMITS.tokenLifetimeSeconds;
  const now = options.now ?? Date.now;

  return {
    async issue(claims: MeetingTokenClaims): Promise<{ token: string; expiresAt: Date }> {
      const issuedAt = Math.floor(now() / 1000);
      const expiresAt = issuedAt + lifetimeSeconds;
      const token = await new SignJWT({
        role: claims.role,
        name: claims.name,
        room: claims.room,
        sv: claims.sv,
        host: claims.host,
      })
        .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt(issuedAt)
        .setExpirationTime(expiresAt)
        .sign(key);
      return { token, expiresAt: new Date(expiresAt * 1000) };
    },

    /** The token's claims; MeetingTokenError when it is expired, forged or of another kind. */
    async verify(token: string): Promise<MeetingTokenClaims> {
      try {
        const { payload } = await jwtVerify(token, key, {
          algorithms: ['HS256'],
          issuer: ISSUER,
          audience: AUDIENCE,
          typ: TOKEN_TYPE,
          currentDate: new Date(now()),
        });
        const claims = claimsSchema.safeParse(payload);
        if (!claims.success) throw new MeetingTokenError('invalid');
        return claims.data;
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw new MeetingTokenError('expired');
        if (error instanceof joseErrors.JOSEError) throw new MeetingTokenError('invalid');
        throw error;
      }
    },
  };
}

export type MeetingTokens = ReturnType<typeof createMeetingTokens>;
