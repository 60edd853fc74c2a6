import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schools } from '../../db/schema.ts';
import { openTestDatabase } from '../../testing/test-app.ts';
import type { DatabaseHandle } from '../../db/client.ts';
import { createSchoolLocaleReader, SCHOOL_LOCALE_TTL_MS } from './school-locale.ts';

describe('the school’s default language as the server’s pages read it (decision 055 addendum)', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(async () => {
    await database.close();
  });

  it('reads none before the set-up, then the school’s; another instance’s change shows within the TTL', async () => {
    let clock = 0;
    const now = () => clock;
    const thisInstance = createSchoolLocaleReader(database.db, { now });
    const otherInstance = createSchoolLocaleReader(database.db, { now });
    expect(await thisInstance.read()).toBeUndefined();
    expect(await otherInstance.read()).toBeUndefined();

    await database.db.insert(schools).values({ id: 1, name: 'School', defaultLocale: 'ar' });
    thisInstance.forget(); // the instance that set it up
    expect(await thisInstance.read()).toBe('ar');
    expect(await otherInstance.read()).toBeUndefined(); // still its copy of before the set-up

    clock += SCHOOL_LOCALE_TTL_MS - 1;
    expect(await otherInstance.read()).toBeUndefined();
    clock += 1;
    expect(await otherInstance.read()).toBe('ar');

    expect(await thisInstance.read()).toBe('ar'); // read again now: its copy had aged out too
    await database.db.update(schools).set({ defaultLocale: 'es' });
    expect(await thisInstance.read()).toBe('ar'); // not told: kept for at most the TTL
    thisInstance.forget();
    expect(await thisInstance.read()).toBe('es');
  });

  it('asks the database at most once per TTL, concurrent pages included', async () => {
    let queries = 0;
    const counted = await openTestDatabase(() => {
      queries += 1;
    });
    try {
      const reader = createSchoolLocaleReader(counted.db);
      queries = 0;
      await Promise.all([reader.read(), reader.read(), reader.read()]);
      await reader.read();
      expect(queries).toBe(1);
    } finally {
      await counted.close();
    }
  });

  it('answers none, not an error, when the database cannot be read', async () => {
    const broken = await openTestDatabase();
    const reader = createSchoolLocaleReader(broken.db);
    await broken.close();
    await expect(reader.read()).resolves.toBeUndefined();
  });
});
