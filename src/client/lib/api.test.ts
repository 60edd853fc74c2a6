import { i18n } from '@lingui/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { changePassword } from '#shared/contract/accounts';
import { listQuizzes, saveAnswers, startQuiz } from '#shared/contract/quizzes';
import { logInStudent } from '#shared/contract/sign-in';
import { getTaskList } from '#shared/contract/tasks';
import { ApiError, call } from './api.ts';
import { failureText } from './error-messages.ts';
import { onSessionEnded } from './session.ts';

/** localStorage as the session reads it, and fetch answering what the test says. */
let storage: Map<string, string>;
let answer: { status: number; body: unknown };
let sentHeaders: Record<string, string>[];
let sentKeepalive: (boolean | undefined)[];
let sent: { url: string; method: string; body: unknown }[];

const signedOut = {
  success: false,
  code: 'SIGNED_OUT',
  message: 'You were signed out because your password was changed or you signed out of all devices.',
  data: null,
};

beforeEach(() => {
  // The failure texts are worded in the active locale: English, the code's own.
  i18n.loadAndActivate({ locale: 'en', messages: {} });
  storage = new Map([
    ['token', 'old-token'],
    ['userType', 'student'],
  ]);
  sentHeaders = [];
  sentKeepalive = [];
  sent = [];
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, value),
    removeItem: (key: string) => storage.delete(key),
  });
  type Init = { method: string; headers: Record<string, string>; body?: string; keepalive?: boolean };
  vi.stubGlobal('fetch', async (url: string, init: Init) => {
    sent.push({ url, method: init.method, body: init.body === undefined ? undefined : JSON.parse(init.body) });
    sentHeaders.push(init.headers);
    sentKeepalive.push(init.keepalive);
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Every session-ended message heard while `work` runs. */
async function heardDuring(work: () => Promise<unknown>): Promise<string[]> {
  const heard: string[] = [];
  const stop = onSessionEnded((message) => heard.push(message));
  try {
    await work().catch(() => undefined);
  } finally {
    stop();
  }
  return heard;
}

describe('call() and the end of a session (decision 017)', () => {
  it('tells the listeners when the server refuses the stored token with 401, and still throws', async () => {
    answer = { status: 401, body: signedOut };
    const heard: string[] = [];
    const stop = onSessionEnded((message) => heard.push(message));
    const error = await call(getTaskList).catch((caught: unknown) => caught);
    stop();
    expect(sentHeaders[0]!.authorization).toBe('Bearer old-token');
    expect(error).toBeInstanceOf(ApiError);
    // The client's own words, not the server's (error-messages.ts); the server's stay for logs.
    expect(error).toMatchObject({
      code: 'SIGNED_OUT',
      message: failureText('SIGNED_OUT'),
      serverMessage: signedOut.message,
    });
    expect(heard).toEqual([failureText('SIGNED_OUT')]);
  });

  it('says nothing for a 401 to a request without a token (a wrong password at the login)', async () => {
    storage.clear();
    answer = {
      status: 401,
      body: { success: false, code: 'WRONG_CREDENTIALS', message: 'Username or password is incorrect', data: null },
    };
    expect(await heardDuring(() => call(logInStudent, { body: { rollNumber: 'r', password: 'p' } }))).toEqual([]);
    expect(sentHeaders[0]!.authorization).toBeUndefined();
  });

  it('says nothing for other refusals (a wrong current password, not allowed, a conflict, a fault)', async () => {
    const body = { currentPassword: 'old-password', newPassword: 'new-password' };
    for (const [status, code] of [
      [400, 'WRONG_CURRENT_PASSWORD'],
      [403, 'FORBIDDEN'],
      [409, 'TASK_LIST_CHANGED'],
      [500, 'INTERNAL_ERROR'],
    ] as const) {
      answer = { status, body: { success: false, code, message: `refused with ${code}`, data: null } };
      expect(await heardDuring(() => call(changePassword.student, { body }))).toEqual([]);
    }
  });

  it('takes the code, not the status: a 401 without a code is an unexpected answer, not the end of a session', async () => {
    answer = { status: 401, body: { success: false, message: 'Authorization Required', data: null } };
    const error = await call(getTaskList).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'UNEXPECTED_ANSWER' });
    expect(await heardDuring(() => call(getTaskList))).toEqual([]);
  });

  it('says nothing when another tab stored a newer token meanwhile: that session lives on', async () => {
    vi.stubGlobal('fetch', async () => {
      storage.set('token', 'new-token'); // the other tab changed the password while this request was out
      return new Response(JSON.stringify(signedOut), { status: 401 });
    });
    expect(await heardDuring(() => call(getTaskList))).toEqual([]);
  });

  it('stops telling a listener once it unsubscribed', async () => {
    answer = { status: 401, body: signedOut };
    const heard: string[] = [];
    onSessionEnded((message) => heard.push(message))();
    await call(getTaskList).catch(() => undefined);
    expect(heard).toEqual([]);
  });
});

describe('call() for answers on their way (decision 022)', () => {
  const saved = { success: true, message: 'Answers saved', data: null };

  it('acts for the session it is given, not whoever is stored now (the student logged out meanwhile)', async () => {
    answer = { status: 200, body: saved };
    storage.clear();
    await call(saveAnswers, { params: { id: 'q' }, body: { answers: {} } }, { token: 'token-of-the-choice' });
    expect(sentHeaders[0]!.authorization).toBe('Bearer token-of-the-choice');
  });

  it('sends keepalive as asked, except for a body the browser would refuse to keep alive', async () => {
    answer = { status: 200, body: saved };
    await call(saveAnswers, { params: { id: 'q' }, body: { answers: { a: 'x' } } }, { keepalive: true });
    await call(
      saveAnswers,
      { params: { id: 'q' }, body: { answers: { a: 'x'.repeat(64 * 1024) } } },
      { keepalive: true },
    );
    expect(sentKeepalive).toEqual([true, false]);
  });
});

describe('call() sends what the endpoint describes (decision 026)', () => {
  it('fills the path, builds the query without empty values, and sends a POST without a body as {}', async () => {
    answer = {
      status: 200,
      body: { success: true, message: 'ok', data: [], page: { offset: 0, limit: 5, hasMore: false } },
    };
    await call(startQuiz, { params: { id: 'a b/c' } });
    await call(listQuizzes, { query: { view: 'online', offset: 10, limit: 5 } });
    await call(getTaskList);
    expect(sent).toEqual([
      { url: '/api/quiz/a%20b%2Fc/start', method: 'POST', body: {} },
      { url: '/api/get-all-quiz?view=online&offset=10&limit=5', method: 'GET', body: undefined },
      { url: '/api/tasks', method: 'GET', body: undefined },
    ]);
  });

  it('answers the page of a paged list', async () => {
    const page = { offset: 0, limit: 5, hasMore: true };
    answer = { status: 200, body: { success: true, message: 'Quizzes found', data: [], page } };
    expect(await call(listQuizzes)).toEqual({ message: 'Quizzes found', data: [], page });
  });
});
