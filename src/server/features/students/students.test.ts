import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { StudentListEntry } from '#shared/students';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { buildStudentRegistration } from '../../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';
import { containsPattern } from '../../db/like-pattern.ts';

let t: TestApp;
let queries: string[] = [];
let teacher: Awaited<ReturnType<typeof signUpTeacher>>;

/**
 * Every test works in its own classes, so tests do not see each other's students: a class
 * `by` teaches (the teacher by default), whose students are `by`'s (decision 031).
 */
let classCounter = 0;
async function newClass(label = 'C', by = teacher) {
  const name = `${label}-${++classCounter}-${Math.random().toString(36).slice(2, 6)}`;
  const created = await t.call({ method: 'POST', url: '/api/classes', headers: bearer(by.token), payload: { name } });
  expect(created.status, created.raw).toBe(201);
  classIds.set(name, created.body.data._id);
  return name;
}
/** The ids of the classes the tests made, by name: the API filters by id (decision 031). */
const classIds = new Map<string, string>();

/** The students screen's list; `class` (a class the test made, by name) is sent as its classId. */
const listStudents = ({ class: className, ...query }: Record<string, string | number> = {}, token = teacher.token) => {
  const filter = className === undefined ? {} : { classId: classIds.get(String(className)) ?? String(className) };
  return t.call({
    method: 'GET',
    url: `/api/teacher/students?${new URLSearchParams(Object.entries({ ...query, ...filter }).map(([key, value]) => [key, String(value)]))}`,
    headers: bearer(token),
  });
};

/** A teacher adds a student into a class they teach through the real API (the screen's own path). */
async function addStudent(
  { class: chosen, ...overrides }: Parameters<typeof buildStudentRegistration>[0] & { class?: string } = {},
  by = teacher,
) {
  const className = chosen ?? (await newClass('C', by));
  const { classCode: _none, ...registration } = buildStudentRegistration(overrides);
  const response = await t.call({
    method: 'POST',
    url: `/api/classes/${await classIdTaughtBy(t, by, className)}/students`,
    headers: bearer(by.token),
    payload: registration,
  });
  expect(response.status, response.raw).toBe(201);
  return registration;
}

const namesOf = (body: { data: StudentListEntry[] }) => body.data.map((student) => student.name);

beforeAll(async () => {
  t = await createTestApp({ onQuery: (query) => queries.push(query) });
  teacher = await signUpTeacher(t);
});
afterAll(async () => {
  await t.close();
});
beforeEach(() => {
  queries = [];
});

describe('who may list students', () => {
  it('refuses a student (403) and an anonymous caller (401), on both endpoints', async () => {
    const student = await signUpStudent(t);
    for (const url of ['/api/teacher/students', '/api/teacher/classes']) {
      const asStudent = await t.call({ method: 'GET', url, headers: bearer(student.token) });
      expect(asStudent.status).toBe(403);
      expect(asStudent.body).toMatchObject({ success: false, data: null });
      const anonymous = await t.call({ method: 'GET', url });
      expect(anonymous.status).toBe(401);
      expect(anonymous.body.success).toBe(false);
      const forged = await t.call({ method: 'GET', url, headers: bearer('not.a.token') });
      expect(forged.status).toBe(401);
    }
  });
});

