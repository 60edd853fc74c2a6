import { SignJWT } from 'jose';
import type { UserRole } from '#shared/constants';
import { TEST_JWT_SECRET } from './test-app.ts';

/**
 * A session token signed as the app signs them (HS256, issuer, subject, role), for accounts
 * the test makes up: one deleted since, one signed with another secret, one already expired;
 * or for a real account under its current session version (`sv`, decision 017; none counts
 * as 0). Made with jose directly, so it needs no token service (and none of its lookups).
 */
export async function signSessionToken(
  user: { id: string; role: UserRole },
  options: { secret?: string; expiresAt?: number; sessionVersion?: number } = {},
): Promise<string> {
  const issuedAt = Math.floor(Date.now() / 1000);
  return new SignJWT({
    role: user.role,
    ...(options.sessionVersion === undefined ? {} : { sv: options.sessionVersion }),
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer('studyhall')
    .setIssuedAt(Math.min(issuedAt, options.expiresAt ?? issuedAt))
    .setExpirationTime(options.expiresAt ?? issuedAt + 3600)
    .sign(new TextEncoder().encode(options.secret ?? TEST_JWT_SECRET));
}
