import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNKNOWN_FIELD_MESSAGE } from '../field-error-messages.ts';
import { declaredRoutes, isApiPath } from '../plugins/route-policy.ts';
import { changedRows, readAllRows } from '../testing/database-snapshot.ts';
import { expectedStatus, routeExamples, routeKey, type RouteExample } from '../testing/route-examples.ts';
import { buildSchool, CALLER_NAMES, type School } from '../testing/school.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { patience } from '../testing/patience.ts';

/**
 * Issue 17, point 4: a body key the endpoint does not know is refused with 400 naming it and
 * changes nothing, on every route with a JSON body, so nothing a client sent is silently
 * dropped (a submission whose choices sat under another key was scored as empty, with 200).
 * Each route is called with its matrix example (testing/route-examples.ts), as a caller the
 * route accepts, plus one stray key; only the routes below may ignore what they do not read.
 */
const BODIES_THAT_IGNORE_EXTRA_KEYS: Record<string, string> = {
  'POST /api/teacher/login': 'a sign-in stores nothing; clients post the whole registration form to it',
  'POST /api/student/login': 'a sign-in stores nothing; clients post the whole registration form to it',
  'POST /api/teacher/get-teacher-by-id': 'the body is empty by contract (SPEC §7 sends teacherID); nothing is read',
  'POST /api/student/get-student-by-id': 'the body is empty by contract (SPEC §7 sends studentID); nothing is read',
  'POST /api/quiz/:id/start': 'the body is empty; the path names the quiz',
  'POST /api/teacher/logout-everywhere': 'the body is empty; the token names the account',
  'POST /api/student/logout-everywhere': 'the body is empty; the token names the account',
  'POST /api/meetings/:roomId/token': 'the body is empty; the path names the room',
  'POST /api/live-games/:id/token': 'the body is empty; the path names the game',
  'POST /api/class-boards/:classId/token': 'the body is empty; the path names the class',
};

const t: TestApp = await createTestApp();
await t.app.ready();
const jsonRoutes = declaredRoutes(t.app).filter(
  (route) => isApiPath(route.url) && ['POST', 'PUT', 'PATCH'].includes(route.method),
);
let school: School;
let examples: Record<string, RouteExample>;

beforeAll(async () => {
  school = await buildSchool(t);
  examples = routeExamples(t, school);
}, patience(120_000));
afterAll(async () => {
  await t.close();
});

const isJsonObject = (payload: unknown): payload is Record<string, unknown> =>
  typeof payload === 'object' && payload !== null && !Array.isArray(payload) && !Buffer.isBuffer(payload);

describe('a body key the endpoint does not know', () => {
  for (const route of jsonRoutes) {
    const key = routeKey(route);
    it(`${key}: ${BODIES_THAT_IGNORE_EXTRA_KEYS[key] ? 'is ignored (empty body)' : 'is refused with 400 naming it, and changes nothing'}`, async () => {
      const entry = examples[key]!;
      // A route every caller is refused (a second setup): its body is read, and refused, first.
      const caller =
        CALLER_NAMES.map((name) => school.callers[name]).find(
          (candidate) => expectedStatus(route.policy!, candidate, entry) < 400,
        ) ?? school.callers.anonymous;
      const prepared = (await entry.prepare?.()) ?? {};
      const options = await entry.request(caller, prepared);
      // Multipart uploads: the same rule, checked in resources.test.ts.
      if (options.payload !== undefined && !isJsonObject(options.payload)) return;
      const before = await readAllRows(t.database);
      const response = await t.call({
        ...options,
        method: route.method,
        payload: { ...options.payload, unexpectedField: 'lost?' },
      });
      if (BODIES_THAT_IGNORE_EXTRA_KEYS[key]) {
        expect(response.status, response.raw).toBeLessThan(400);
        if (entry.endsSessions) {
          school = await buildSchool(t, school);
          examples = routeExamples(t, school);
        }
        return;
      }
      expect(response.status, response.raw).toBe(400);
      expect(response.body.errors).toContainEqual({
        field: 'unexpectedField',
        code: 'UNKNOWN_FIELD',
        message: UNKNOWN_FIELD_MESSAGE,
      });
      expect(response.body.message).toMatch(/^unexpectedField: /);
      expect(changedRows(before, await readAllRows(t.database))).toEqual([]);
    });
  }
});
