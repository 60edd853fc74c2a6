import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { handInFiles, handIns } from '../../db/schema.ts';
import { multipartBody, SAMPLE_FILES } from '../../testing/multipart.ts';
import { patience } from '../../testing/patience.ts';
import { raceClass } from '../../testing/race-class.ts';

/**
 * Uploads racing the hand-in's other writes over real HTTP (decision 061): a file uploaded
 * while its tab's twin takes the work back or hands it in. On PostgreSQL the requests run on
 * separate connections at once (TEST_DATABASE_URL). Each round: no 500, every acknowledged
 * file is in the hand-in, and the storage holds exactly the files the database names (a
 * refused upload leaves no bytes behind).
 */

const ROUNDS = Number(process.env.RACE_ROUNDS ?? (process.env.TEST_DATABASE_URL ? 30 : 8));

const { state, request: requestAs, newAssignment } = raceClass();
const request = (method: string, url: string, body?: unknown) => requestAs(method, url, state.pupil, body);

async function upload(id: string) {
  const form = multipartBody({}, [{ name: 'photo.png', content: SAMPLE_FILES.png(), contentType: 'image/png' }]);
  const response = await fetch(`${state.baseUrl}/api/student/assignments/${id}/files`, {
    method: 'POST',
    headers: { ...form.headers, authorization: `Bearer ${state.pupil.token}` },
    body: form.payload,
  });
  return { status: response.status, body: (await response.json()) as { data: any; code?: string } };
}

async function storedKeys(): Promise<string[]> {
  const folder = state.t.uploadsFolder!;
  const partial = await readdir(path.join(folder, '.partial'));
  expect(partial).toEqual([]);
  return (await readdir(folder)).filter((name) => name !== '.partial').sort();
}
const recordedKeys = async () =>
  (await state.t.database.db.select({ key: handInFiles.storageKey }).from(handInFiles)).map((row) => row.key).sort();

describe('uploads racing', { timeout: patience(480_000) }, () => {
  it(`an upload against a take-back and against a hand-in, in ${ROUNDS} rounds each: nothing half, nothing orphaned`, async () => {
    const outcomes = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const id = await newAssignment();
      const handedIn = await request('POST', `/api/student/assignments/${id}/hand-in`, { text: 'v1', version: 0 });
      expect(handedIn.status).toBe(200);
      // Take-back against an upload: the upload lands only if the take-back came first.
      const [takeBack, uploaded] = await Promise.all([
        request('POST', `/api/student/assignments/${id}/take-back`, { version: 1 }),
        upload(id),
      ]);
      expect(takeBack.status).toBe(200);
      expect([201, 409]).toContain(uploaded.status);
      if (uploaded.status === 409) expect(uploaded.body.code).toBe('HAND_IN_LOCKED');
      const key = `take-back ${uploaded.status}`;
      outcomes.set(key, (outcomes.get(key) ?? 0) + 1);

      // Hand-in against an upload, on the version the page read: one order or the other, never half.
      const [row] = await state.t.database.db.select().from(handIns).where(eq(handIns.assignmentId, id));
      const [handIn, second] = await Promise.all([
        request('POST', `/api/student/assignments/${id}/hand-in`, { text: 'v2', version: row!.version }),
        upload(id),
      ]);
      expect([200, 409]).toContain(handIn.status);
      expect([201, 409]).toContain(second.status);
      // Both refused cannot be; both accepted would mean a file slipped in after the hand-in was read.
      expect(handIn.status === 200 && second.status === 201).toBe(false);
      expect(handIn.status === 409 && second.status === 409).toBe(false);
      const race = `hand-in ${handIn.status}/${second.status}`;
      outcomes.set(race, (outcomes.get(race) ?? 0) + 1);
      const files = await state.t.database.db
        .select({ id: handInFiles.id })
        .from(handInFiles)
        .innerJoin(handIns, eq(handIns.id, handInFiles.handInId))
        .where(eq(handIns.assignmentId, id));
      expect(files).toHaveLength((uploaded.status === 201 ? 1 : 0) + (second.status === 201 ? 1 : 0));
    }
    // Every stored byte is a recorded file and the other way round.
    expect(await storedKeys()).toEqual(await recordedKeys());
    console.info('upload races:', Object.fromEntries(outcomes));
  });
});
