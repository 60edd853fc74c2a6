import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { USER_ROLES, type UserRole } from '#shared/constants';
import { TOKEN_LIFETIME_SECONDS } from '#shared/limits';
import { forbidden, unauthorized } from '../errors.ts';

/** Who is calling, as proven by the token: never taken from the body. */
export type AuthenticatedUser = { id: string; role: UserRole };

declare module 'fastify' {
  interface FastifyRequest {
    user?: AuthenticatedUser;
  }
}

const ISSUER = 'studyhall';

const claimsSchema = z.object({
  sub: z.uuid(),
  role: z.enum(USER_ROLES),
});

/** Signs and verifies session tokens (HS256, role + subject, 12 h). */
export function createTokenService(secret: string) {
  const key = new TextEncoder().encode(secret);

  return {
    async issue(user: AuthenticatedUser): Promise<string> {
      return new SignJWT({ role: user.role })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(user.id)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_LIFETIME_SECONDS}s`)
        .sign(key);
    },

    async verify(token: string): Promise<AuthenticatedUser> {
      try {
        // Pinning the algorithm refuses "none" and any algorithm confusion.
        const { payload } = await jwtVerify(token, key, { algorithms: ['HS256'], issuer: ISSUER });
        const claims = claimsSchema.safeParse(payload);
        if (!claims.success) throw unauthorized('Your session is invalid, please log in again');
        return { id: claims.data.sub, role: claims.data.role };
      } catch (error) {
        if (error instanceof joseErrors.JWTExpired) throw unauthorized('Your session has expired, please log in again');
        if (error instanceof joseErrors.JOSEError) throw unauthorized('Your session is invalid, please log in again');
        throw error;
      }
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

/** The bearer token of a request, or a 401 when there is none. */
function readBearerToken(request: FastifyRequest): string {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  if (!match?.[1]) throw unauthorized();
  return match[1];
}

/**
 * onRequest hook factory (runs before the body is parsed or validated): the caller must hold a valid token of the given role.
 * 401 when the token is missing, tampered or expired; 403 for the wrong role.
 */
export function requireRole(tokens: TokenService, role: UserRole) {
  return async function authorize(request: FastifyRequest, _reply: FastifyReply) {
    const user = await tokens.verify(readBearerToken(request));
    if (user.role !== role) throw forbidden(`This action is only for ${role}s`);
    request.user = user;
  };
}

/** onRequest hook for calls open to both roles: a valid token of either. */
export function requireUser(tokens: TokenService) {
  return async function authorize(request: FastifyRequest, _reply: FastifyReply) {
    request.user = await tokens.verify(readBearerToken(request));
  };
}

/** The authenticated user set by requireRole; a route without it is a bug. */
export function currentUser(request: FastifyRequest): AuthenticatedUser {
  if (!request.user) throw new Error('currentUser() used on a route without requireRole()');
  return request.user;
}
