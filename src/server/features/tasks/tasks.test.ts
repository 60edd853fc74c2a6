import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSON_BODY_LIMIT_BYTES } from '#shared/limits';
import { TASK_LIMITS, UPDATE_TASKS_BODY_LIMIT_BYTES } from '#shared/tasks';
import { signUpStudent, signUpTeacher } from '../../testing/actors.ts';
import { jsonOfExactly } from '../../testing/json-bodies.ts';
import { bearer, createTestApp, type TestApp } from '../../testing/test-app.ts';

let t: TestApp;

type Actor = { token: string; profile: { _id: string } };
const readList = (actor: Actor) => t.call({ method: 'GET', url: '/api/tasks', headers: bearer(actor.token) });
const writeList = (actor: Actor, role: 'teacher' | 'student', payload: unknown) =>
  t.call({ method: 'POST', url: `/api/${role}/update-task`, headers: bearer(actor.token), payload: payload as never });

const task = (id: string, text = `Task ${id}`, isCompleted = false) => ({ id, text, isCompleted });

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('task lists', () => {
  it('starts empty and replaces the caller’s list, in order, for each role', async () => {
    for (const [role, signUp] of [
      ['teacher', signUpTeacher],
      ['student', signUpStudent],
    ] as const) {
      const owner = await signUp(t);
      expect((await readList(owner)).body.data).toEqual({ tasks: [], version: 0 });
      const saved = await writeList(owner, role, {
        tasks: [task('aaaaaaaa1'), task('bbbbbbbb2', 'Mark essays', true)],
        version: 0,
      });
      expect(saved.status).toBe(200);
      expect(saved.body.data).toEqual({
        tasks: [task('aaaaaaaa1'), task('bbbbbbbb2', 'Mark essays', true)],
        version: 1,
      });
      const reordered = await writeList(owner, role, { tasks: [task('bbbbbbbb2', 'Mark essays', true)], version: 1 });
      expect(reordered.body.data.version).toBe(2);
      expect((await readList(owner)).body.data).toEqual({
        tasks: [task('bbbbbbbb2', 'Mark essays', true)],
        version: 2,
      });
    }
  });

  it('saves the largest valid list (200 tasks of 500 three-byte characters), over the 16 kB of other JSON calls', async () => {
    const owner = await signUpStudent(t);
    const tasks = Array.from({ length: TASK_LIMITS.perList }, (_, index) =>
      task(`big${String(index).padStart(6, '0')}`, '€'.repeat(TASK_LIMITS.text), index % 2 === 0),
    );
    const body = JSON.stringify({ tasks, version: 0 });
    expect(Buffer.byteLength(body)).toBeGreaterThan(4 * JSON_BODY_LIMIT_BYTES);
    const saved = await writeList(owner, 'student', JSON.parse(body));
    expect(saved.status).toBe(200);
    expect((await readList(owner)).body.data).toEqual({ tasks, version: 1 });

    // One byte over the route's own limit: 413 naming that limit, and the list is untouched.
    const refused = await t.call({
      method: 'POST',
      url: '/api/student/update-task',
      headers: { ...bearer(owner.token), 'content-type': 'application/json' },
      payload: jsonOfExactly({ tasks, version: 1 }, UPDATE_TASKS_BODY_LIMIT_BYTES + 1),
    });
    expect(refused.status).toBe(413);
    expect(refused.body.message).toBe('The request is too large: at most 343 KB can be sent at once.');
    expect((await readList(owner)).body.data.version).toBe(1);
  });

  it('ignores a teacherID or studentID in the body: the token decides whose list it is', async () => {
    const teacher = await signUpTeacher(t);
    const victim = await signUpTeacher(t);
    const student = await signUpStudent(t);
    await writeList(teacher, 'teacher', { teacherID: victim.profile._id, tasks: [task('forged001')], version: 0 });
    await writeList(student, 'student', { studentID: victim.profile._id, tasks: [task('forged002')], version: 0 });
    expect((await readList(victim)).body.data.tasks).toEqual([]);
    expect((await readList(teacher)).body.data.tasks).toEqual([task('forged001')]);
    expect((await readList(student)).body.data.tasks).toEqual([task('forged002')]);
  });

  it('keeps each role to its own path', async () => {
    const teacher = await signUpTeacher(t);
    const student = await signUpStudent(t);
    expect((await writeList(teacher, 'student', { tasks: [], version: 0 })).status).toBe(403);
    expect((await writeList(student, 'teacher', { tasks: [], version: 0 })).status).toBe(403);
    expect((await t.call({ method: 'GET', url: '/api/tasks' })).status).toBe(401);
  });

  it('refuses a write from a stale tab with 409 instead of losing the other tab’s task', async () => {
    const teacher = await signUpTeacher(t);
    await writeList(teacher, 'teacher', { tasks: [task('first0001')], version: 0 });
    // Two tabs both saw version 1; the first saves, the second is refused and changes nothing.
    const [first, second] = await Promise.all([
      writeList(teacher, 'teacher', { tasks: [task('first0001'), task('tabone001')], version: 1 }),
      writeList(teacher, 'teacher', { tasks: [task('first0001'), task('tabtwo001')], version: 1 }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 409]);
    const refused = first.status === 409 ? first : second;
    expect(refused.body.errors).toEqual([{ field: 'version', code: 'CHANGED', message: refused.body.message }]);
    const list = (await readList(teacher)).body.data;
    expect(list.version).toBe(2);
    expect(list.tasks).toHaveLength(2);
  });

  it.each([
    ['tasks', { tasks: 'nope', version: 0 }],
    ['version', { tasks: [] }],
    ['version', { tasks: [], version: 2_147_483_648 }],
    ['version', { tasks: [], version: -1 }],
    ['tasks.0.id', { tasks: [task('short')], version: 0 }],
    ['tasks.0.text', { tasks: [task('abcdefghi', '   ')], version: 0 }],
    ['tasks.0.text', { tasks: [task('abcdefghi', 'x'.repeat(TASK_LIMITS.text + 1))], version: 0 }],
    ['tasks.0.isCompleted', { tasks: [{ id: 'abcdefghi', text: 'x', isCompleted: 'yes' }], version: 0 }],
    ['tasks', { tasks: [task('abcdefghi'), task('abcdefghi')], version: 0 }],
    [
      'tasks',
      {
        tasks: Array.from({ length: TASK_LIMITS.perList + 1 }, (_, index) => task(String(index).padStart(9, '0'))),
        version: 0,
      },
    ],
  ])('refuses a bad %s with 400 and changes nothing', async (field, payload) => {
    const student = await signUpStudent(t);
    const response = await writeList(student, 'student', payload);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((error: { field: string }) => error.field)).toContain(field);
    expect((await readList(student)).body.data).toEqual({ tasks: [], version: 0 });
  });
});
