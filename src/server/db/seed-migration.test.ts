import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL } from '#shared/demo';
import { migrationFrom } from '../testing/migrated-database.ts';
import { bearer } from '../testing/test-app.ts';
import type { DatabaseHandle } from './client.ts';
import { patience } from '../testing/patience.ts';

/**
 * Issue 19, point 10: a database that `npm run seed` of the version before issue 19 produced
 * (fixtures/seed-0009.sql, see fixtures/README.md) goes through migrations 0010 and later, the
 * real migrator, and loses nothing. The old class text is read at 0009, before any of them run,
 * and afterwards only the class records speak (the text columns may be gone). PGlite, and
 * PostgreSQL when TEST_DATABASE_URL is set.
 */

const FIXTURE = new URL('./fixtures/seed-0009.sql', import.meta.url);
const migratedFromSeed = migrationFrom('0009_leaderboard-ties-by-name', 'studyhall_seed0009');

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;
const TABLES = ['teachers', 'students', 'quizzes', 'quiz_attempts', 'resources', 'resource_stars', 'tasks'] as const;

type Before = {
  counts: Record<string, number>;
  studentClass: Map<string, string>;
  quizClass: Map<string, string>;
  resourceClass: Map<string, string>;
  teachersOf: Map<string, Set<string>>;
  earliestTeacher: string;
  attempts: string[];
  stars: string[];
};

async function counts(handle: DatabaseHandle) {
  const result: Record<string, number> = {};
  for (const table of TABLES) {
    const [row] = rowsOf<{ n: number }>(await handle.db.execute(sql.raw(`select count(*)::int as n from ${table}`)));
    result[table] = row!.n;
  }
  return result;
}

const attemptsOf = async (handle: DatabaseHandle) =>
  rowsOf<{ row: string }>(
    await handle.db.execute(sql`select concat_ws('|', quiz_id, student_id, score::float8, accuracy, submitted_at) as row
      from quiz_attempts order by 1`),
  ).map((row) => row.row);
const starsOf = async (handle: DatabaseHandle) =>
  rowsOf<{ row: string }>(
    await handle.db.execute(sql`select concat_ws('|', resource_id, student_id) as row from resource_stars order by 1`),
  ).map((row) => row.row);

/** Loads the fixture at migration 0009 and reads what the later migrations must keep. */
async function loadSeed(handle: DatabaseHandle): Promise<Before> {
  const statements = readFileSync(FIXTURE, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('INSERT '));
  for (const statement of statements) await handle.db.execute(sql.raw(statement));
  const pairs = async (query: ReturnType<typeof sql>) =>
    new Map(rowsOf<{ id: string; class: string }>(await handle.db.execute(query)).map((row) => [row.id, row.class]));
  const teaching = rowsOf<{ class: string; teacher: string }>(
    await handle.db.execute(sql`select class_key as class, created_by_teacher_id as teacher from quizzes
      union select class_key, uploaded_by_teacher_id from resources`),
  );
  const teachersOf = new Map<string, Set<string>>();
  for (const row of teaching) teachersOf.set(row.class, (teachersOf.get(row.class) ?? new Set()).add(row.teacher));
  const [earliest] = rowsOf<{ id: string }>(
    await handle.db.execute(sql`select id from teachers order by created_at, id limit 1`),
  );
  return {
    counts: await counts(handle),
    studentClass: await pairs(sql`select id, class_key as class from students`),
    quizClass: await pairs(sql`select id, class_key as class from quizzes`),
    resourceClass: await pairs(sql`select id, class_key as class from resources`),
    teachersOf,
    earliestTeacher: earliest!.id,
    attempts: await attemptsOf(handle),
    stars: await starsOf(handle),
  };
}

