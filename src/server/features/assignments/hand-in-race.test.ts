import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { handIns } from '../../db/schema.ts';
import { raceClass } from '../../testing/race-class.ts';
import { patience } from '../../testing/patience.ts';

/**
 * Hand-ins racing each other over real HTTP (issue 33's races, decision 058): two tabs saving
 * one draft on the same version, a take-back against a grade, a hand-in against a grade, a
 * hand-in at the due second against the teacher's grading. On PostgreSQL the requests run on
 * separate connections at once (PGlite runs one statement at a time, so there it proves the
 * rules, not the race). Each round: exactly the allowed outcomes, no 500, and the row agrees
 * with whichever request was acknowledged.
 */

const ROUNDS = Number(process.env.RACE_ROUNDS ?? (process.env.TEST_DATABASE_URL ? 40 : 10));
const SLOW_TEST = { timeout: patience(480_000) };

const { state, request, newAssignment } = raceClass();

const rowOf = async (assignmentId: string) =>
  (
    await state.t.database.db
      .select()
      .from(handIns)
      .where(and(eq(handIns.assignmentId, assignmentId), eq(handIns.studentId, state.pupil.profile._id)))
  )[0];

/** Waits until the clock reads `at` (ms); at once when it is past. */
const sleepUntil = (at: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));

/** Where a round's hand-in is sent, from the due time (ms): before it, on it and after it (a request takes some). */
const DUE_OFFSETS = [-90, -50, -25, -10, 0, 15, 40];
/** How long after the hand-in the teacher's grade is sent (ms), so either may reach the row first. */
const GRADE_DELAYS = [0, 5, 10, 20, 40];

const handInUrl = (id: string) => `/api/student/assignments/${id}`;
const gradeUrl = (id: string) => `/api/assignments/${id}/hand-ins/${state.pupil.profile._id}/grade`;

