import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROSTER_IMPORT_LIMITS } from '#shared/roster-import';
import { classStudents, rosterImports, students } from '../../db/schema.ts';
import { signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { bearer, createTestApp, startSecondInstance, type TestApp } from '../../testing/test-app.ts';
import { patience } from '../../testing/patience.ts';

/** Issue 19 point 6 (decision 034): a class list checked, then imported all at once or not at all. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, patience(60_000));
afterAll(() => t.close());

const call = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
  t.call({ method, url, payload, headers: bearer(token) });

let unique = 0;
const nextId = () => `${(unique += 1)}-${Math.random().toString(36).slice(2, 7)}`;

async function teacherWithClass() {
  const teacher = await signUpTeacher(t);
  const created = await call('POST', '/api/classes', teacher.token, { name: `Import class ${nextId()}` });
  expect(created.status, created.raw).toBe(201);
  return { token: teacher.token, teacherId: teacher.profile._id, classId: created.body.data._id as string };
}

const HEADER = 'Name;Roll number;Email;Parent name;Parent email;Password';
/** A row of a fresh student; `password` '' = generate one. */
function studentRow(password = '') {
  const id = nextId();
  return `Student ${id};r-${id};s-${id}@school.test;Parent ${id};p-${id}@family.test;${password}`;
}
const classList = (rows: string[]) => `\uFEFF${[HEADER, ...rows].join('\r\n')}\r\n`;

const studentCount = async () => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(students))[0]!.n;
const membershipCount = async () =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(classStudents))[0]!.n;

/** The import's state as stored, read without the API (whose read after the end takes the passwords). */
const storedState = async (importId: string) =>
  (
    await t.database.db
      .select({ state: rosterImports.state })
      .from(rosterImports)
      .where(sql`${rosterImports.id} = ${importId}`)
  )[0]?.state;

