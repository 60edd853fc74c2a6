import { i18n } from '@lingui/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { logInStudent, registerTeacher } from '#shared/contract/sign-in';
import { THROTTLE_LIMITS, type ThrottleLimit } from '#shared/throttle';
import { useFetchStandIn } from '../testing/fetch-stand-in.ts';
import { ApiError, call } from './api.ts';
import { THROTTLE_TEXTS } from './error-messages.ts';

/** The one HTTP client against a stand-in for fetch: what the forms receive when the server refuses. */
/** The texts are worded in the active locale: English here, the code's own. */
beforeEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

describe('call() when the server throttles', () => {
  const fetchMock = useFetchStandIn();

  const REWRITTEN = 'A sentence the server rewrote, which no screen may show';
  const throttled = (body: object, retryAfter: string) =>
    new Response(JSON.stringify({ success: false, code: 'THROTTLED', message: REWRITTEN, data: null, ...body }), {
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': retryAfter },
    });
  const failureOf = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable(),
      (error: unknown) => error as ApiError,
    );
  const logIn = () => call(logInStudent, { body: { rollNumber: 'ada', password: 'secret-password' } });

  // Every limit of the shared list, with the client's words for it: exactly these on the screen.
  const WORDED = {
    'sign-in-network':
      'Too many sign-in attempts from your network. Try again in 12 minutes, or on a device you have signed in on before.',
    'sign-in-account':
      'Too many sign-in attempts for this account. Try again in 12 minutes, or on a device you have signed in on before.',
    'sign-in-device': 'Too many sign-in attempts on this device. Try again in 12 minutes.',
    'known-devices': 'Too many sign-ins to this account in a short time. Try again in 12 minutes.',
    'password-checks': 'Too many wrong passwords for this account. Try again in 12 minutes.',
    'registration-network': 'Too many accounts have been created from your network. Try again in 12 minutes.',
    'registration-account': 'Too many attempts to create this account. Try again in 12 minutes.',
    'setup-code': 'Too many set-up codes tried. Try again in 12 minutes.',
    'class-codes': 'Too many wrong class codes. Ask your teacher for the code and try again in 12 minutes.',
    'students-added': 'You have added many students in a short time. Try again in 12 minutes.',
    'roster-imports': 'You have imported many class lists in a short time. Try again in 12 minutes.',
    'quiz-bytes': 'You have sent many large quizzes in a short time. Try again in 12 minutes.',
    'large-requests':
      'Your account is already sending other large requests. Let them finish, then try again in 12 minutes.',
    'password-work': 'Many people are signing in right now. Try again in 12 minutes.',
  } satisfies Record<ThrottleLimit, string>;

  it('has a text for every limit the server may name', () => {
    expect(Object.keys(THROTTLE_TEXTS).sort()).toEqual(Object.keys(THROTTLE_LIMITS).sort());
  });

  it.each(Object.entries(WORDED) as [ThrottleLimit, string][])(
    'words a refusal by %s from the limit and the wait, never from the server’s sentence',
    async (limit, text) => {
      fetchMock.mockResolvedValue(throttled({ limit, retryAfterSeconds: 690 }, '690'));
      const failure = await failureOf(logIn());
      expect(failure).toBeInstanceOf(ApiError);
      expect(failure).toMatchObject({
        code: 'THROTTLED',
        throttleLimit: limit,
        retryAfterSeconds: 690,
        message: text,
        serverMessage: REWRITTEN,
      });
    },
  );

  it('asks once: no automatic retry, for a login or a registration', async () => {
    fetchMock.mockResolvedValue(throttled({ limit: 'registration-network', retryAfterSeconds: 1500 }, '1500'));
    const registration = {
      name: 'Ada',
      subject: 'Maths',
      email: 'ada@example.org',
      password: 'secret-password',
      invitation: 'an-invitation-code-of-32-letters',
    };
    expect(await failureOf(call(registerTeacher, { body: registration }))).toMatchObject({
      code: 'THROTTLED',
      message: 'Too many accounts have been created from your network. Try again in 25 minutes.',
    });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('says the wait of the body, the seconds the budget named', async () => {
    fetchMock.mockResolvedValue(
      throttled({ limit: 'sign-in-device', retryAfterSeconds: 45 }, 'Wed, 21 Oct 2099 07:28:00 GMT'),
    );
    expect(await failureOf(logIn())).toMatchObject({
      retryAfterSeconds: 45,
      message: 'Too many sign-in attempts on this device. Try again in 45 seconds.',
    });
  });

  it('gives the general text to a limit this client does not know (a newer server), still not the server’s sentence', async () => {
    fetchMock.mockResolvedValue(throttled({ limit: 'lessons-per-day', retryAfterSeconds: 120 }, '120'));
    const failure = await failureOf(logIn());
    expect(failure).toMatchObject({
      code: 'THROTTLED',
      throttleLimit: undefined,
      message: 'Too many requests at once. Try again in 2 minutes.',
    });
  });
});
