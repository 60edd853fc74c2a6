import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classStudents } from '../../db/schema.ts';
import { classIdTaughtBy, signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

/**
 * A student's whole library: by the class's id when the student has one class (issue 36, an
 * index walk instead of sorting the library), through their memberships otherwise. Both give
 * the same pages: the class's resources only, in the order asked, however they are cut.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ readCache: { ttlMs: 0 } });
});
afterAll(() => t?.close());

describe("a student's library with one class and with two", () => {
  it('lists the same pages in every order, and nothing of another class', async () => {
    const teacher = await signUpTeacher(t);
    const mine = `Lib-${randomUUID().slice(0, 8)}`;
    const other = `Lib-${randomUUID().slice(0, 8)}`;
    const empty = `Lib-${randomUUID().slice(0, 8)}`;
    const one = await signUpStudent(t, { class: mine });
    const two = await signUpStudent(t, { class: mine });
    await signUpStudent(t, { class: other });
    await signUpStudent(t, { class: empty });
    const classId = await classIdTaughtBy(t, teacher, mine);
    const otherId = await classIdTaughtBy(t, teacher, other);
    const emptyId = await classIdTaughtBy(t, teacher, empty);
    // The second student is also in a class without resources: the path through memberships.
    await t.database.db.insert(classStudents).values({ classId: emptyId, studentId: two.profile._id });
    const add = async (fileName: string, inClass: string) => {
      const response = await t.call({
        method: 'POST',
        url: '/api/teacher/add-resource-link',
        headers: bearer(teacher.token),
        payload: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', fileName, classId: inClass },
      });
      expect(response.status, response.raw).toBe(201);
      return response.body.data._id as string;
    };
    for (const name of ['Delta', 'alpha', 'Charlie', 'bravo', 'Echo']) await add(name, classId);
    await add('Other class', otherId);
    // Two created in the same millisecond, apart by a microsecond.
    await t.database.db.execute(sql`update resources set created_at = timestamptz '2026-12-01 10:00:00.5'
      + (interval '1 microsecond' * (ascii(lower(file_name)) % 2)) where class_id = ${classId}::uuid`);

    const page = async (person: typeof one, query: string) =>
      (
        (await t.call({ method: 'GET', url: `/api/get-resources?${query}`, headers: bearer(person.token) })).body
          .data as { fileName: string }[]
      ).map((resource) => resource.fileName);
    const byName = ['alpha', 'bravo', 'Charlie', 'Delta', 'Echo'];
    expect(await page(one, 'sortBy=fileName&sortOrder=asc')).toEqual(byName);
    expect(await page(one, 'sortBy=fileName&sortOrder=desc')).toEqual([...byName].reverse());
    for (const query of [
      'sortBy=createdAt&sortOrder=desc',
      'sortBy=createdAt&sortOrder=asc',
      'sortBy=createdAt&sortOrder=desc&offset=1&limit=2',
      'sortBy=fileName&sortOrder=asc&offset=3&limit=2',
    ])
      expect(await page(one, query), query).toEqual(await page(two, query));
    expect(await page(one, 'sortBy=createdAt&sortOrder=desc')).toHaveLength(5);
  });
});