describe('GET /api/teacher/students', () => {
  it('lists the students of the caller’s classes, whoever added them, with the presented fields only', async () => {
    const className = await newClass();
    const added = await addStudent({ class: className, name: 'Added By Me' });
    // A co-teacher adds one (adding into a class makes the adder one of its teachers in tests).
    const other = await signUpTeacher(t);
    await addStudent({ class: className, name: 'Added By Another' }, other);
    const stranger = await signUpTeacher(t);
    const selfRegistered = await signUpStudent(t, { class: className, name: 'Registered Alone' });

    const response = await listStudents({ class: className });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: 'Students found' });
    expect(namesOf(response.body)).toEqual(['Added By Another', 'Added By Me', 'Registered Alone']);
    const entry = response.body.data.find((student: StudentListEntry) => student.name === 'Added By Me');
    expect(Object.keys(entry).sort()).toEqual(
      [
        '_id',
        'name',
        'rollNumber',
        'email',
        'class',
        'parentName',
        'parentEmail',
        'averageScore',
        'averageAccuracy',
        'quizzesAttempted',
        'createdAt',
      ].sort(),
    );
    expect(entry).toMatchObject({
      rollNumber: added.rollNumber,
      email: added.email,
      class: className,
      parentName: added.parentName,
      parentEmail: added.parentEmail,
      averageScore: 0,
      averageAccuracy: 0,
      quizzesAttempted: 0,
    });
    expect(new Date(entry.createdAt).toISOString()).toBe(entry.createdAt);
    expect(response.body.data.map((student: StudentListEntry) => student._id)).toContain(selfRegistered.profile._id);
    // No hash, no password, whatever the row holds.
    expect(response.raw).not.toMatch(/password|\$argon2|hash/i);
    // A teacher of none of their classes: none of them is listed, even by the class's name.
    expect((await listStudents({ class: className }, stranger.token)).body.data).toEqual([]);
    expect((await listStudents({}, stranger.token)).body.data).toEqual([]);
  });

  it('sorts by name, then id, shows the caller’s classes, and filters by one class by its id', async () => {
    const early = await newClass('A');
    const late = await newClass('B');
    // One marker in every roll number lets a search gather exactly these students across both classes.
    const marker = `sort${Math.random().toString(36).slice(2, 8)}`;
    let counter = 0;
    const add = (className: string, name: string) =>
      addStudent({ class: className, name, rollNumber: `${marker}-${++counter}` });
    await add(late, 'Zoe');
    await add(early, 'Yuri');
    await add(late, 'Adam');
    await add(early, 'Bea');
    await add(early, 'Twin');
    await add(early, 'Twin');

    const both = await listStudents({ search: marker });
    expect(both.status).toBe(200);
    const rows = both.body.data as StudentListEntry[];
    expect(rows.map((s) => `${s.class}/${s.name}`)).toEqual([
      `${late}/Adam`,
      `${early}/Bea`,
      `${early}/Twin`,
      `${early}/Twin`,
      `${early}/Yuri`,
      `${late}/Zoe`,
    ]);
    const twinIds = rows.filter((s) => s.name === 'Twin').map((s) => s._id);
    expect(twinIds).toEqual([...twinIds].sort()); // ties broken by id

    const onlyLate = await listStudents({ class: late });
    expect(namesOf(onlyLate.body)).toEqual(['Adam', 'Zoe']);

    // As a person sorts names (the person_name collation, issue 32), not in byte order, which put
    // lower case and accented letters after Z.
    const accented = await newClass('Ä');
    for (const name of ['Zoe', 'émile', 'Ángel', 'adam', 'Öztürk', 'Bea']) await add(accented, name);
    expect(namesOf((await listStudents({ class: accented })).body)).toEqual([
      'adam',
      'Ángel',
      'Bea',
      'émile',
      'Öztürk',
      'Zoe',
    ]);
    // A class is an id now (decision 031): no class has that id, nobody is listed.
    expect((await listStudents({ class: crypto.randomUUID() })).body.data).toEqual([]);
    // An empty filter means every class.
    const emptyClass = await listStudents({ class: '', search: '  ' });
    expect(emptyClass.status).toBe(200);
    expect(emptyClass.body.data.length).toBeGreaterThanOrEqual(6);
  });

  it('searches names and roll numbers, case-insensitively, as substrings', async () => {
    const className = await newClass();
    const suffix = Math.random().toString(36).slice(2, 8);
    await addStudent({ class: className, name: 'Marie Curie', rollNumber: `MC-${suffix}` });
    await addStudent({ class: className, name: 'Ada Lovelace', rollNumber: `AL-${suffix}` });
    await addStudent({ class: className, name: 'Alan Turing', rollNumber: `x-${suffix}-TURING` });

    const search = async (text: string) => namesOf((await listStudents({ class: className, search: text })).body);
    expect(await search('CURIE')).toEqual(['Marie Curie']);
    expect(await search('love')).toEqual(['Ada Lovelace']);
    expect(await search(`mc-${suffix}`)).toEqual(['Marie Curie']); // roll number, other case
    expect(await search(`al-${suffix.toUpperCase()}`)).toEqual(['Ada Lovelace']);
    expect(await search('turing')).toEqual(['Alan Turing']); // in both name and roll number: listed once
    expect(await search('a')).toEqual(['Ada Lovelace', 'Alan Turing', 'Marie Curie']);
    expect(await search('  curie  ')).toEqual(['Marie Curie']); // trimmed
    expect(await search('nobody')).toEqual([]);
    // Without a class filter the search spans the caller's classes.
    expect(namesOf((await listStudents({ search: `MC-${suffix}` })).body)).toEqual(['Marie Curie']);
  });

  it('takes %, _ and \\ literally', async () => {
    const className = await newClass();
    await addStudent({ class: className, name: '100% Sure' });
    await addStudent({ class: className, name: '100 Percent' });
    await addStudent({ class: className, name: 'Under_Score' });
    await addStudent({ class: className, name: 'UnderXScore' });
    await addStudent({ class: className, name: 'Back\\slash' });
    await addStudent({ class: className, name: 'Backslash' });

    const search = async (text: string) => namesOf((await listStudents({ class: className, search: text })).body);
    expect(await search('%')).toEqual(['100% Sure']);
    expect(await search('0%')).toEqual(['100% Sure']);
    expect(await search('_')).toEqual(['Under_Score']);
    expect(await search('r_s')).toEqual(['Under_Score']);
    expect(await search('\\')).toEqual(['Back\\slash']);
    expect(await search('k\\s')).toEqual(['Back\\slash']);
    expect(await search('%%')).toEqual([]);
    expect(containsPattern('a%b_c\\d')).toBe('%a\\%b\\_c\\\\d%');
  });

  it('pages in SQL: offset and limit, hasMore, and the page echoed in the envelope', async () => {
    const className = await newClass();
    const names = ['Ann', 'Ben', 'Cal', 'Dan', 'Eve'];
    for (const name of names) await addStudent({ class: className, name });

    const first = await listStudents({ class: className, limit: 2 });
    expect(namesOf(first.body)).toEqual(['Ann', 'Ben']);
    expect(first.body.page).toEqual({ offset: 0, limit: 2, hasMore: true });
    const second = await listStudents({ class: className, limit: 2, offset: 2 });
    expect(namesOf(second.body)).toEqual(['Cal', 'Dan']);
    expect(second.body.page).toEqual({ offset: 2, limit: 2, hasMore: true });
    const last = await listStudents({ class: className, limit: 2, offset: 4 });
    expect(namesOf(last.body)).toEqual(['Eve']);
    expect(last.body.page).toEqual({ offset: 4, limit: 2, hasMore: false });
    const exact = await listStudents({ class: className, limit: 5 });
    expect(exact.body.page.hasMore).toBe(false);
    const beyond = await listStudents({ class: className, offset: 10 });
    expect(beyond.body).toMatchObject({ data: [], page: { hasMore: false } });
    // The default page holds more than these five.
    expect((await listStudents({ class: className })).body.page).toEqual({ offset: 0, limit: 25, hasMore: false });
  });

  it('refuses bad queries with 400 and a field name', async () => {
    const badQueries: Record<string, string | number>[] = [
      { limit: 0 },
      { limit: 101 },
      { limit: 'many' },
      { offset: -1 },
      { search: 'x'.repeat(101) },
      { classId: 'x'.repeat(51) },
      { search: 'a\u0000b' },
    ];
    for (const query of badQueries) {
      const response = await listStudents(query);
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.success).toBe(false);
      expect(response.body.errors[0].field).toBe(Object.keys(query)[0]);
    }
    expect((await listStudents({ limit: 100 })).status).toBe(200);
  });

  it('answers with one query, however many students match', async () => {
    const className = await newClass();
    const measure = async () => {
      queries = [];
      const response = await listStudents({ class: className, search: 'e', limit: 100 });
      expect(response.status).toBe(200);
      return queries.length;
    };
    await addStudent({ class: className, name: 'One' });
    const withOne = await measure();
    for (let index = 0; index < 8; index += 1) await addStudent({ class: className, name: `Name ${index}e` });
    expect(await measure()).toBe(withOne);
    expect(withOne).toBe(1);
  });
});

