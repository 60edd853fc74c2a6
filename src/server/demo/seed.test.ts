import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_SCHOOL_NAME, DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL } from '#shared/demo';
import type { Resource } from '#shared/resources';
import { bearer, createTestApp, type TestApp } from '../testing/test-app.ts';
import { seedDemo } from './seed.ts';
import { teachers } from '../db/schema.ts';
import { schoolAdministrator } from '../testing/actors.ts';
import { patience } from '../testing/patience.ts';
import { TEST_SETUP_CODE } from '../testing/factories.ts';

let t: TestApp;

const countRows = async () => {
  const result = (await t.database.db.execute(sql`select
    (select count(*)::int from teachers) as teachers, (select count(*)::int from students) as students,
    (select count(*)::int from quizzes) as quizzes, (select count(*)::int from quiz_attempts) as attempts,
    (select count(*)::int from tasks) as tasks, (select count(*)::int from resources) as resources,
    (select count(*)::int from assignments) as assignments, (select count(*)::int from hand_ins) as "handIns"`)) as {
    rows: Record<string, number>[];
  };
  return result.rows[0];
};

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('demo seed', () => {
  it('fills an empty database once; a second run adds nothing', { timeout: patience(60_000) }, async () => {
    const first = await seedDemo(t.database.db, t.storage);
    expect(first).toMatchObject({ teachers: 2, students: 16, quizzes: 8, resources: 8, assignments: 5 });
    expect(first.attempts).toBe(7 * 8);
    const afterFirst = await countRows();
    // Hand-ins: 4 drafts of the worksheet, 12 of the lab (4 missing), 8 reflections, 8 water cycles.
    expect(afterFirst).toEqual({
      teachers: 2,
      students: 16,
      quizzes: 8,
      attempts: 56,
      tasks: 3,
      resources: 8,
      assignments: 5,
      handIns: 4 + 12 + 8 + 8,
    });

    const second = await seedDemo(t.database.db, t.storage);
    expect(second.attempts).toBe(0);
    expect(second.resources).toBe(0);
    expect(second.assignments).toBe(0);
    expect(await countRows()).toEqual(afterFirst);
  });

  it('gives working demo logins, varied results and a quiz left to take', async () => {
    const teacherLogin = await t.call({
      method: 'POST',
      url: '/api/teacher/login',
      payload: { email: DEMO_TEACHER_EMAIL, password: DEMO_PASSWORD },
    });
    expect(teacherLogin.status).toBe(200);
    // The demo school is set up, and its first teacher administers it (decision 030).
    expect((await t.call({ method: 'GET', url: '/api/school' })).body.data).toEqual({
      isSetUp: true,
      name: DEMO_SCHOOL_NAME,
      hasDemo: true,
      defaultLocale: 'en',
      timeZone: 'UTC',
    });
    const staff = await t.call({ method: 'GET', url: '/api/school/teachers', headers: bearer(teacherLogin.body.data) });
    expect(staff.body.data.map((member: { isAdministrator: boolean }) => member.isAdministrator).sort()).toEqual([
      false,
      true,
    ]);
    // Two classes (decision 031), each with a join code, both teachers and its eight students.
    const classes = await t.call({ method: 'GET', url: '/api/classes', headers: bearer(teacherLogin.body.data) });
    expect(
      classes.body.data.map((entry: { name: string; studentCount: number; teachers: unknown[]; joinCode: string }) => [
        entry.name,
        entry.studentCount,
        entry.teachers.length,
        /^[A-Z2-9]{4}-[A-Z2-9]{4}$/.test(entry.joinCode),
      ]),
    ).toEqual([
      ['10A', 8, 2, true],
      ['10B', 8, 2, true],
    ]);
    const studentLogin = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: DEMO_STUDENT_ROLL_NUMBER, password: DEMO_PASSWORD },
    });
    expect(studentLogin.status).toBe(200);

    const online = await t.call({
      method: 'GET',
      url: '/api/get-all-quiz?view=online',
      headers: bearer(studentLogin.body.data),
    });
    expect(online.body.data.map((quiz: { title: string }) => quiz.title)).toEqual(['Linear equations (10A)']);

    const scores = (await t.database.db.execute(
      sql`select distinct average_score from students where quizzes_attempted > 0`,
    )) as { rows: unknown[] };
    expect(scores.rows.length).toBeGreaterThan(4);
    const subjects = (await t.database.db.execute(sql`select distinct q.subject from quiz_attempts a
      join quizzes q on q.id = a.quiz_id join students s on s.id = a.student_id
      where s.roll_number = ${DEMO_STUDENT_ROLL_NUMBER}`)) as { rows: { subject: string }[] };
    expect(subjects.rows.map((row) => row.subject).sort()).toEqual(['Mathematics', 'Science']);
  });

  it('gives the demo student an assignment in each of the four groups, and the teacher every state', async () => {
    const studentLogin = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: DEMO_STUDENT_ROLL_NUMBER, password: DEMO_PASSWORD },
    });
    const groups: Record<string, string[]> = {};
    for (const group of ['todo', 'missing', 'done', 'returned']) {
      const listed = await t.call({
        method: 'GET',
        url: `/api/student/assignments?group=${group}`,
        headers: bearer(studentLogin.body.data),
      });
      expect(listed.status).toBe(200);
      groups[group] = listed.body.data.map((entry: { title: string }) => entry.title).sort();
    }
    expect(groups).toEqual({
      todo: ['Fractions worksheet'],
      missing: ['Homework: label the water cycle'],
      done: ['Reading reflection: a page on a scientist you admire'],
      returned: ['Lab report: how fast does a plant grow?'],
    });
    const returned = await t.call({
      method: 'GET',
      url: '/api/student/assignments?group=returned',
      headers: bearer(studentLogin.body.data),
    });
    expect(returned.body.data[0].handIn).toMatchObject({ state: 'returned', gradeChangedAfterReturn: true });

    const states = (await t.database.db.execute(sql`select distinct h.state, h.late from hand_ins h
      join assignments a on a.id = h.assignment_id where a.title like 'Lab report%'`)) as {
      rows: { state: string; late: boolean }[];
    };
    expect(states.rows.map((row) => `${row.state}${row.late ? ' late' : ''}`).sort()).toEqual([
      'graded',
      'handed-in',
      'handed-in late',
      'returned',
    ]);
  });

  it("fills the demo class's library with files that open", async () => {
    const studentLogin = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: DEMO_STUDENT_ROLL_NUMBER, password: DEMO_PASSWORD },
    });
    const library = await t.call({ method: 'GET', url: '/api/get-resources', headers: bearer(studentLogin.body.data) });
    const byName = new Map(library.body.data.map((resource: Resource) => [resource.fileName, resource]));
    expect([...byName.keys()].sort()).toEqual([
      'Class results by topic.png',
      'Fractions cheat sheet.pdf',
      'Fractions on a number line (video)',
      'Linear equations practice.csv',
    ]);
    for (const [name, type] of [
      ['Fractions cheat sheet.pdf', 'application/pdf'],
      ['Class results by topic.png', 'image/png'],
      ['Linear equations practice.csv', 'text/csv; charset=utf-8'],
    ]) {
      const file = await t.app.inject({ method: 'GET', url: (byName.get(name) as Resource).fileURL });
      expect(file.statusCode, name).toBe(200);
      expect(file.headers['content-type']).toBe(type);
    }
  });
});

