import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailKey, identityKey } from '#shared/identity';
import { hashPassword } from '../features/accounts/passwords.ts';
import { createScratchDatabase } from '../testing/postgres-databases.ts';
import { buildStudentRegistration, buildTeacherRegistration } from '../testing/factories.ts';
import { classCodeNamed, inviteTeacher } from '../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../testing/test-app.ts';
import { openDatabase } from './client.ts';
import { DUPLICATE_KEY_PREFIX, findIdentityConflicts } from './identity-keys.ts';
import { migrateSchema } from './migrate.ts';
import { patience } from '../testing/patience.ts';

/**
 * Migrations 0007-0008 (decision 024) on a database made by the code before them: rows in the
 * schema of 0006, then the server's own start migrates it forward. The keys must be exactly
 * identityKey/emailKey of what is stored (so the accounts sign in), and identities that only
 * the old lower() told apart are settled by age: the older account keeps it.
 */

const PREVIOUS = '0006_account-session-notices';
const adminUrl = process.env.TEST_DATABASE_URL;
const PASSWORD = 'correct horse battery';

/** An empty database migrated to PREVIOUS, and how to open it again as a starting server would. */
async function previousVersionDatabase() {
  if (adminUrl) {
    const scratch = await createScratchDatabase(adminUrl, 'studyhall_identity');
    const handle = await openDatabase({ kind: 'postgres', url: scratch.url, isMigrated: false });
    await migrateSchema(handle.db, { through: PREVIOUS });
    return {
      handle,
      restart: async () => {
        await handle.close();
        return openDatabase({ kind: 'postgres', url: scratch.url });
      },
      drop: scratch.drop,
    };
  }
  const handle = await openDatabase({ kind: 'pglite', isMigrated: false });
  await migrateSchema(handle.db, { through: PREVIOUS });
  return {
    handle,
    restart: async () => {
      const dump = await handle.dumpDataDir!();
      await handle.close();
      return openDatabase({ kind: 'pglite', loadDataDir: dump });
    },
    drop: async () => {},
  };
}

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const at = (year: number) => new Date(Date.UTC(year, 0, 1)).toISOString();

/** What the previous version could hold, oldest first within each table. */
const TEACHERS = [
  { id: '00000000-0000-4000-8000-000000000001', email: 'Straße@School.example', createdAt: at(2020) },
  { id: '00000000-0000-4000-8000-000000000002', email: 'STRASSE@school.example', createdAt: at(2021) },
  { id: '00000000-0000-4000-8000-000000000003', email: 'ipek.hoca@school.example', createdAt: at(2022) },
];
const STUDENTS = [
  { id: '00000000-0000-4000-8000-000000000011', roll: 'İpek-07', email: 'ipek@school.example', class: '10A' },
  { id: '00000000-0000-4000-8000-000000000012', roll: 'Straße-1', email: 'straße@family.example', class: '10a' },
  { id: '00000000-0000-4000-8000-000000000013', roll: 'STRASSE-1', email: 'b@school.example', class: 'E\u0301cole' },
  { id: '00000000-0000-4000-8000-000000000014', roll: 'ırmak', email: 'STRASSE@family.example', class: 'École' },
].map((student, index) => ({ ...student, createdAt: at(2020 + index) }));
const [straßeTeacher, strasseTeacher, ipekTeacher] = TEACHERS;
const [ipek, straße, strasse, irmak] = STUDENTS;

let t: TestApp;
let drop: () => Promise<void>;

beforeAll(async () => {
  const previous = await previousVersionDatabase();
  drop = previous.drop;
  const { db } = previous.handle;
  const passwordHash = await hashPassword(PASSWORD);
  for (const teacher of TEACHERS) {
    await db.execute(sql`insert into teachers (id, name, email, subject, password_hash, created_at)
      values (${teacher.id}, 'Teacher', ${teacher.email}, 'Maths', ${passwordHash}, ${teacher.createdAt})`);
  }
  for (const student of STUDENTS) {
    await db.execute(sql`insert into students (id, name, roll_number, email, class, parent_name, parent_email,
        password_hash, created_at)
      values (${student.id}, 'Student', ${student.roll}, ${student.email}, ${student.class}, 'Parent',
        'parent@family.example', ${passwordHash}, ${student.createdAt})`);
  }
  await db.execute(sql`insert into quizzes (title, subject, class, deadline, max_time_minutes, created_by_teacher_id,
      background, questions, question_count)
    values ('Fractions', 'Maths', '10a', now() + interval '1 day', 10, ${ipekTeacher!.id}, 'q1.png',
      ${JSON.stringify([{ _id: 'q1', question_text: '1/2 + 1/2?', options: ['1', '2'], answer: '1' }])}::jsonb, 1)`);
  await db.execute(sql`insert into resources (kind, file_name, link_url, class, subject, mime_type, size_bytes,
      uploaded_by_teacher_id)
    values ('link', 'Compost', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'ÉCOLE', 'Biology', 'video/x-youtube', 0,
      ${ipekTeacher!.id})`);

  // The new version starts: openDatabase migrates (0007, its JavaScript step, 0008) in one transaction.
  t = await createTestApp({ database: await previous.restart() });
}, patience(120_000));

afterAll(async () => {
  await t?.close();
  await drop?.();
});