async function waitForEnd(token: string, importId: string) {
  const seen: string[] = [];
  for (;;) {
    const status = await call('GET', `/api/imports/${importId}`, token);
    expect(status.status, status.raw).toBe(200);
    seen.push(status.body.data.state);
    if (['done', 'failed'].includes(status.body.data.state)) return { last: status.body.data, seen };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('checking a class list', () => {
  it('answers 30 rows with the one bad row named, and writes nothing', async () => {
    const { token, classId } = await teacherWithClass();
    const rows = Array.from({ length: 30 }, () => studentRow());
    rows[11] = 'Bad Row;r 12;not-an-email;Parent;p@family.test;';
    const before = await studentCount();
    const checked = await call('POST', `/api/classes/${classId}/import/check`, token, { csv: classList(rows) });
    expect(checked.status, checked.raw).toBe(200);
    expect(checked.body.data.rows).toHaveLength(30);
    expect(checked.body.data.rowsWithProblems).toBe(1);
    expect(checked.body.data.rows[11]).toMatchObject({
      row: 13,
      problems: [
        { field: 'rollNumber', code: 'USERNAME_CHARACTERS', message: expect.stringContaining('letters, digits') },
        { field: 'email', code: 'INVALID_EMAIL', message: 'Must be a valid email address' },
      ],
    });
    expect(await studentCount()).toBe(before);

    // The import refuses the same file, naming the row, and writes nothing.
    const refused = await call('POST', `/api/classes/${classId}/import`, token, { csv: classList(rows) });
    expect(refused.status, refused.raw).toBe(400);
    expect(refused.body).toMatchObject({
      code: 'ROSTER_ROWS_INVALID',
      errors: [
        { field: 'rows.13.rollNumber', message: expect.stringMatching(/^Row 13: /) },
        { field: 'rows.13.email', message: 'Row 13: Must be a valid email address' },
      ],
    });
    expect(await studentCount()).toBe(before);
  });

  it('names roll numbers and emails the school has, however they are spelt, and duplicates in the file', async () => {
    const { token, classId } = await teacherWithClass();
    const existing = await signUpStudent(t);
    const duplicate = `dup-${nextId()}`;
    const rows = [
      `A;${existing.registration.rollNumber.toUpperCase()};a-${nextId()}@school.test;P;p@family.test;`,
      `B;b-${nextId()};${existing.registration.email.toUpperCase()};P;p@family.test;`,
      `C;${duplicate};c1-${nextId()}@school.test;P;p@family.test;`,
      `D;${duplicate.toUpperCase()};c2-${nextId()}@school.test;P;p@family.test;`,
    ];
    const checked = await call('POST', `/api/classes/${classId}/import/check`, token, { csv: classList(rows) });
    expect(checked.body.data.rows.map((row: { problems: { message: string }[] }) => row.problems)).toEqual([
      [{ field: 'rollNumber', code: 'TAKEN', message: 'Roll number is taken by another student of the school' }],
      [{ field: 'email', code: 'TAKEN', message: 'Email is taken by another student of the school' }],
      [],
      [
        {
          field: 'rollNumber',
          code: 'DUPLICATE_IN_FILE',
          params: { firstRow: 4 },
          message: 'Roll number is also on row 4 of the file',
        },
      ],
    ]);
  });

  it('refuses a file that is not text, and one of 2,001 rows, with a clear message', async () => {
    const { token, classId } = await teacherWithClass();
    const binary = await call('POST', `/api/classes/${classId}/import/check`, token, {
      csv: 'PK\u0003\u0004\u0000\u0000',
    });
    expect(binary.status).toBe(400);
    expect(binary.body).toMatchObject({
      code: 'VALIDATION_FAILED',
      errors: [{ field: 'csv', code: 'NOT_TEXT', message: expect.stringContaining('not UTF-8 text') }],
    });
    const tooMany = classList(Array.from({ length: ROSTER_IMPORT_LIMITS.rows + 1 }, () => studentRow()));
    for (const path of ['import/check', 'import']) {
      const refused = await call('POST', `/api/classes/${classId}/${path}`, token, { csv: tooMany });
      expect(refused.status, path).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({
        field: 'csv',
        code: 'TOO_MANY_ROWS',
        params: { rows: 2_001, max: 2_000 },
        message: expect.stringMatching(/2,?001.*2,?000/),
      });
    }
  });

  it('answers 403 to a teacher who does not teach the class, and 404 for no class', async () => {
    const { classId } = await teacherWithClass();
    const stranger = await signUpTeacher(t);
    const csv = classList([studentRow()]);
    for (const path of ['import/check', 'import']) {
      expect((await call('POST', `/api/classes/${classId}/${path}`, stranger.token, { csv })).status).toBe(403);
      const missing = await call('POST', `/api/classes/${crypto.randomUUID()}/${path}`, stranger.token, { csv });
      expect(missing.status).toBe(404);
    }
    const student = await signUpStudent(t);
    expect((await call('POST', `/api/classes/${classId}/import/check`, student.token, { csv })).status).toBe(403);
  });
});

describe('importing a class list', () => {
  it('hashes with progress, writes every row into the class, and answers the generated passwords once', async () => {
    const { token, classId } = await teacherWithClass();
    const rows = [studentRow('own-password-1'), studentRow(), studentRow()];
    const started = await call('POST', `/api/classes/${classId}/import`, token, { csv: classList(rows) });
    expect(started.status, started.raw).toBe(202);
    const { last, seen } = await waitForEnd(token, started.body.data.importId);
    expect(seen).toContain('hashing');
    expect(last).toMatchObject({ state: 'done', done: 3, total: 3, imported: 3 });
    expect(last.credentials).toHaveLength(2);
    const [first, second] = last.credentials;
    expect(first).toMatchObject({ row: 3, password: expect.stringMatching(/^[A-Za-z2-9]{5}-[A-Za-z2-9]{5}$/) });
    expect(second.row).toBe(4);

    // Once: the next read has the outcome but no passwords.
    const again = await call('GET', `/api/imports/${started.body.data.importId}`, token);
    expect(again.body.data).toEqual({ state: 'done', done: 3, total: 3, imported: 3 });

    const roster = await call('GET', `/api/classes/${classId}/students`, token);
    expect(roster.body.data.map((entry: { rollNumber: string }) => entry.rollNumber).sort()).toEqual(
      rows.map((row) => row.split(';')[1]).sort(),
    );
    // The generated password signs in, and must be changed; the file's own password does not need to be.
    const generated = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: first.rollNumber, password: first.password },
    });
    expect(generated.status, generated.raw).toBe(200);
    const profile = await call('POST', '/api/student/get-student-by-id', generated.body.data, {});
    expect(profile.body.data?.mustChangePassword, profile.raw).toBe(true);
    const own = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: rows[0]!.split(';')[1], password: 'own-password-1' },
    });
    expect(own.status, own.raw).toBe(200);
  });

  it('writes nothing when a roll number is taken while the passwords are hashed', async () => {
    const { token, classId } = await teacherWithClass();
    const rows = Array.from({ length: 30 }, () => studentRow());
    const before = { students: await studentCount(), memberships: await membershipCount() };
    const started = await call('POST', `/api/classes/${classId}/import`, token, { csv: classList(rows) });
    expect(started.status, started.raw).toBe(202);
    // The last row's roll number goes to another student before the import writes.
    await signUpStudent(t, { rollNumber: rows[29]!.split(';')[1] });
    const { last } = await waitForEnd(token, started.body.data.importId);
    expect(last).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('Nothing was imported'),
      failure: { code: 'TAKEN_DURING_IMPORT', params: { field: 'rollNumber' } },
    });
    expect(last.credentials).toBeUndefined();
    expect(await studentCount()).toBe(before.students + 1);
    expect(await membershipCount()).toBe(before.memberships + 1);
  });

  it('starts one of two imports sent at once by one teacher; the other is IMPORT_RUNNING', async () => {
    const { token, classId } = await teacherWithClass();
    const [first, second] = await Promise.all(
      [0, 1].map(() =>
        call('POST', `/api/classes/${classId}/import`, token, {
          csv: classList(Array.from({ length: 2 }, () => studentRow())),
        }),
      ),
    );
    expect([first!.status, second!.status].sort()).toEqual([202, 409]);
    const started = first!.status === 202 ? first! : second!;
    expect((await waitForEnd(token, started.body.data.importId)).last).toMatchObject({ state: 'done', imported: 2 });
  });

  it('shows an import only to the teacher who started it, and one import at a time', async () => {
    const { token, classId } = await teacherWithClass();
    const started = await call('POST', `/api/classes/${classId}/import`, token, {
      csv: classList(Array.from({ length: 5 }, () => studentRow())),
    });
    const importId = started.body.data.importId as string;
    const membershipsBefore = await membershipCount();
    const second = await call('POST', `/api/classes/${classId}/import`, token, { csv: classList([studentRow()]) });
    expect(second.body.code).toBe('IMPORT_RUNNING');
    const colleague = await signUpTeacher(t);
    expect((await call('GET', `/api/imports/${importId}`, colleague.token)).status).toBe(403);
    expect((await call('GET', `/api/imports/${crypto.randomUUID()}`, token)).status).toBe(404);
    // A HEAD request while it is done sends no body, so it does not use up the passwords' one answer.
    // Waiting for the rows and for its end in the database, not reading the import: a read once
    // it is done would take the passwords.
    while ((await membershipCount()) < membershipsBefore + 5) await new Promise((resolve) => setTimeout(resolve, 10));
    while ((await storedState(importId)) !== 'done') await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await t.call({ method: 'HEAD', url: `/api/imports/${importId}`, headers: bearer(token) })).status).toBe(
      200,
    );
    const { last } = await waitForEnd(token, importId);
    expect(last.credentials).toHaveLength(5);
  });

  it('refuses an archived class', async () => {
    const { token, classId } = await teacherWithClass();
    expect((await call('POST', `/api/classes/${classId}/archive`, token)).status).toBe(200);
    const refused = await call('POST', `/api/classes/${classId}/import`, token, { csv: classList([studentRow()]) });
    expect(refused.body.code).toBe('CLASS_ARCHIVED');
  });
});

