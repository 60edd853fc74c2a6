import type { Page } from '@playwright/test';
import { LOCALE_COOKIE } from '../../src/shared/locales.ts';
import { registeredStudent } from './api-setup.ts';
import { enterStudyMode, logInStudentThroughUi } from './actors.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { expectToast } from './toasts.ts';

/**
 * Sign-in throttling as a person meets it (decision 016): after five wrong passwords the
 * form says the wait in the client's words for the limit the 429 names (decision 026, last
 * addendum), and the page never retries by itself; a browser that
 * has signed in to the account before is not held up by someone else's failures. Through
 * nginx and two instances (the CI's second run) the attempts land on both instances, so this
 * also shows that the counts and the device cookie's key are shared.
 */

/** Submits the login form once and returns the status the server answered. */
async function submitLogin(page: Page): Promise<number> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (answer) => answer.url().endsWith('/api/student/login') && answer.request().method() === 'POST',
    ),
    page.getByRole('button', { name: 'Log in' }).click(),
  ]);
  return response.status();
}

test('a student who mistypes the password five times is told to wait, in words, and the form does not retry', async ({
  page,
  request,
  pageErrors,
}) => {
  pageErrors.allow(/status of 401/); // the browser logs each refused login
  pageErrors.allow(/status of 429/);
  const student = await registeredStudent(request);
  const sent: string[] = [];
  page.on('request', (sending) => {
    if (sending.url().endsWith('/api/student/login')) sent.push(sending.method());
  });

  await page.goto('/auth/student/login');
  await page.getByLabel('Username').fill(student.rollNumber);
  await page.getByLabel('Password').fill('not-the-password');
  for (let attempt = 1; attempt <= 5; attempt++) {
    expect(await submitLogin(page), `attempt ${attempt}`).toBe(401);
    // A toast of its own each time (the form's failure toast, shown again).
    await expectToast(page, 'Username or password is incorrect');
  }

  // The right password now: the account waits a minute first, and the form says so.
  await page.getByLabel('Password').fill(student.password);
  expect(await submitLogin(page)).toBe(429);
  const notice = page.getByRole('status').filter({ hasText: 'Too many sign-in attempts for this account.' });
  // The minute started at the fifth attempt: on a busy machine a second of it may have gone.
  await expect(notice).toHaveText(
    /^Too many sign-in attempts for this account\. Try again in (1 minute|[1-5]\d seconds), or on a device you have signed in on before\.$/,
  );
  await expectAccessible(page, 'student login, locked');
  await expect(page).toHaveURL(/\/auth\/student\/login$/);
  await expect(page.getByRole('button', { name: 'Log in' })).toBeEnabled();

  // Nothing was sent again behind the person's back.
  await page.waitForTimeout(1500);
  expect(sent).toEqual(Array(6).fill('POST'));
});

test("a student's own browser is not locked out by a classmate who fails on purpose", async ({
  page,
  request,
  pageErrors,
}) => {
  pageErrors.allow(/status of 401/);
  const student = await registeredStudent(request);
  // Yesterday: the student signed in on this browser, then logged out.
  await logInStudentThroughUi(page, student);
  // Beside the language's cookies (the profile writes the person's language, decision 055), the device's.
  const cookies = await page.context().cookies();
  const [deviceCookie, ...others] = cookies.filter((cookie) => !cookie.name.startsWith(LOCALE_COOKIE));
  expect(others).toEqual([]);
  expect(deviceCookie).toMatchObject({ path: '/api/student/login', httpOnly: true, sameSite: 'Strict' });
  // No script of the page can read it.
  expect(await page.evaluate(() => document.cookie)).not.toContain(deviceCookie!.name);
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);

  // Today a classmate, on another browser (this `request` has never signed in), fails five times on purpose.
  for (let attempt = 1; attempt <= 5; attempt++) {
    const guess = await request.post('/api/student/login', {
      data: { rollNumber: student.rollNumber, password: `guess-${attempt}-x` },
    });
    expect(guess.status(), `guess ${attempt}`).toBe(401);
  }
  const classmate = await request.post('/api/student/login', {
    data: { rollNumber: student.rollNumber, password: student.password },
  });
  expect(classmate.status()).toBe(429);
  expect(await classmate.json()).toMatchObject({ code: 'THROTTLED', limit: 'sign-in-account' });

  // The student, on the browser the account knows, signs in as usual.
  await page.goto('/auth/student/login');
  await page.getByLabel('Username').fill(student.rollNumber);
  await page.getByLabel('Password').fill(student.password);
  expect(await submitLogin(page)).toBe(200);
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  await enterStudyMode(page);
});
