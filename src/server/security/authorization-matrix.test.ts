import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { CLOSE_CODES, PROTOCOL_VERSION } from '#shared/meetings';
import { declaredRoutes, isApiPath, type Reach, type RoutePolicy } from '../plugins/route-policy.ts';
import { toBuffer } from '../realtime/room-socket.ts';
import { foreignAnswerKeys } from '../testing/answer-keys.ts';
import { startChangeJournal, type ChangeJournal } from '../testing/change-journal.ts';
import { listStoredFiles, type RowChange } from '../testing/database-snapshot.ts';
import { expectedStatus, routeExamples, routeKey, type RouteExample } from '../testing/route-examples.ts';
import { authOf, buildSchool, CALLER_NAMES, foreignSecretsIn, type Caller, type School } from '../testing/school.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { patience } from '../testing/patience.ts';

/**
 * The authorization matrix (issue 9, ASVS V4.2.1; decision 020). Every /api route the app
 * registers is called by five callers: anonymous, a student of class A, a student of class
 * B, teacher 1 (who owns every object the requests point at) and teacher 2. The expected
 * status of each call is derived from the route's declared policy (expectedStatus in
 * testing/route-examples.ts, which also holds the request each route is called with);
 * each response is searched for what that caller must never receive; a refused call must
 * change nothing (every table and the uploads folder), and an accepted one only the
 * caller's own rows.
 */

// Built at load time: the tests are the app's own routes, not a list kept by hand.
const t: TestApp = await createTestApp();
await t.app.ready();
const apiRoutes = declaredRoutes(t.app).filter((route) => isApiPath(route.url));
let school: School;
let examples: Record<string, RouteExample>;
let journal: ChangeJournal;

beforeAll(async () => {
  journal = await startChangeJournal(t.database);
  school = await buildSchool(t);
  examples = routeExamples(t, school);
}, patience(120_000));
afterAll(async () => {
  await t.close();
});

/** The column that names a row's owner; a row of someone else must not change when a call is accepted. */
const OWNER_COLUMNS: Record<string, string> = {
  teachers: 'id',
  students: 'id',
  tasks: 'owner_id',
  notifications: 'recipient_id',
  quizzes: 'created_by_teacher_id',
  quiz_attempts: 'student_id',
  quiz_regrades: 'teacher_id',
  resources: 'uploaded_by_teacher_id',
  resource_stars: 'student_id',
  assignments: 'created_by_teacher_id',
  hand_ins: 'student_id',
  live_games: 'host_teacher_id',
  live_players: 'student_id',
  live_answers: 'student_id',
  class_board_updates: 'author_id',
};

/**
 * Rows of the school that a reach lets a caller change whoever made them (decision 030): the
 * administrator changes teachers, invitations and the school; a registration uses up an invitation;
 * a teacher changes students' accounts.
 */
const SCHOOL_ROWS_BY_REACH: Partial<Record<Reach, readonly string[]>> = {
  'school-staff': ['teachers', 'teacher_invitations', 'schools'],
  // The administrator gives a class no one teaches its owner.
  'untaught-classes': ['class_teachers'],
  invitation: ['teacher_invitations'],
  // A class's rows belong to the class, not to one account: its teachers change them, and
  // requireTaughtClass decides who they are (the refused calls above prove no one else can).
  'own-classes': ['classes', 'class_teachers', 'class_students'],
  // A teacher corrects the details of a student of their class and resets their password (decision 033).
  'class-roster': ['class_students', 'students'],
  // A quiz's accommodations belong to its class, given by any of its teachers; the quiz's close
  // and its students' open attempts' ends follow them (decision 036).
  // Marking an essay (decision 046) changes its mark, the attempt's score and the student's averages.
  'taught-quizzes': ['quiz_accommodations', 'quizzes', 'quiz_attempts', 'quiz_essay_marks', 'students'],
  // An assignment's classes and attachments are its own; deleting it takes its students' drafts (decision 058).
  'own-assignments': ['assignment_classes', 'assignment_attachments', 'hand_ins'],
  // Grading and returning change the student's hand-in (decision 058).
  'taught-assignments': ['hand_ins'],
  // A hand-in's files have no owner column: the student's own hand-in's, by the token (decision 061).
  'class-assignments': ['hand_in_files'],
  // A live game is its class's: any of its teachers hosts it and makes the leaderboard choice (decision 066).
  'taught-live-games': ['live_games'],
  // A board's pen is its class's: any of its teachers hands it (decision 069).
  'taught-class-boards': ['class_boards'],
};

/** Changes to rows that existed before and belong to someone other than the caller. */
function changesToOthersRows(changes: RowChange[], caller: Caller, policy: RoutePolicy): string[] {
  const schoolRows = new Set(policy.touches.flatMap((reach) => SCHOOL_ROWS_BY_REACH[reach] ?? []));
  return changes
    .filter((change) => change.kind !== 'added' && !schoolRows.has(change.table))
    .flatMap((change) => {
      const column = OWNER_COLUMNS[change.table];
      if (!column) return [`${change.table}: no owner rule in OWNER_COLUMNS (add one for the new table)`];
      const owner = change.before![column];
      return owner === caller.id ? [] : [`${change.kind} ${change.table} ${change.key} (owner ${String(owner)})`];
    });
}