describe('migrations 0010 and later on the previous version’s demo seed', { timeout: patience(120_000) }, () => {
  it('keeps every account, quiz, attempt, resource and star, and puts each in its class', async () => {
    let before: Before | undefined;
    const t = await migratedFromSeed(async (handle) => {
      before = await loadSeed(handle);
    });
    const db = t.database;
    const old = before!;
    // The fixture is the real seed: two teachers, 16 students in 10A and 10B, stars added.
    expect(old.counts).toEqual({
      teachers: 2,
      students: 16,
      quizzes: 6,
      quiz_attempts: 40,
      resources: 8,
      resource_stars: 22,
      tasks: 3,
    });

    expect(await counts(db)).toEqual(old.counts);
    expect(await attemptsOf(db)).toEqual(old.attempts);
    expect(await starsOf(db)).toEqual(old.stars);

    // One class per old class key.
    const classes = rowsOf<{ id: string; name_key: string }>(
      await db.db.execute(sql`select id, name_key from classes order by name_key`),
    );
    expect(classes.map((row) => row.name_key)).toEqual([...new Set(old.studentClass.values())].sort());
    const keyOf = new Map(classes.map((row) => [row.id, row.name_key]));

    // Every student is in exactly the class their text named.
    const memberships = rowsOf<{ student_id: string; class_id: string }>(
      await db.db.execute(sql`select student_id, class_id from class_students`),
    );
    expect(memberships).toHaveLength(old.studentClass.size);
    expect(new Map(memberships.map((row) => [row.student_id, keyOf.get(row.class_id)]))).toEqual(old.studentClass);

    // Quizzes and resources point at the class their text named.
    const quizzes = rowsOf<{ id: string; class_id: string } & Record<string, unknown>>(
      await db.db.execute(sql`select id, class_id, review_answers, review_score, scores_released from quizzes`),
    );
    expect(new Map(quizzes.map((row) => [row.id, keyOf.get(row.class_id)]))).toEqual(old.quizClass);
    const resources = rowsOf<{ id: string; class_id: string }>(
      await db.db.execute(sql`select id, class_id from resources`),
    );
    expect(new Map(resources.map((row) => [row.id, keyOf.get(row.class_id)]))).toEqual(old.resourceClass);

    // Each class is taught by exactly the teachers with a quiz or resource in it, one of them its owner.
    const teaching = rowsOf<{ class_id: string; teacher_id: string; is_owner: boolean }>(
      await db.db.execute(sql`select class_id, teacher_id, is_owner from class_teachers`),
    );
    const teachersAfter = new Map<string, Set<string>>();
    for (const row of teaching) {
      const key = keyOf.get(row.class_id)!;
      teachersAfter.set(key, (teachersAfter.get(key) ?? new Set()).add(row.teacher_id));
    }
    expect(teachersAfter).toEqual(old.teachersOf);
    for (const { id } of classes) expect(teaching.filter((row) => row.class_id === id && row.is_owner)).toHaveLength(1);

    // The earliest teacher, and only they, administer the school.
    const administrators = rowsOf<{ id: string }>(
      await db.db.execute(sql`select id from teachers where is_administrator`),
    );
    expect(administrators).toEqual([{ id: old.earliestTeacher }]);

    // Every quiz that existed keeps today's review: the key and the score right after submitting.
    for (const quiz of quizzes) {
      expect(quiz).toMatchObject({
        review_answers: 'after-submit',
        review_score: 'after-submit',
        scores_released: true,
      });
    }

    // The seeded passwords still sign in; the demo student sees their class's quizzes.
    const teacher = await t.call({
      method: 'POST',
      url: '/api/teacher/login',
      payload: { email: DEMO_TEACHER_EMAIL, password: DEMO_PASSWORD },
    });
    expect(teacher.status, teacher.raw).toBe(200);
    const student = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: DEMO_STUDENT_ROLL_NUMBER, password: DEMO_PASSWORD },
    });
    expect(student.status, student.raw).toBe(200);
    const list = await t.call({ method: 'GET', url: '/api/get-all-quiz', headers: bearer(student.body.data) });
    expect(list.status, list.raw).toBe(200);
    const tenA = [...old.quizClass].filter(([, key]) => key === '10a').map(([id]) => id);
    expect(list.body.data.map((quiz: { _id: string }) => quiz._id).sort()).toEqual(tenA.sort());
  });
});
