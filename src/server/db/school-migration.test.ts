import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailKey } from '#shared/identity';
import { hashPassword } from '../features/accounts/passwords.ts';
import { migrationFrom } from '../testing/migrated-database.ts';
import { bearer } from '../testing/test-app.ts';
import { patience } from '../testing/patience.ts';
import { TEST_SETUP_CODE } from '../testing/factories.ts';

/**
 * Migration 0010 (issue 19, point 10; decision 030) on a database of the version before it: an
 * installation with teachers is a school already, whose earliest teacher administers it and
 * keeps working; an empty one still asks for its setup. PGlite and PostgreSQL.
 */

const PREVIOUS = '0009_leaderboard-ties-by-name';
const PASSWORD = 'correct horse battery';

const migratedFromPrevious = migrationFrom(PREVIOUS, 'studyhall_school');

const TEACHERS = [
  { id: '00000000-0000-4000-8000-0000000000b2', name: 'Later Teacher', email: 'later@school.example', year: 2023 },
  { id: '00000000-0000-4000-8000-0000000000a1', name: 'First Teacher', email: 'first@school.example', year: 2021 },
  { id: '00000000-0000-4000-8000-0000000000c3', name: 'Third Teacher', email: 'third@school.example', year: 2024 },
];

// Each test migrates a database from nothing, which takes far longer than a request test on a
// busy CI machine.
describe('migration 0010: the school and its administrator', { timeout: patience(120_000) }, () => {
  it('makes an installation with teachers a school whose earliest teacher administers it', async () => {
    const passwordHash = await hashPassword(PASSWORD);
    const t = await migratedFromPrevious(async (handle) => {
      for (const teacher of TEACHERS) {
        await handle.db.execute(sql`
          insert into teachers (id, name, email, email_key, subject, password_hash, created_at)
          values (${teacher.id}, ${teacher.name}, ${teacher.email}, ${emailKey(teacher.email)}, 'Maths',
                  ${passwordHash}, ${new Date(Date.UTC(teacher.year, 0, 1)).toISOString()})`);
      }
    });

    expect((await t.call({ method: 'GET', url: '/api/school' })).body.data).toEqual({
      isSetUp: true,
      name: 'Our school',
      hasDemo: false,
      defaultLocale: 'en',
      timeZone: 'UTC',
    });
    const setupAgain = await t.call({
      method: 'POST',
      url: '/api/school/setup',
      payload: {
        setupCode: TEST_SETUP_CODE,
        schoolName: 'X',
        name: 'Y',
        subject: 'Z',
        email: 'new@school.example',
        password: PASSWORD,
      },
    });
    expect(setupAgain.body.code).toBe('SCHOOL_ALREADY_SET_UP');

    const signIn = async (email: string) =>
      (await t.call({ method: 'POST', url: '/api/teacher/login', payload: { email, password: PASSWORD } })).body
        .data as string;
    // Every teacher keeps signing in; only the earliest administers.
    const first = await signIn('first@school.example');
    const later = await signIn('later@school.example');
    const staff = await t.call({ method: 'GET', url: '/api/school/teachers', headers: bearer(first) });
    expect(staff.status).toBe(200);
    expect(
      staff.body.data.map((member: { name: string; isAdministrator: boolean; isActive: boolean }) => [
        member.name,
        member.isAdministrator,
        member.isActive,
      ]),
    ).toEqual([
      ['First Teacher', true, true],
      ['Later Teacher', false, true],
      ['Third Teacher', false, true],
    ]);
    expect((await t.call({ method: 'GET', url: '/api/school/teachers', headers: bearer(later) })).status).toBe(403);
  });

  it('leaves an empty installation to be set up on its first run', async () => {
    const t = await migratedFromPrevious(async () => {});
    expect((await t.call({ method: 'GET', url: '/api/school' })).body.data).toEqual({
      isSetUp: false,
      name: null,
      hasDemo: false,
      defaultLocale: 'en',
      timeZone: 'UTC',
    });
  });
});