describe('GET /api/teacher/classes', () => {
  it('lists the names of the caller’s classes only, sorted, in one query', async () => {
    const other = await signUpTeacher(t);
    const mine = [await newClass('M'), await newClass('K'), await newClass('L')];
    const theirs = await newClass('N', other);
    await addStudent({ class: theirs }, other);

    queries = [];
    const response = await t.call({ method: 'GET', url: '/api/teacher/classes', headers: bearer(teacher.token) });
    expect(queries).toHaveLength(1);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: 'Classes found' });
    const classes = response.body.data as string[];
    expect(classes.filter((name) => [...mine, theirs].includes(name))).toEqual([mine[1], mine[2], mine[0]]); // K, L, M
    const theirList = await t.call({ method: 'GET', url: '/api/teacher/classes', headers: bearer(other.token) });
    expect(theirList.body.data).toEqual([theirs]);
  });
});

describe('a teacher adds a student who then logs in', () => {
  it('adds into a class, finds them in the list, and the student logs in', async () => {
    const className = await newClass();
    const addInto = `/api/classes/${await classIdTaughtBy(t, teacher, className)}/students`;
    const { classCode: _none, ...registration } = buildStudentRegistration({ name: 'New Arrival' });
    const added = await t.call({ method: 'POST', url: addInto, headers: bearer(teacher.token), payload: registration });
    expect(added.status).toBe(201);
    expect(added.body.message).toBe(`Student New Arrival added to ${className}`);

    const listed = await listStudents({ search: registration.rollNumber.toUpperCase() });
    expect(namesOf(listed.body)).toEqual(['New Arrival']);

    const login = await t.call({
      method: 'POST',
      url: '/api/student/login',
      payload: { rollNumber: registration.rollNumber, password: registration.password },
    });
    expect(login.status).toBe(200);
    expect(typeof login.body.data).toBe('string');

    // A duplicate roll number names the field, so the form can mark it.
    const { classCode: _code, ...sameRoll } = buildStudentRegistration({
      rollNumber: registration.rollNumber.toUpperCase(),
    });
    const duplicate = await t.call({ method: 'POST', url: addInto, headers: bearer(teacher.token), payload: sameRoll });
    expect([duplicate.status, duplicate.body.code]).toEqual([409, 'ROLL_NUMBER_TAKEN']);
    expect(duplicate.body.errors).toEqual([{ field: 'rollNumber', code: 'TAKEN', message: expect.any(String) }]);

    // An email another student has: the same status, its own code.
    const { classCode: _again, ...sameAddress } = buildStudentRegistration({ email: registration.email.toUpperCase() });
    const sameEmail = await t.call({
      method: 'POST',
      url: addInto,
      headers: bearer(teacher.token),
      payload: sameAddress,
    });
    expect([sameEmail.status, sameEmail.body.code]).toEqual([409, 'EMAIL_TAKEN']);
    expect(sameEmail.body.errors).toEqual([{ field: 'email', code: 'TAKEN', message: expect.any(String) }]);
  });
});
