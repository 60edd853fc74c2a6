import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailKey, identityKey } from '#shared/identity';
import { hashPassword } from '../features/accounts/passwords.ts';
import { migrationFrom } from '../testing/migrated-database.ts';
import { bearer } from '../testing/test-app.ts';
import type { DatabaseHandle } from './client.ts';
import { patience } from '../testing/patience.ts';

/**
 * Migrations 0013 and 0016 (issue 19, point 10; decision 031) on a database of the version before it,
 * shaped like the demo seed's (two teachers, classes 10A and 10B, a class spelled two ways, a
 * class only students name): each class key becomes one class, taught by every teacher with a
 * quiz or resource in it, every student joins theirs, and nothing is lost; 0016 then drops the
 * quizzes' and resources' class text, which their class ids replace. PGlite and PostgreSQL.
 */

const PREVIOUS = '0010_school-and-staff';
const PASSWORD = 'correct horse battery';

const migratedFromPrevious = migrationFrom(PREVIOUS, 'studyhall_classes');

const MATHS = '00000000-0000-4000-8000-0000000000a1';
const SCIENCE = '00000000-0000-4000-8000-0000000000b2';
const day = (n: number) => new Date(Date.UTC(2026, 8, n)).toISOString();
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

async function seedPreviousVersion(handle: DatabaseHandle) {
  const db = handle.db;
  const passwordHash = await hashPassword(PASSWORD);
  for (const [id, name, email, subject] of [
    [MATHS, 'Maths Teacher', 'maths@school.example', 'Maths'],
    [SCIENCE, 'Science Teacher', 'science@school.example', 'Science'],
  ] as const) {
    await db.execute(sql`insert into teachers (id, name, email, email_key, subject, password_hash, created_at)
      values (${id}, ${name}, ${email}, ${emailKey(email)}, ${subject}, ${passwordHash}, ${day(1)})`);
  }
  // Students as typed: "10a " and "10A" are one class; "Drama club" only students name.
  const students: [string, string, string][] = [
    ['s-10a-1', '10A', day(2)],
    ['s-10a-2', '10A', day(3)],
    ['s-10a-3', '10a ', day(4)],
    ['s-10b-1', '10B', day(2)],
    ['s-drama', 'Drama club', day(5)],
    // Padded: "Chess" is the most common spelling once trimmed, though "chess" came first.
    ['s-chess-1', '  Chess ', day(2)],
    ['s-chess-2', 'Chess', day(3)],
    ['s-chess-3', 'chess', day(1)],
    // A tie of uses: the spelling used first wins ("Art" before "art").
    ['s-art-1', 'art', day(3)],
    ['s-art-2', 'Art', day(2)],
    // A tie of uses and of time: the first in byte order, on either database ("POETRY" < "Poetry").
    ['s-poetry-1', 'Poetry', day(4)],
    ['s-poetry-2', 'POETRY', day(4)],
  ];
  for (const [roll, className, createdAt] of students) {
    await db.execute(sql`insert into students (name, roll_number, roll_number_key, email, email_key, class, class_key,
        parent_name, parent_email, password_hash, created_at)
      values (${`Student ${roll}`}, ${roll}, ${identityKey(roll)}, ${`${roll}@school.example`},
        ${emailKey(`${roll}@school.example`)}, ${className}, ${identityKey(className)}, 'Parent',
        'parent@school.example', ${passwordHash}, ${createdAt})`);
  }
  // Maths quizzes in both classes; Science joins 10A later with a resource, 10B with a quiz.
  const quiz = async (title: string, className: string, teacher: string, createdAt: string) =>
    db.execute(sql`insert into quizzes (title, subject, class, class_key, created_at, deadline, max_time_minutes,
        created_by_teacher_id, background, questions, question_count)
      values (${title}, 'Maths', ${className}, ${identityKey(className)}, ${createdAt}, '2099-01-01T00:00:00Z', 10,
        ${teacher}, 'quiz1-template.png',
        ${JSON.stringify([{ _id: 'q1', question_text: '1+1?', options: ['2', '3'], answer: '2' }])}::jsonb, 1)`);
  await quiz('Fractions', '10A', MATHS, day(6));
  await quiz('Fractions', '10b', MATHS, day(7));
  await quiz('Cells', '10B', SCIENCE, day(8));
  await db.execute(sql`insert into resources (kind, file_name, link_url, tags, class, class_key, subject, mime_type,
      size_bytes, uploaded_by_teacher_id, created_at)
    values ('link', 'Photosynthesis', 'https://www.youtube.com/watch?v=abc', '[]'::jsonb, '10A', '10a', 'Science',
      'video/youtube', 0, ${SCIENCE}, ${day(9)})`);
}

