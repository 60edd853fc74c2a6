import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_SECONDS } from '#shared/limits';
import { createTokenService, SIGNED_OUT_MESSAGE, type AccountRef, type SessionVersionLookup } from './auth.ts';

const SECRET = 'auth-test-secret-that-is-long-enough-0123456789';
const USER = { id: '0b6f3c4e-4d1a-4c55-9d4e-3f1f6f0a9b11', role: 'student' as const, sessionVersion: 0 };

/**
 * Session versions as a map the test moves by hand (the real lookup, through the read
 * cache and the database, is tested in features/accounts/sessions.test.ts). `known` is
 * what this instance has cached; `stored` what the database says.
 */
function versionsByHand(initial: Record<string, number> = { [USER.id]: 0 }) {
  const stored = new Map(Object.entries(initial));
  const known = new Map(stored);
  const calls = { current: 0, refresh: 0 };
  const lookup: SessionVersionLookup = {
    async current(account: AccountRef) {
      calls.current += 1;
      return known.get(account.id);
    },
    async refresh(account: AccountRef) {
      calls.refresh += 1;
      const version = stored.get(account.id);
      if (version === undefined) known.delete(account.id);
      else known.set(account.id, version);
      return version;
    },
  };
  return { lookup, stored, known, calls };
}

describe('session tokens', () => {
  it('verifies a token it issued, again from memory, until the token expires', async () => {
    // issue() stamps the real time; the verifying clock starts there and moves on.
    let clock = Date.now();
    const tokens = createTokenService(SECRET, versionsByHand().lookup, () => clock);
    const token = await tokens.issue(USER);
    expect(await tokens.verify(token)).toEqual(USER);
    expect(await tokens.verify(token)).toEqual(USER);
    clock += (TOKEN_LIFETIME_SECONDS - 5) * 1000;
    expect(await tokens.verify(token)).toEqual(USER);
    clock += 10_000;
    await expect(tokens.verify(token)).rejects.toMatchObject({ statusCode: 401, message: /expired/ });
    await expect(tokens.verify(token)).rejects.toMatchObject({ statusCode: 401, message: /expired/ });
  });

  it('never takes a tampered token or one signed with another secret, however often it is sent', async () => {
    const versions = versionsByHand();
    const tokens = createTokenService(SECRET, versions.lookup);
    const token = await tokens.issue(USER);
    const [header, payload, signature] = token.split('.');
    // Change the first character: the last one carries unused padding bits, so changing it
    // can leave the decoded signature as it was.
    const tampered = `${header}.${payload}.${signature!.startsWith('A') ? 'B' : 'A'}${signature!.slice(1)}`;
    const foreign = await createTokenService(`${SECRET}-other`, versions.lookup).issue(USER);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expect(tokens.verify(tampered)).rejects.toMatchObject({ statusCode: 401, message: /invalid/ });
      await expect(tokens.verify(foreign)).rejects.toMatchObject({ statusCode: 401, message: /invalid/ });
    }
    expect(await tokens.verify(token)).toEqual(USER);
  });
});

describe('session versions in tokens (decision 017)', () => {
  it('checks the version on every use, remembered token or not: once it moves on, the token is refused', async () => {
    const versions = versionsByHand();
    const tokens = createTokenService(SECRET, versions.lookup);
    const token = await tokens.issue(USER);
    expect(await tokens.verify(token)).toEqual(USER);
    expect(await tokens.verify(token)).toEqual(USER); // from memory now
    expect(versions.calls.current).toBe(2);

    versions.known.set(USER.id, 1); // the password changed
    await expect(tokens.verify(token)).rejects.toMatchObject({ statusCode: 401, message: SIGNED_OUT_MESSAGE });
    const fresh = await tokens.issue({ ...USER, sessionVersion: 1 });
    expect(await tokens.verify(fresh)).toEqual({ ...USER, sessionVersion: 1 });
    // Versions only grow; even if the lookup went back, the old token was forgotten and is checked again.
    await expect(tokens.verify(token)).rejects.toMatchObject({ statusCode: 401 });
  });

  it('reads past its cache when a token is newer than the version it knows, and takes it', async () => {
    const versions = versionsByHand({ [USER.id]: 3 });
    versions.known.set(USER.id, 2); // this instance missed the change's announcement
    const tokens = createTokenService(SECRET, versions.lookup);
    const token = await tokens.issue({ ...USER, sessionVersion: 3 });
    expect(await tokens.verify(token)).toEqual({ ...USER, sessionVersion: 3 });
    expect(versions.calls.refresh).toBe(1);
    // A token newer than even the database (impossible unless forged or the database went back) is refused.
    const future = await tokens.issue({ ...USER, sessionVersion: 9 });
    await expect(tokens.verify(future)).rejects.toMatchObject({ statusCode: 401, message: SIGNED_OUT_MESSAGE });
  });

  it('refuses a token whose account no longer exists', async () => {
    const tokens = createTokenService(SECRET, versionsByHand({}).lookup);
    const token = await tokens.issue(USER);
    await expect(tokens.verify(token)).rejects.toMatchObject({ statusCode: 401, message: /no longer exists/ });
  });

  it('counts a token from before session versions (no sv claim) as version 0', async () => {
    const versions = versionsByHand();
    const tokens = createTokenService(SECRET, versions.lookup);
    const old = await new SignJWT({ role: 'student' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(USER.id)
      .setIssuer('studyhall')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET));
    expect(await tokens.verify(old)).toEqual(USER);
    versions.known.set(USER.id, 1);
    await expect(tokens.verify(old)).rejects.toMatchObject({ statusCode: 401, message: SIGNED_OUT_MESSAGE });
  });
});
