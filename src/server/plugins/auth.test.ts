import { describe, expect, it } from 'vitest';
import { TOKEN_LIFETIME_SECONDS } from '#shared/limits';
import { createTokenService } from './auth.ts';

const SECRET = 'auth-test-secret-that-is-long-enough-0123456789';
const USER = { id: '0b6f3c4e-4d1a-4c55-9d4e-3f1f6f0a9b11', role: 'student' as const };

describe('session tokens', () => {
  it('verifies a token it issued, again from memory, until the token expires', async () => {
    // issue() stamps the real time; the verifying clock starts there and moves on.
    let clock = Date.now();
    const tokens = createTokenService(SECRET, () => clock);
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
    const tokens = createTokenService(SECRET);
    const token = await tokens.issue(USER);
    const [header, payload, signature] = token.split('.');
    const tampered = `${header}.${payload}.${signature!.slice(0, -2)}${signature!.endsWith('A') ? 'BB' : 'AA'}`;
    const foreign = await createTokenService(`${SECRET}-other`).issue(USER);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      await expect(tokens.verify(tampered)).rejects.toMatchObject({ statusCode: 401, message: /invalid/ });
      await expect(tokens.verify(foreign)).rejects.toMatchObject({ statusCode: 401, message: /invalid/ });
    }
    expect(await tokens.verify(token)).toEqual(USER);
  });
});
