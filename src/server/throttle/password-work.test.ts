import { afterEach, describe, expect, it } from 'vitest';
import { signUpStudent } from '../testing/actors.ts';
import { createTestApp, type TestApp } from '../testing/test-app.ts';
import { patience } from '../testing/patience.ts';
import { isInPasswordWorkTurn, passwordWorkAdmitted, passwordWorkWaiting } from './password-work.ts';

// Decision 040: password checks take turns (one core fewer than the machine has), and a sign-in
// arriving when too many already wait is refused with 429 before it costs a check or a point of
// any budget. Real HTTP: the burst arrives as a script's would, on sockets, all at once.

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const WAITING_LIMIT = 3;
const BURST = 40;

describe('password checks under a burst of sign-ins', () => {
  it(
    'refuses the sign-ins past the waiting checks with 429 password-work, answers health meanwhile, and lets a person in after',
    // The setup alone hashes a school's, a teacher's and a student's passwords: long on a busy machine.
    { timeout: patience(120_000) },
    async () => {
      // Every account lookup of a sign-in, and whether it ran in a password check's turn.
      const lookupsInTurn: boolean[] = [];
      t = await createTestApp({
        throttle: { limits: { passwordChecksWaiting: WAITING_LIMIT } },
        onQuery: (query) => {
          if (/from "students" where "students"\."roll_number_key"/.test(query))
            lookupsInTurn.push(isInPasswordWorkTurn());
        },
      });
      const baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const student = await signUpStudent(t);
      const signIn = (rollNumber: string, password: string) =>
        fetch(`${baseUrl}/api/student/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ rollNumber, password }),
        });

      // The queue's length, read on every turn of the event loop the burst takes: it never
      // passes the limit (the lookups before the checks used to let most of a burst into it).
      let mostWaiting = 0;
      let isBursting = true;
      const watchQueue = () => {
        mostWaiting = Math.max(mostWaiting, passwordWorkWaiting());
        if (isBursting) setImmediate(watchQueue);
      };
      watchQueue();
      let pending = BURST;
      const burst = Array.from({ length: BURST }, async (_, index) => {
        const response = await signIn(`nobody-${index}`, 'a wrong password');
        pending -= 1;
        return {
          status: response.status,
          retryAfter: response.headers.get('retry-after'),
          body: await response.json(),
        };
      });
      const health = await fetch(`${baseUrl}/api/health`);
      const signInsPendingWhenHealthAnswered = pending;
      const answers = await Promise.all(burst);
      isBursting = false;
      expect(mostWaiting).toBeGreaterThan(0);
      expect(mostWaiting).toBeLessThanOrEqual(WAITING_LIMIT);
      expect(passwordWorkAdmitted()).toBe(0); // every answered sign-in gave its place back
      // The lookups take the checks' turns too: a burst's lookups reached the database all at
      // once, ahead of health's ping and everyone's reads (issue 30 point 7, PGlite's one thread).
      expect(lookupsInTurn.length).toBeGreaterThan(0);
      expect(lookupsInTurn.every(Boolean)).toBe(true);

      expect(health.status).toBe(200);
      expect(signInsPendingWhenHealthAnswered).toBeGreaterThan(0);
      const refused = answers.filter((answer) => answer.status === 429);
      expect(answers.filter((answer) => answer.status !== 429).map((answer) => answer.status)).toEqual(
        expect.arrayContaining([401]),
      );
      expect(answers.every((answer) => answer.status === 401 || answer.status === 429)).toBe(true);
      expect(refused.length).toBeGreaterThan(0);
      for (const answer of refused) {
        expect(answer.retryAfter).toBe('1');
        expect(answer.body).toMatchObject({
          code: 'THROTTLED',
          limit: 'password-work',
          retryAfterSeconds: 1,
          message: 'Many people are signing in right now. Try again in 1 second.',
        });
      }

      const after = await signIn(student.registration.rollNumber, student.registration.password);
      expect(after.status).toBe(200);
    },
  );
});