const describeChange = (change: RowChange) => `${change.kind} ${change.table} ${change.key}`;

const isAccepted = (status: number) => status < 400;

describe('every registered /api route', () => {
  it('has a policy and a matrix entry, and every entry names a registered route', () => {
    const keys = new Set(apiRoutes.map(routeKey));
    expect(apiRoutes.filter((route) => !route.policy)).toEqual([]);
    expect([...keys].filter((key) => !examples[key])).toEqual([]);
    expect(Object.keys(examples).filter((key) => !keys.has(key))).toEqual([]);
  });

  for (const route of apiRoutes) {
    const key = routeKey(route);
    it(`${route.method} ${route.url}: each caller gets what the policy says, nothing foreign, no stray change`, async () => {
      const entry = examples[key];
      if (!entry || !route.policy) throw new Error(`${key}: no matrix entry or no policy`);
      const prepared = (await entry.prepare?.()) ?? {};
      // Refused calls first: the accepted ones (a delete, a submission) come last.
      const plan = CALLER_NAMES.map((name) => {
        const caller = school.callers[name];
        return { caller, expected: expectedStatus(route.policy!, caller, entry) };
      }).sort((a, b) => Number(isAccepted(a.expected)) - Number(isAccepted(b.expected)));

      for (const { caller, expected } of plan) {
        const label = `${route.method} ${route.url} as ${caller.name}`;
        const options = await entry.request(caller, prepared);
        await journal.mark();
        const filesBefore = await listStoredFiles(t.uploadsFolder);
        const response = await t.call({ ...options, method: route.method });
        const changes = await journal.changesSinceMark();

        expect(response.status, `${label}: ${response.raw.slice(0, 300)}`).toBe(expected);
        expect(
          foreignSecretsIn(school, caller.name, response.raw).map((secret) => secret.what),
          `${label} received`,
        ).toEqual([]);
        expect(await foreignAnswerKeys(t.database, caller, response.body), `${label}: answer keys`).toEqual([]);
        if (isAccepted(expected)) {
          expect(changesToOthersRows(changes, caller, route.policy), `${label} changed others' rows`).toEqual([]);
          if (route.method !== 'HEAD') await entry.check?.(caller, response.body, prepared);
        } else {
          expect(changes.map(describeChange), `${label} was refused but changed`).toEqual([]);
          expect(await listStoredFiles(t.uploadsFolder), `${label} was refused but stored a file`).toEqual(filesBefore);
          if (route.method !== 'HEAD') {
            expect(response.body, `${label}: the envelope`).toMatchObject({ success: false, data: null });
            expect(response.body.message, label).toEqual(expect.any(String));
          }
        }
      }
      if (entry.endsSessions) {
        school = await buildSchool(t, school);
        examples = routeExamples(t, school);
      }
    });
  }
});

describe('the meeting socket (GET /api/meetings/ws, upgraded)', () => {
  /** Connects, sends a join for `roomId` and resolves with the first message or the close code. */
  async function joinOutcome(query: string, roomId: string): Promise<string> {
    let resolveOutcome: (outcome: string) => void;
    const outcome = new Promise<string>((resolve) => (resolveOutcome = resolve));
    const socket: WebSocket = await t.app.injectWS(
      `/api/meetings/ws${query}`,
      {},
      {
        onInit: (client) => {
          client.on('message', (data) => resolveOutcome(`message ${JSON.parse(toBuffer(data).toString('utf8')).type}`));
          client.on('close', (code) => resolveOutcome(`close ${code}`));
        },
      },
    );
    socket.send(
      JSON.stringify({
        type: 'join',
        protocolVersion: PROTOCOL_VERSION,
        roomId,
        media: { mic: false, camera: false, screen: false },
      }),
    );
    const result = await outcome;
    socket.terminate();
    return result;
  }

  it('opens a room to a meeting token of that room only: no token, a session token or another room’s token is refused', async () => {
    const refused = `close ${CLOSE_CODES.FORBIDDEN}`;
    const room = school.meetingRoom;
    const otherRoom = await t.call({
      method: 'POST',
      url: '/api/meetings',
      headers: authOf(school.callers.teacher1),
      payload: { classId: school.classAId },
    });
    expect(otherRoom.status, otherRoom.raw).toBe(201);
    expect(await joinOutcome('', room)).toBe(refused);
    // Class A's people (decision 035): its teacher, its co-teacher, its student.
    for (const name of ['studentA', 'teacher1', 'coTeacher'] as const) {
      const caller = school.callers[name];
      expect(await joinOutcome(`?token=${caller.token}`, room), `${name}: session token`).toBe(refused);
      const ticket = await t.call({ method: 'POST', url: `/api/meetings/${room}/token`, headers: authOf(caller) });
      const meetingToken = encodeURIComponent(ticket.body.data.token as string);
      expect(await joinOutcome(`?token=${meetingToken}`, otherRoom.body.data.roomId), `${name}: another room`).toBe(
        refused,
      );
      expect(await joinOutcome(`?token=${meetingToken}`, room), `${name}: own room`).toBe('message welcome');
    }
  });
});