describe('POST /api/school/demo: the demo from a fresh server (decision 041)', () => {
  it(
    'fills a server with no school once: of two clicks at once one seeds, the other is refused',
    { timeout: patience(120_000) },
    async () => {
      const fresh = await createTestApp();
      try {
        const answers = await Promise.all(
          [1, 2].map(() =>
            fresh.call({ method: 'POST', url: '/api/school/demo', payload: { setupCode: TEST_SETUP_CODE } }),
          ),
        );
        expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
        expect(answers.find((answer) => answer.status === 201)!.body.data).toEqual({
          isSetUp: true,
          name: DEMO_SCHOOL_NAME,
          hasDemo: true,
          defaultLocale: 'en',
          timeZone: 'UTC',
        });
        expect(answers.find((answer) => answer.status === 409)!.body.code).toBe('SCHOOL_ALREADY_SET_UP');
        const student = await fresh.call({
          method: 'POST',
          url: '/api/student/login',
          payload: { rollNumber: DEMO_STUDENT_ROLL_NUMBER, password: DEMO_PASSWORD },
        });
        expect(student.status).toBe(200);
        const again = await fresh.call({
          method: 'POST',
          url: '/api/school/demo',
          payload: { setupCode: TEST_SETUP_CODE },
        });
        expect(again.status).toBe(409);
      } finally {
        await fresh.close();
      }
    },
  );

  it('never puts the public demo accounts into a school that is set up', async () => {
    const real = await createTestApp();
    try {
      await schoolAdministrator(real);
      const refused = await real.call({
        method: 'POST',
        url: '/api/school/demo',
        payload: { setupCode: TEST_SETUP_CODE },
      });
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('SCHOOL_ALREADY_SET_UP');
      expect(await real.database.db.select({ id: teachers.id }).from(teachers)).toHaveLength(1);
    } finally {
      await real.close();
    }
  });
});