describe('hand-ins racing', SLOW_TEST, () => {
  it(`two tabs saving one draft on the same version: one saved, one 409, in ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await newAssignment();
      // The first save races too: both insert at version 0.
      for (const version of [0, 1]) {
        const texts = [`tab A ${round}`, `tab B ${round}`];
        const answers = await Promise.all(
          texts.map((text) => request('PUT', `${handInUrl(id)}/draft`, state.pupil, { text, version })),
        );
        const statuses = answers.map((answer) => answer.status).sort();
        expect(statuses, JSON.stringify(answers.map((answer) => answer.body))).toEqual([200, 409]);
        const loser = answers.find((answer) => answer.status === 409)!;
        expect(loser.body.code).toBe('HAND_IN_CHANGED');
        const winner = answers.findIndex((answer) => answer.status === 200);
        const row = await rowOf(id);
        expect(row).toMatchObject({ state: 'draft', text: texts[winner], version: version + 1 });
      }
    }
  });

  it(`taking back while the teacher grades: exactly one wins, in ${ROUNDS} rounds`, async () => {
    const outcomes = { graded: 0, takenBack: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      const id = await newAssignment();
      const handedIn = await request('POST', `${handInUrl(id)}/hand-in`, state.pupil, { text: 'Work', version: 0 });
      expect(handedIn.status).toBe(200);
      const [takeBack, grade] = await Promise.all([
        request('POST', `${handInUrl(id)}/take-back`, state.pupil, { version: 1 }),
        request('PUT', gradeUrl(id), state.teacher, { points: 6, feedback: 'Fine', version: 1 }),
      ]);
      expect([takeBack.status, grade.status].sort(), JSON.stringify([takeBack.body, grade.body])).toEqual([200, 409]);
      const row = await rowOf(id);
      if (grade.status === 200) {
        outcomes.graded += 1;
        expect(takeBack.body.code).toBe('HAND_IN_LOCKED');
        expect(row).toMatchObject({ state: 'graded', points: 6, version: 2 });
        expect(row?.submittedAt).not.toBeNull();
      } else {
        outcomes.takenBack += 1;
        expect(['HAND_IN_LOCKED', 'HAND_IN_CHANGED']).toContain(grade.body.code);
        expect(row).toMatchObject({ state: 'draft', points: null, submittedAt: null, version: 2 });
      }
    }
    expect(outcomes.graded + outcomes.takenBack).toBe(ROUNDS);
  });

  it(`handing in while the teacher grades what they saw: never a grade on work not handed in, in ${ROUNDS} rounds`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const id = await newAssignment();
      // Handed in, taken back (version 2, a draft): the teacher still has version 1 open.
      await request('POST', `${handInUrl(id)}/hand-in`, state.pupil, { text: 'First', version: 0 });
      await request('POST', `${handInUrl(id)}/take-back`, state.pupil, { version: 1 });
      const [handIn, grade] = await Promise.all([
        request('POST', `${handInUrl(id)}/hand-in`, state.pupil, { text: 'Second', version: 2 }),
        request('PUT', gradeUrl(id), state.teacher, { points: 4, feedback: 'Read the first', version: 1 }),
      ]);
      expect(handIn.status, JSON.stringify(handIn.body)).toBe(200);
      expect(grade.status, JSON.stringify(grade.body)).toBe(409);
      expect(['HAND_IN_LOCKED', 'HAND_IN_CHANGED']).toContain(grade.body.code);
      expect(await rowOf(id)).toMatchObject({ state: 'handed-in', text: 'Second', points: null, version: 3 });
    }
  });

  for (const acceptLate of [true, false]) {
    it(`a hand-in at the due second (late work ${acceptLate ? 'accepted' : 'refused'}) while the teacher grades it, in ${ROUNDS} rounds`, async () => {
      const outcomes = { onTime: 0, late: 0, closed: 0 };
      for (let round = 0; round < ROUNDS; round++) {
        const dueAt = new Date(Date.now() + 150);
        const due = dueAt.getTime();
        const id = await newAssignment({ dueAt, acceptLate });
        // Every other round starts from a saved draft: the two writers then take its row lock in turn.
        const isFromDraft = round % 2 === 1;
        if (isFromDraft) {
          const saved = await request('PUT', `${handInUrl(id)}/draft`, state.pupil, { text: 'Draft', version: 0 });
          expect(saved.status).toBe(200);
        }
        const version = isFromDraft ? 1 : 0;
        const text = `Work ${round}`;
        await sleepUntil(due + DUE_OFFSETS[round % DUE_OFFSETS.length]!);
        const sentAt = Date.now();
        const [handIn, grade] = await Promise.all([
          request('POST', `${handInUrl(id)}/hand-in`, state.pupil, { text, version }),
          // The teacher grades the version the hand-in makes, as if it were already in.
          sleepUntil(sentAt + GRADE_DELAYS[round % GRADE_DELAYS.length]!).then(() =>
            request('PUT', gradeUrl(id), state.teacher, { points: 7, feedback: 'Seen', version: version + 1 }),
          ),
        ]);
        const answeredAt = Date.now();
        const seen = JSON.stringify({ round, due: dueAt, sentAt, answeredAt, handIn: handIn.body, grade: grade.body });
        const row = await rowOf(id);
        // No 500: each is acknowledged or refused with its code.
        expect(
          [handIn.status, grade.status].every((status) => status === 200 || status === 409),
          seen,
        ).toBe(true);
        if (handIn.status === 200) {
          const acknowledged = handIn.body.data.handIn as { version: number; submittedAt: string; late: boolean };
          const late = acknowledged.late;
          // Late by the server's clock at the hand-in (the test app's clock is this one): never
          // before the request left, never after its answer came.
          expect(late, seen).toBe(Date.parse(acknowledged.submittedAt) >= due);
          if (sentAt >= due) expect(late, seen).toBe(true);
          if (answeredAt < due) expect(late, seen).toBe(false);
          if (!acceptLate) expect(late, `late work refused, yet taken late: ${seen}`).toBe(false);
          outcomes[late ? 'late' : 'onTime'] += 1;
          expect(row?.submittedAt?.toISOString(), seen).toBe(acknowledged.submittedAt);
          if (grade.status === 200) {
            expect(grade.body.data, seen).toMatchObject({ state: 'graded', late, points: 7 });
            expect(row, seen).toMatchObject({
              state: 'graded',
              text,
              points: 7,
              late,
              version: acknowledged.version + 1,
            });
          } else {
            // Graded before the work was in: refused, as grading work never handed in is (CHANGED
            // when the refusal's read already sees the hand-in: the teacher reloads either way).
            expect(['HAND_IN_LOCKED', 'HAND_IN_CHANGED'], seen).toContain(grade.body.code);
            expect(row, seen).toMatchObject({
              state: 'handed-in',
              text,
              points: null,
              late,
              version: acknowledged.version,
            });
          }
        } else {
          // Refused only past the due time, with late work refused; nothing changed, nothing to grade.
          expect(acceptLate, seen).toBe(false);
          expect(handIn.body.code, seen).toBe('ASSIGNMENT_CLOSED');
          expect(answeredAt, seen).toBeGreaterThanOrEqual(due);
          expect(grade.status, seen).toBe(409);
          expect(grade.body.code, seen).toBe('HAND_IN_LOCKED');
          outcomes.closed += 1;
          if (isFromDraft)
            expect(row, seen).toMatchObject({
              state: 'draft',
              text: 'Draft',
              version: 1,
              submittedAt: null,
              late: false,
            });
          else expect(row, seen).toBeUndefined();
        }
      }
      expect(outcomes.onTime + outcomes.late + outcomes.closed).toBe(ROUNDS);
    });
  }
});