describe('an import behind a load balancer (decision 034)', () => {
  it('is read from another instance: progress, outcome, and the passwords once, sealed until then', async () => {
    const other = await startSecondInstance(t);
    try {
      const { token, classId } = await teacherWithClass();
      const rows = Array.from({ length: 4 }, () => studentRow());
      const membershipsBefore = await membershipCount();
      const started = await call('POST', `/api/classes/${classId}/import`, token, { csv: classList(rows) });
      expect(started.status, started.raw).toBe(202);
      const importId = started.body.data.importId as string;
      const onOther = await other.call({ method: 'GET', url: `/api/imports/${importId}`, headers: bearer(token) });
      expect(onOther.status, onOther.raw).toBe(200);
      expect(onOther.body.data).toMatchObject({ total: 4 });
      while ((await membershipCount()) < membershipsBefore + 4) await new Promise((resolve) => setTimeout(resolve, 10));
      // Stored sealed: the database holds no password or name of the sheet in clear.
      const [stored] = await t.database.db
        .select({ sealed: rosterImports.sealedCredentials })
        .from(rosterImports)
        .where(sql`${rosterImports.id} = ${importId}`);
      expect(stored!.sealed).toEqual(expect.any(String));
      expect(stored!.sealed).not.toContain(rows[0]!.split(';')[1]);
      const both = await Promise.all(
        [other, t].map((instance) =>
          instance.call({ method: 'GET', url: `/api/imports/${importId}`, headers: bearer(token) }),
        ),
      );
      expect(both.map((answer) => answer.body.data.state)).toEqual(['done', 'done']);
      // Two reads at once on two instances: exactly one carries the passwords.
      expect(both.map((answer) => answer.body.data.credentials?.length ?? 0).sort()).toEqual([0, 4]);
      const [afterRead] = await t.database.db
        .select({ sealed: rosterImports.sealedCredentials })
        .from(rosterImports)
        .where(sql`${rosterImports.id} = ${importId}`);
      expect(afterRead!.sealed).toBeNull();
    } finally {
      await other.close();
    }
  });

  it('lets one of two starts on two instances run; the other is IMPORT_RUNNING', async () => {
    const other = await startSecondInstance(t);
    try {
      const { token, classId } = await teacherWithClass();
      const answers = await Promise.all(
        [t, other].map((instance) =>
          instance.call({
            method: 'POST',
            url: `/api/classes/${classId}/import`,
            headers: bearer(token),
            payload: { csv: classList([studentRow(), studentRow()]) },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
      const started = answers.find((answer) => answer.status === 202)!;
      expect((await waitForEnd(token, started.body.data.importId)).last).toMatchObject({ state: 'done', imported: 2 });
    } finally {
      await other.close();
    }
  });

  it('ends an import whose instance stopped answering, so its teacher can import again', async () => {
    const { token, teacherId, classId } = await teacherWithClass();
    const [left] = await t.database.db
      .insert(rosterImports)
      .values({ teacherId, classId, state: 'hashing', total: 30, updatedAt: sql`now() - interval '5 minutes'` })
      .returning({ id: rosterImports.id });
    const started = await call('POST', `/api/classes/${classId}/import`, token, { csv: classList([studentRow()]) });
    expect(started.status, started.raw).toBe(202);
    const stale = await call('GET', `/api/imports/${left!.id}`, token);
    expect(stale.body.data).toMatchObject({
      state: 'failed',
      error: expect.stringContaining('server restarted'),
      failure: { code: 'SERVER_RESTARTED' },
    });
    expect((await waitForEnd(token, started.body.data.importId)).last).toMatchObject({ state: 'done', imported: 1 });
  });
});

describe('the import budget', () => {
  it('refuses a teacher more starts than the hourly budget, naming it', async () => {
    const limited = await createTestApp({ throttle: { limits: { rosterImportsPerTeacher: 1 } } });
    try {
      const teacher = await signUpTeacher(limited);
      const created = await limited.call({
        method: 'POST',
        url: '/api/classes',
        headers: bearer(teacher.token),
        payload: { name: `Budget class ${nextId()}` },
      });
      const start = () =>
        limited.call({
          method: 'POST',
          url: `/api/classes/${created.body.data._id}/import`,
          headers: bearer(teacher.token),
          payload: { csv: classList(['not;a;valid;row;;']) },
        });
      // A refused start counts too: each one costs a check of up to 2,000 rows.
      expect((await start()).body.code).toBe('ROSTER_ROWS_INVALID');
      const refused = await start();
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ code: 'THROTTLED', limit: 'roster-imports' });
    } finally {
      await limited.close();
    }
  });
});
