import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classCodeNamed, createClassFor, inviteTeacher, signUpStudent, signUpTeacher } from '../testing/actors.ts';
import { buildStudentRegistration, buildTeacherRegistration } from '../testing/factories.ts';
import { bearer, createTestApp, type TestApp } from '../testing/test-app.ts';
import { deleteNamespaces, freshNamespace, TEST_REDIS_URL } from '../realtime/test-buses.ts';
import { createRedisThrottleStore } from './redis-throttle-store.ts';
import { createMemoryThrottleStore } from './throttle-store.ts';

/**
 * Sign-in and registration throttling through the real API (decision 016). A fake clock
 * stands in for the minutes a lock-out lasts; everything else is the app as it runs.
 */

type Call = Parameters<TestApp['call']>[0];
const studentLogin = (rollNumber: string, password: string, extra: Partial<Call> = {}): Call => ({
  method: 'POST',
  url: '/api/student/login',
  payload: { rollNumber, password },
  ...extra,
});
const teacherLogin = (email: string, password: string, extra: Partial<Call> = {}): Call => ({
  method: 'POST',
  url: '/api/teacher/login',
  payload: { email, password },
  ...extra,
});
const WRONG = 'not-the-password';

/** Budgets refill with time: a clock that stands still makes every wait exact. */
const frozenClockStore = () => {
  const now = Date.now();
  return createMemoryThrottleStore({ now: () => now });
};

/** A fresh network address per test, so tests never share a budget. */
let networkCounter = 0;
const freshNetwork = () => `198.51.100.${++networkCounter}`;

describe('sign-in: per account (default limits, fake clock)', () => {
  let t: TestApp;
  let now = Date.now();
  const advance = (seconds: number) => (now += seconds * 1000);
  beforeAll(async () => {
    t = await createTestApp({ throttle: { store: createMemoryThrottleStore({ now: () => now }) } });
  });
  afterAll(() => t.close());

  it('locks an account after 5 failed sign-ins: 429, Retry-After and words a person understands; the right password works after the wait', async () => {
    const { registration } = await signUpStudent(t);
    const { rollNumber, password } = registration;
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await t.call(studentLogin(rollNumber, WRONG))).status, `failure ${attempt}`).toBe(401);
    }
    const locked = await t.call(studentLogin(rollNumber, password));
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBe('60');
    expect(locked.body).toEqual({
      success: false,
      code: 'THROTTLED',
      message:
        'Too many sign-in attempts for this account. Try again in 1 minute, or on a device you have signed in on before.',
      data: null,
      // Which budget refused and its wait, for clients to word (decision 026's addendum).
      limit: 'sign-in-account',
      retryAfterSeconds: 60,
    });

    advance(59);
    expect((await t.call(studentLogin(rollNumber, password))).status).toBe(429);
    advance(1);
    const signedIn = await t.call(studentLogin(rollNumber, password));
    expect(signedIn.status).toBe(200);
    expect(typeof signedIn.body.data).toBe('string');

    // The success cleared the failures: four more are four free ones again.
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await t.call(studentLogin(rollNumber, WRONG))).status).toBe(401);
    }
    expect((await t.call(studentLogin(rollNumber, password))).status).toBe(200);
  });

  it('locks for longer after each further failure, and never for more than 15 minutes', async () => {
    const { registration } = await signUpTeacher(t);
    const { email, password } = registration;
    for (let attempt = 1; attempt <= 5; attempt++) await t.call(teacherLogin(email, WRONG));
    let lockSeconds = 60;
    for (const nextLockSeconds of [120, 240, 480, 900, 900, 900]) {
      advance(lockSeconds);
      expect((await t.call(teacherLogin(email, WRONG))).status).toBe(401);
      const refused = await t.call(teacherLogin(email, password));
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe(String(nextLockSeconds));
      expect(refused.body).toMatchObject({ limit: 'sign-in-account', retryAfterSeconds: nextLockSeconds });
      expect(refused.body.message).toBe(
        `Too many sign-in attempts for this account. Try again in ${nextLockSeconds / 60} minutes, or on a device you have signed in on before.`,
      );
      lockSeconds = nextLockSeconds;
    }
    advance(900);
    expect((await t.call(teacherLogin(email, password))).status).toBe(200);
  });

  it('treats an account that does not exist the same (a lock-out tells no one who has an account), in any letter case', async () => {
    const rollNumber = `Nobody-${Date.now()}`;
    for (let attempt = 1; attempt <= 5; attempt++) {
      const name = attempt % 2 ? rollNumber.toUpperCase() : rollNumber.toLowerCase();
      expect((await t.call(studentLogin(name, WRONG))).status).toBe(401);
    }
    const refused = await t.call(studentLogin(rollNumber, WRONG));
    expect(refused.status).toBe(429);
    expect(refused.body.limit).toBe('sign-in-account');
    expect(refused.body.message).toBe(
      'Too many sign-in attempts for this account. Try again in 1 minute, or on a device you have signed in on before.',
    );
    // A teacher's sign-in name that reads the same is another account.
    expect((await t.call(teacherLogin(rollNumber, WRONG))).status).toBe(401);
  });

  it('counts every spelling of an account against that account (decision 024)', async () => {
    const tag = Date.now().toString(36);
    const { registration } = await signUpStudent(t, { rollNumber: `Straße-${tag}` });
    const spellings = [
      `STRASSE-${tag}`,
      `strasse-${tag}`,
      `Straße-${tag}`.normalize('NFD'),
      `STRAẞE-${tag}`,
      ` straße-${tag}`,
    ];
    for (const spelling of spellings) expect((await t.call(studentLogin(spelling, WRONG))).status).toBe(401);
    expect((await t.call(studentLogin(registration.rollNumber, registration.password))).status).toBe(429);

    const teacher = await signUpTeacher(t, { email: `İpek.${tag}@bücher.example` });
    const emails = [`IPEK.${tag}@BÜCHER.EXAMPLE`, `ipek.${tag}@xn--bcher-kva.example`, `i̇pek.${tag}@bücher.example`];
    for (const email of [...emails, ...emails.slice(0, 2)])
      expect((await t.call(teacherLogin(email, WRONG))).status).toBe(401);
    expect((await t.call(teacherLogin(teacher.registration.email, teacher.registration.password))).status).toBe(429);
  });

  it('lets only the first 5 of a burst of guesses sent at once reach the password check', async () => {
    const { registration } = await signUpStudent(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, index) => t.call(studentLogin(registration.rollNumber, `guess-${index}-x`))),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(5);
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
  });

  it('counts a wrong current password in a password change like a failed sign-in: a stolen session cannot guess the password', async () => {
    const { registration, token } = await signUpStudent(t);
    const changePassword = (currentPassword: string): Call => ({
      method: 'POST',
      url: '/api/student/change-password',
      headers: bearer(token),
      payload: { currentPassword, newPassword: 'a brand new password' },
    });
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await t.call(changePassword(`${WRONG}-${attempt}`))).status, `failure ${attempt}`).toBe(400);
    }
    const locked = await t.call(changePassword(registration.password));
    expect(locked.status).toBe(429);
    expect(locked.headers['retry-after']).toBe('60');
    expect(locked.body).toMatchObject({ limit: 'password-checks', retryAfterSeconds: 60 });
    expect(locked.body.message).toBe('Too many wrong passwords for this account. Try again in 1 minute.');
    // The password is unchanged: the lock-out came before the check.
    expect((await t.call(studentLogin(registration.rollNumber, registration.password))).status).toBe(200);

    advance(60);
    expect((await t.call(changePassword(registration.password))).status).toBe(200);
  });
});

