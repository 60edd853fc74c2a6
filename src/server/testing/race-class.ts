import { afterAll, beforeAll, expect } from 'vitest';
import { classTaughtBy, signUpStudent, signUpTeacher } from './actors.ts';
import { createTestApp, type TestApp } from './test-app.ts';

export type RaceActor = { token: string; profile: { _id: string } };
export type RaceAnswer = { status: number; body: { data: any; code?: string } };

/**
 * A class over real HTTP for the race tests (decision 058): a test app listening on a port, its
 * teacher and one student, set up before the file's tests and closed after them. On PostgreSQL
 * (TEST_DATABASE_URL) each request runs on its own connection, so requests really race.
 */
export function raceClass() {
  const state = {} as { t: TestApp; baseUrl: string; teacher: RaceActor; pupil: RaceActor; classId: string };
  beforeAll(async () => {
    state.t = await createTestApp();
    state.baseUrl = await state.t.app.listen({ port: 0, host: '127.0.0.1' });
    state.teacher = await signUpTeacher(state.t);
    const made = await classTaughtBy(state.t, state.teacher);
    state.classId = made.id;
    state.pupil = await signUpStudent(state.t, { classCode: made.joinCode });
  });
  afterAll(async () => {
    await state.t.close();
  });

  /** A JSON request as `actor`, answered with its status and envelope. */
  async function request(method: string, url: string, actor: RaceActor, body?: unknown): Promise<RaceAnswer> {
    const response = await fetch(`${state.baseUrl}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${actor.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as RaceAnswer['body'] };
  }

  /** An assignment of the class, due in an hour unless `rules` say otherwise: its id. */
  async function newAssignment(rules: { dueAt?: Date; acceptLate?: boolean } = {}): Promise<string> {
    const created = await request('POST', '/api/assignments', state.teacher, {
      classIds: [state.classId],
      title: 'Race homework',
      points: 10,
      dueAt: (rules.dueAt ?? new Date(Date.now() + 3_600_000)).toISOString(),
      ...(rules.acceptLate === undefined ? {} : { acceptLate: rules.acceptLate }),
    });
    expect(created.status).toBe(201);
    return created.body.data._id as string;
  }

  return { state, request, newAssignment };
}