// Each test migrates a database from nothing, which takes far longer than a request test on a
// busy CI machine.
describe('migration 0013: classes as records', { timeout: patience(120_000) }, () => {
  it('makes each class key one class, with its teachers, students, quizzes and resources', async () => {
    const t = await migratedFromPrevious(seedPreviousVersion);
    const db = t.database.db;

    const classes = rowsOf<{ name: string; name_key: string; join_code: string | null; id: string }>(
      await db.execute(sql`select id, name, name_key, join_code from classes order by name_key`),
    );
    // Named as most often spelled; codes stay off until a teacher turns one on.
    expect(classes.map((row) => [row.name, row.name_key, row.join_code])).toEqual([
      ['10A', '10a', null],
      ['10B', '10b', null],
      ['Art', 'art', null],
      ['Chess', 'chess', null],
      ['Drama club', 'drama club', null],
      ['POETRY', 'poetry', null],
    ]);
    const idOf = (name: string) => classes.find((row) => row.name === name)!.id;

    const teaching = rowsOf<{ name: string; teacher_id: string; is_owner: boolean }>(
      await db.execute(sql`select classes.name, teacher_id, is_owner from class_teachers
        join classes on classes.id = class_id order by classes.name, teacher_id`),
    );
    expect(teaching).toEqual([
      { name: '10A', teacher_id: MATHS, is_owner: true },
      { name: '10A', teacher_id: SCIENCE, is_owner: false },
      { name: '10B', teacher_id: MATHS, is_owner: true },
      { name: '10B', teacher_id: SCIENCE, is_owner: false },
    ]);

    const memberships = rowsOf<{ roll_number: string; name: string }>(
      await db.execute(sql`select roll_number, classes.name from class_students
        join students on students.id = student_id join classes on classes.id = class_id order by roll_number`),
    );
    expect(memberships).toEqual([
      { roll_number: 's-10a-1', name: '10A' },
      { roll_number: 's-10a-2', name: '10A' },
      { roll_number: 's-10a-3', name: '10A' },
      { roll_number: 's-10b-1', name: '10B' },
      { roll_number: 's-art-1', name: 'Art' },
      { roll_number: 's-art-2', name: 'Art' },
      { roll_number: 's-chess-1', name: 'Chess' },
      { roll_number: 's-chess-2', name: 'Chess' },
      { roll_number: 's-chess-3', name: 'Chess' },
      { roll_number: 's-drama', name: 'Drama club' },
      { roll_number: 's-poetry-1', name: 'POETRY' },
      { roll_number: 's-poetry-2', name: 'POETRY' },
    ]);

    // Through 0016 (the text columns dropped): each quiz and resource keeps its class by id.
    const columns = rowsOf<{ table_name: string; column_name: string }>(
      await db.execute(sql`select table_name, column_name from information_schema.columns
        where table_name in ('quizzes', 'resources') and column_name in ('class', 'class_key')`),
    );
    expect(columns).toEqual([]);
    const quizzes = rowsOf<{ title: string; class_id: string; name: string }>(
      await db.execute(sql`select title, class_id, classes.name from quizzes
        join classes on classes.id = class_id order by quizzes.created_at`),
    );
    expect(quizzes.map((row) => [row.title, row.name, row.class_id])).toEqual([
      ['Fractions', '10A', idOf('10A')],
      ['Fractions', '10B', idOf('10B')],
      ['Cells', '10B', idOf('10B')],
    ]);
    const resources = rowsOf<{ class_id: string }>(await db.execute(sql`select class_id from resources`));
    expect(resources).toEqual([{ class_id: idOf('10A') }]);

    // And the school keeps working: a student of "10a " signs in and sees their class's quiz.
    const login = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: 's-10a-3', password: PASSWORD },
    });
    const list = await t.call({ method: 'GET', url: '/api/get-all-quiz', headers: bearer(login.body.data) });
    expect(list.body.data.map((quiz: { title: string; class: string }) => [quiz.title, quiz.class])).toEqual([
      ['Fractions', '10A'],
    ]);
    const library = await t.call({ method: 'GET', url: '/api/get-resources', headers: bearer(login.body.data) });
    expect(
      library.body.data.map((resource: { class: string; classId: string }) => [resource.class, resource.classId]),
    ).toEqual([['10A', idOf('10A')]]);
  });

  it('migrates an empty installation to no classes', async () => {
    const t = await migratedFromPrevious(async () => {});
    expect(rowsOf(await t.database.db.execute(sql`select id from classes`))).toEqual([]);
  });
});