describe('sign-in: per network', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ throttle: { store: frozenClockStore(), limits: { signInPerNetwork: 30 } } });
  });
  afterAll(() => t.close());

  it('refuses a network over its budget, a failed sign-in counting as five good ones; other networks go on', async () => {
    const network = freshNetwork();
    // Six failures on six accounts (no account is locked): 6 x 5 = 30 points.
    for (let attempt = 1; attempt <= 6; attempt++) {
      const response = await t.call(studentLogin(`guess-${attempt}-${network}`, WRONG, { remoteAddress: network }));
      expect(response.status).toBe(401);
    }
    const { registration } = await signUpStudent(t);
    const refused = await t.call(
      studentLogin(registration.rollNumber, registration.password, { remoteAddress: network }),
    );
    expect(refused.status).toBe(429);
    // 5 points back at 30 an hour: 10 minutes.
    expect(refused.headers['retry-after']).toBe('600');
    expect(refused.body).toMatchObject({ limit: 'sign-in-network', retryAfterSeconds: 600 });
    expect(refused.body.message).toBe(
      'Too many sign-in attempts from your network. Try again in 10 minutes, or on a device you have signed in on before.',
    );

    const elsewhere = await t.call(
      studentLogin(registration.rollNumber, registration.password, { remoteAddress: freshNetwork() }),
    );
    expect(elsewhere.status).toBe(200);
  });

  it('lets a network sign in 26 people on a budget of 30 (a success costs one point)', async () => {
    const network = freshNetwork();
    const { registration } = await signUpTeacher(t);
    for (let person = 1; person <= 26; person++) {
      const response = await t.call(
        teacherLogin(registration.email, registration.password, { remoteAddress: network }),
      );
      expect(response.status, `sign-in ${person}`).toBe(200);
    }
    expect(
      (await t.call(teacherLogin(registration.email, registration.password, { remoteAddress: network }))).status,
    ).toBe(429);
  });
});

