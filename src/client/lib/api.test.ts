import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiPost, apiRequest, ApiError } from './api.ts';
import { onSessionEnded } from './session.ts';

/** localStorage as the session reads it, and fetch answering what the test says. */
let storage: Map<string, string>;
let answer: { status: number; body: unknown };
let sentHeaders: Record<string, string>[];
let sentKeepalive: (boolean | undefined)[];

const signedOut = {
  success: false,
  message: 'You were signed out because your password was changed or you signed out of all devices.',
  data: null,
};

beforeEach(() => {
  storage = new Map([
    ['token', 'old-token'],
    ['userType', 'student'],
  ]);
  sentHeaders = [];
  sentKeepalive = [];
  vi.stubGlobal('localStorage', {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => storage.set(key, value),
    removeItem: (key: string) => storage.delete(key),
  });
  vi.stubGlobal('fetch', async (_path: string, init: { headers: Record<string, string>; keepalive?: boolean }) => {
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

describe('apiRequest and the end of a session (decision 017)', () => {
  it('tells the listeners when the server refuses the stored token with 401, and still throws', async () => {
    answer = { status: 401, body: signedOut };
    const heard: string[] = [];
    const stop = onSessionEnded((message) => heard.push(message));
    const error = await apiRequest('/api/tasks').catch((caught: unknown) => caught);
    stop();
    expect(sentHeaders[0]!.authorization).toBe('Bearer old-token');
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, message: signedOut.message });
    expect(heard).toEqual([signedOut.message]);
  });

  it('says nothing for a 401 to a request without a token (a wrong password at the login)', async () => {
    storage.clear();
    answer = { status: 401, body: { success: false, message: 'Username or password is incorrect', data: null } };
    expect(await heardDuring(() => apiPost('/api/student/login', { rollNumber: 'r', password: 'p' }))).toEqual([]);
    expect(sentHeaders[0]!.authorization).toBeUndefined();
  });

  it('says nothing for other refusals: 400 (a wrong current password), 403, 409, 500', async () => {
    for (const status of [400, 403, 409, 500]) {
      answer = { status, body: { success: false, message: `refused with ${status}`, data: null } };
      expect(await heardDuring(() => apiRequest('/api/student/change-password'))).toEqual([]);
    }
  });

  it('says nothing when another tab stored a newer token meanwhile: that session lives on', async () => {
    vi.stubGlobal('fetch', async () => {
      storage.set('token', 'new-token'); // the other tab changed the password while this request was out
      return new Response(JSON.stringify(signedOut), { status: 401 });
    });
    expect(await heardDuring(() => apiRequest('/api/tasks'))).toEqual([]);
  });

  it('stops telling a listener once it unsubscribed', async () => {
    answer = { status: 401, body: signedOut };
    const heard: string[] = [];
    onSessionEnded((message) => heard.push(message))();
    await apiRequest('/api/tasks').catch(() => undefined);
    expect(heard).toEqual([]);
  });
});

describe('apiRequest for answers on their way (decision 022)', () => {
  const saved = { success: true, message: 'Answers saved', data: null };

  it('acts for the session it is given, not whoever is stored now (the student logged out meanwhile)', async () => {
    answer = { status: 200, body: saved };
    storage.clear();
    await apiRequest('/api/quiz/q/answers', { method: 'PUT', body: { answers: {} }, token: 'token-of-the-choice' });
    expect(sentHeaders[0]!.authorization).toBe('Bearer token-of-the-choice');
  });

  it('sends keepalive as asked, except for a body the browser would refuse to keep alive', async () => {
    answer = { status: 200, body: saved };
    await apiRequest('/api/quiz/q/answers', { method: 'PUT', body: { answers: { a: 'x' } }, keepalive: true });
    await apiRequest('/api/quiz/q/answers', {
      method: 'PUT',
      body: { answers: { a: 'x'.repeat(64 * 1024) } },
      keepalive: true,
    });
    expect(sentKeepalive).toEqual([true, false]);
  });
});
