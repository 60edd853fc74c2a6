import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutQueryParameters } from './app.ts';
import { teachers } from './db/schema.ts';
import { createTestApp, type TestApp } from './testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('logging unhandled errors', () => {
  it('keeps the statement and the reason of a failed query but never its parameters', async () => {
    const secretHash = '$argon2id$v=19$m=19456,t=2,p=1$not-a-real-hash';
    let failure: Error | undefined;
    try {
      // Too long for varchar(100): a real driver error with a hash among the parameters.
      await t.database.db
        .insert(teachers)
        .values({ name: 'x'.repeat(500), email: 'a@b.test', subject: 'Math', passwordHash: secretHash });
    } catch (error) {
      failure = error as Error;
    }
    expect(failure).toBeDefined();
    expect(`${failure!.message}`).toContain(secretHash); // what would have leaked
    const logged = withoutQueryParameters(failure!) as { query?: string; code?: string };
    expect(JSON.stringify(logged)).not.toContain(secretHash);
    expect(logged.query).toContain('insert into "teachers"');
    expect(logged.code).toBe('22001'); // string_data_right_truncation
  });
});