describe('identity keys of rows made before them (migrations 0007-0008)', () => {
  it('fills every key with exactly what the application computes; a younger duplicate gets an unreachable one', async () => {
    const db = t.database.db;
    const teachers = rowsOf<{ id: string; email: string; email_key: string }>(
      await db.execute(sql`select id, email, email_key from teachers order by created_at`),
    );
    expect(teachers).toEqual([
      { id: straßeTeacher!.id, email: straßeTeacher!.email, email_key: emailKey(straßeTeacher!.email) },
      {
        id: strasseTeacher!.id,
        email: strasseTeacher!.email,
        email_key: `${DUPLICATE_KEY_PREFIX}${strasseTeacher!.id}`,
      },
      { id: ipekTeacher!.id, email: ipekTeacher!.email, email_key: emailKey(ipekTeacher!.email) },
    ]);
    const students = rowsOf<Record<string, string>>(
      await db.execute(sql`select students.id, roll_number_key, email_key, classes.name_key as class_key from students
        join class_students on class_students.student_id = students.id
        join classes on classes.id = class_students.class_id order by students.created_at`),
    );
    expect(students).toEqual([
      { id: ipek!.id, roll_number_key: 'ipek-07', email_key: 'ipek@school.example', class_key: '10a' },
      { id: straße!.id, roll_number_key: 'strasse-1', email_key: 'strasse@family.example', class_key: '10a' },
      {
        id: strasse!.id,
        roll_number_key: `${DUPLICATE_KEY_PREFIX}${strasse!.id}`,
        email_key: 'b@school.example',
        class_key: 'école',
      },
      {
        id: irmak!.id,
        roll_number_key: 'irmak',
        email_key: `${DUPLICATE_KEY_PREFIX}${irmak!.id}`,
        class_key: 'école',
      },
    ]);
    for (const student of students.filter((row) => !row.roll_number_key!.startsWith(DUPLICATE_KEY_PREFIX))) {
      const stored = STUDENTS.find((row) => row.id === student.id)!;
      expect(student.roll_number_key).toBe(identityKey(stored.roll));
    }
    // The quizzes' and resources' class keys became their classes' (0013; the text columns went in 0016).
    const classKeys = rowsOf<{ class_key: string }>(
      await db.execute(sql`select classes.name_key as class_key from quizzes join classes on classes.id = quizzes.class_id
        union all select classes.name_key from resources join classes on classes.id = resources.class_id`),
    );
    expect(classKeys.map((row) => row.class_key).sort()).toEqual([identityKey('10a'), identityKey('ÉCOLE')].sort());
    expect(await findIdentityConflicts(db)).toEqual([
      { role: 'student', field: 'email', id: irmak!.id },
      { role: 'student', field: 'rollNumber', id: strasse!.id },
      { role: 'teacher', field: 'email', id: strasseTeacher!.id },
    ]);
  });

  it('signs the existing accounts in however their identity is typed; the older of two keeps it', async () => {
    const studentLogin = (rollNumber: string) =>
      t.call({ method: 'POST', url: '/api/student/login', payload: { rollNumber, password: PASSWORD } });
    for (const typed of ['İpek-07', 'İPEK-07', 'ipek-07', 'İpek-07'.toLowerCase(), 'IPEK-07']) {
      const login = await studentLogin(typed);
      expect([typed, login.status]).toEqual([typed, 200]);
      expect(decodeJwt(login.body.data).sub).toBe(ipek!.id);
    }
    for (const typed of ['STRASSE-1', 'straße-1', 'Strasse-1']) {
      const login = await studentLogin(typed);
      expect([typed, login.status, decodeJwt(login.body.data).sub]).toEqual([typed, 200, straße!.id]);
    }
    expect((await studentLogin('IRMAK')).status).toBe(200);

    const teacherLogin = await t.call({
      method: 'POST',
      url: '/api/teacher/login',
      payload: { email: 'strasse@SCHOOL.example', password: PASSWORD },
    });
    expect(decodeJwt(teacherLogin.body.data).sub).toBe(straßeTeacher!.id);

    const taken = await t.call({
      method: 'POST',
      url: '/api/student/register',
      payload: buildStudentRegistration({ rollNumber: 'STRAẞE-1', classCode: await classCodeNamed(t, '10A') }),
    });
    expect([taken.status, taken.body.code]).toEqual([409, 'ROLL_NUMBER_TAKEN']);
    const takenEmail = await t.call({
      method: 'POST',
      url: '/api/teacher/register',
      payload: buildTeacherRegistration(await inviteTeacher(t), { email: 'İPEK.HOCA@SCHOOL.EXAMPLE' }),
    });
    expect([takenEmail.status, takenEmail.body.code]).toEqual([409, 'EMAIL_TAKEN']);
  });

  it('makes each old class one class for the quizzes and resources already there', async () => {
    const signIn = async (rollNumber: string) =>
      (await t.call({ method: 'POST', url: '/api/student/login', payload: { rollNumber, password: PASSWORD } })).body
        .data as string;
    for (const rollNumber of ['ipek-07', 'strasse-1']) {
      const quizzes = await t.call({
        method: 'GET',
        url: '/api/get-all-quiz',
        headers: bearer(await signIn(rollNumber)),
      });
      expect(quizzes.body.data.map((quiz: { title: string }) => quiz.title)).toEqual(['Fractions']);
    }
    const library = await t.call({ method: 'GET', url: '/api/get-resources', headers: bearer(await signIn('irmak')) });
    expect(library.body.data.map((resource: { fileName: string }) => resource.fileName)).toEqual(['Compost']);
  });
});