describe('TRUST_PROXY: whose X-Forwarded-For names the client', () => {
  const BALANCER = '10.0.0.2';
  const through = (forwardedFor: string, from = BALANCER): Partial<Call> => ({
    remoteAddress: from,
    headers: { 'x-forwarded-for': forwardedFor },
  });
  /** Two failures spend a budget of 10; the third is refused. */
  let someone = 0;
  async function spend(t: TestApp, extra: Partial<Call>) {
    for (let attempt = 1; attempt <= 2; attempt++) {
      const response = await t.call(studentLogin(`someone-${++someone}`, WRONG, extra));
      expect(response.status).toBe(401);
    }
    return (await t.call(studentLogin(`someone-${++someone}`, WRONG, extra))).status;
  }

  it('believes the header only from the trusted proxy, and only its last entry', async () => {
    const t = await createTestApp({ trustProxy: [BALANCER], throttle: { limits: { signInPerNetwork: 10 } } });
    try {
      expect(await spend(t, through('203.0.113.5'))).toBe(429);
      // Another client behind the balancer has its own budget...
      expect(await spend(t, through('203.0.113.6'))).toBe(429);
      // ...and a client cannot get a fresh one by writing its own X-Forwarded-For in front.
      expect((await t.call(studentLogin('x', WRONG, through('192.0.2.77, 203.0.113.5')))).status).toBe(429);
      // Not the proxy: the header is ignored, the connecting address counts.
      const direct = freshNetwork();
      expect(await spend(t, through('203.0.113.9', direct))).toBe(429);
      expect((await t.call(studentLogin('x', WRONG, through('203.0.113.10', direct)))).status).toBe(429);
    } finally {
      await t.close();
    }
  });

  it('can trust a number of proxies in front instead of their addresses', async () => {
    const t = await createTestApp({ trustProxy: 1, throttle: { limits: { signInPerNetwork: 10 } } });
    try {
      expect(await spend(t, through('192.0.2.1, 203.0.113.5'))).toBe(429);
      expect((await t.call(studentLogin('x', WRONG, through('203.0.113.6')))).status).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('trusts nobody by default: every X-Forwarded-For counts as the connecting address', async () => {
    const t = await createTestApp({ throttle: { limits: { signInPerNetwork: 10 } } });
    try {
      const direct = freshNetwork();
      await spend(t, through('203.0.113.5', direct));
      expect((await t.call(studentLogin('x', WRONG, through('203.0.113.6', direct)))).status).toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('registration and adding students to a class', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      throttle: { store: frozenClockStore(), limits: { registrationsPerNetwork: 12, studentsAddedPerTeacher: 2 } },
    });
  });
  afterAll(() => t.close());

  it('refuses a network over its registration budget (teachers and students together); a refused one counts five', async () => {
    const network = freshNetwork();
    const register = (role: 'teacher' | 'student', payload: object) =>
      t.call({ method: 'POST', url: `/api/${role}/register`, payload, remoteAddress: network });
    const taken = buildStudentRegistration({ classCode: await classCodeNamed(t, '10A') });
    expect((await register('student', taken)).status).toBe(201); // 11 points left
    expect((await register('teacher', buildTeacherRegistration(await inviteTeacher(t)))).status).toBe(201); // 10
    expect((await register('student', taken)).status).toBe(409); // a taken name: 5
    // A wrong class code is a refusal too (decision 031): codes cannot be guessed by trying.
    const guessed = await register('student', buildStudentRegistration({ classCode: 'ZZZZ-ZZZZ' }));
    expect([guessed.status, guessed.body.code]).toEqual([400, 'CLASS_CODE_INVALID']); // 0
    const refused = await register('teacher', buildTeacherRegistration(await inviteTeacher(t)));
    expect(refused.status).toBe(429);
    // 5 points back at 12 an hour: 25 minutes.
    expect(refused.headers['retry-after']).toBe('1500');
    expect(refused.body).toEqual({
      success: false,
      code: 'THROTTLED',
      message: 'Too many accounts have been created from your network. Try again in 25 minutes.',
      data: null,
      limit: 'registration-network',
      retryAfterSeconds: 1500,
    });
    // Malformed requests are refused before the throttle (400) and cost nothing.
    expect((await register('student', { name: 'x' })).status).toBe(400);
  });

  it('stops a script retrying one account name: 5 refusals, then a lock-out for that name only', async () => {
    const roomy = await createTestApp({ throttle: { store: frozenClockStore() } });
    try {
      const register = (payload: object) => roomy.call({ method: 'POST', url: '/api/student/register', payload });
      const classCode = await classCodeNamed(roomy, '10A');
      const taken = buildStudentRegistration({ classCode });
      expect((await register(taken)).status).toBe(201);
      for (let attempt = 1; attempt <= 5; attempt++) {
        expect((await register({ ...taken, email: `again${attempt}@school.test` })).status, `try ${attempt}`).toBe(409);
      }
      const refused = await register({ ...taken, email: 'again6@school.test' });
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toBe('60');
      expect(refused.body).toMatchObject({ limit: 'registration-account', retryAfterSeconds: 60 });
      expect(refused.body.message).toBe('Too many attempts to create this account. Try again in 1 minute.');
      // Another name from the same network is not held up.
      expect((await register(buildStudentRegistration({ classCode }))).status).toBe(201);
    } finally {
      await roomy.close();
    }
  });

  it('lets one teacher add a bounded number of students an hour, apart from other teachers and the network budget', async () => {
    const network = freshNetwork();
    const [teacher, colleague] = [await signUpTeacher(t), await signUpTeacher(t)];
    const classOf = new Map([
      [teacher.token, await createClassFor(t, teacher.token)],
      [colleague.token, await createClassFor(t, colleague.token)],
    ]);
    const add = (token: string) => {
      const { classCode: _none, ...account } = buildStudentRegistration();
      return t.call({
        method: 'POST',
        url: `/api/classes/${classOf.get(token)!.id}/students`,
        headers: bearer(token),
        payload: account,
        remoteAddress: network,
      });
    };
    expect((await add(teacher.token)).status).toBe(201);
    expect((await add(teacher.token)).status).toBe(201);
    const refused = await add(teacher.token);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1800');
    expect(refused.body).toMatchObject({ limit: 'students-added', retryAfterSeconds: 1800 });
    expect(refused.body.message).toBe('You have added many students in a short time. Try again in 30 minutes.');
    expect((await add(colleague.token)).status).toBe(201);
    const selfRegistration = await t.call({
      method: 'POST',
      url: '/api/student/register',
      payload: buildStudentRegistration({ classCode: classOf.get(teacher.token)!.joinCode }),
      remoteAddress: network,
    });
    expect(selfRegistration.status).toBe(201);
  });
});

describe.skipIf(!TEST_REDIS_URL)('two instances on one Redis', () => {
  const namespace = freshNamespace();
  let first: TestApp;
  let second: TestApp;
  const startInstance = async () =>
    createTestApp({
      throttle: {
        store: await createRedisThrottleStore({ url: TEST_REDIS_URL!, namespace }),
        limits: { signInPerNetwork: 10 },
      },
    });
  beforeAll(async () => {
    [first, second] = await Promise.all([startInstance(), startInstance()]);
  });
  afterAll(async () => {
    await Promise.all([first?.close(), second?.close()]);
    await deleteNamespaces(namespace);
  });

  it('share one lock-out per account: failures on either instance add up', async () => {
    const { registration } = await signUpStudent(first);
    const { rollNumber, password } = registration;
    // Round robin: no instance sees more than three of the five failures.
    for (const instance of [first, second, first, second, first]) {
      const response = await instance.call(studentLogin(rollNumber, WRONG, { remoteAddress: freshNetwork() }));
      expect(response.status).toBe(401);
    }
    for (const instance of [first, second]) {
      const refused = await instance.call(studentLogin(rollNumber, password, { remoteAddress: freshNetwork() }));
      expect(refused.status).toBe(429);
      expect(refused.body.limit).toBe('sign-in-account');
      // Redis's clock runs on: a busy machine may take a second or two of the minute.
      expect(refused.body.message).toMatch(
        /^Too many sign-in attempts for this account\. Try again in (1 minute|[1-5]\d seconds), or on a device you have signed in on before\.$/,
      );
    }
  });

  it('share one budget per network', async () => {
    const network = freshNetwork();
    expect((await first.call(studentLogin('someone-1', WRONG, { remoteAddress: network }))).status).toBe(401);
    expect((await second.call(studentLogin('someone-2', WRONG, { remoteAddress: network }))).status).toBe(401);
    expect((await first.call(studentLogin('someone-3', WRONG, { remoteAddress: network }))).status).toBe(429);
    expect((await second.call(studentLogin('someone-4', WRONG, { remoteAddress: network }))).status).toBe(429);
  });
});
