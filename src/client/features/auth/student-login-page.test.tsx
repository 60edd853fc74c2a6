import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { logInStudent } from '#shared/contract/sign-in';
import { callJson } from '../../../server/testing/server-process.ts';
import { openApp } from '../../testing/open-app.tsx';
import { signUpStudent } from '../../testing/server-actors.ts';

const LOGIN_PATH = '/auth/student/login';
const REWRITTEN = 'A sentence the server rewrote, which no screen may show';

/**
 * Stands between the page and the real server: every failure of the student login comes back
 * with its message rewritten, as a server whose wording changed would send it.
 */
function rewriteLoginFailureMessages() {
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
    const answer = await realFetch(...args);
    const url = args[0] instanceof Request ? args[0].url : String(args[0]);
    if (answer.ok || !url.endsWith(logInStudent.path)) return answer;
    const body = (await answer.json()) as Record<string, unknown>;
    return new Response(JSON.stringify({ ...body, message: REWRITTEN }), {
      status: answer.status,
      headers: answer.headers,
    });
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the student login when the account is locked (decision 016)', () => {
  it('says the lock-out in the client’s words for its limit, with the wait; the server’s sentence never shows', async () => {
    const { rollNumber, password } = (await signUpStudent()).registration;
    rewriteLoginFailureMessages();
    // A classmate, elsewhere, fails five times: the sixth attempt on the account waits a minute.
    for (let attempt = 1; attempt <= 5; attempt++) {
      const guess = await callJson(location.origin, 'POST', logInStudent.path, {
        body: { rollNumber, password: `guess-${attempt}-x` },
      });
      expect(guess.status, `guess ${attempt}`).toBe(401);
    }

    const { user } = await openApp(LOGIN_PATH);
    await user.type(await screen.findByRole('textbox', { name: 'Username' }), rollNumber);
    await user.type(screen.getByLabelText(/^Password/), password);
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    // The minute started at the fifth guess: on a busy machine a second or two of it may have gone.
    expect(
      await screen.findByText(
        /^Too many sign-in attempts for this account\. Try again in (1 minute|[1-5]\d seconds), or on a device you have signed in on before\.$/,
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(REWRITTEN)).not.toBeInTheDocument();
    expect(document.body).not.toHaveTextContent('server rewrote');
  });
});
