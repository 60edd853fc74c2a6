import type { Page } from '@playwright/test';
import { STUDY_MODE } from '../../src/shared/constants.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { registeredStudent } from './api-setup.ts';
import { enterStudyMode, logInTeacherThroughUi, registerTeacherThroughUi } from './actors.ts';
import { patience } from '../../src/server/testing/patience.ts';
import { expectToast } from './toasts.ts';

/** The study shell's break reminder, shortened for the test through its config knob (not a 30 s wait). */
const BREAK_REMINDER_OVERRIDE_KEY = 'studyhall:break-reminder-ms';

const overlayOf = (page: Page) => page.getByRole('dialog', { name: 'Study mode: full screen' });
const isFullscreen = (page: Page) => page.evaluate(() => document.fullscreenElement !== null);

/** How many times the page asked for full screen (counted by the test's stand-in). */
const fullscreenRequests = (page: Page) =>
  page.evaluate(() => (window as unknown as { fullscreenRequests: number }).fullscreenRequests);

async function logIn(page: Page, student: { rollNumber: string; password: string }) {
  await page.goto('/auth/student/login');
  await page.getByLabel('Username').fill(student.rollNumber);
  await page.getByLabel('Password').fill(student.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
}

test('the student dashboard stays blocked until full screen, and explains itself', async ({ page, request }) => {
  const student = await registeredStudent(request);
  await page.addInitScript(([key]) => window.localStorage.setItem(key!, '1500'), [BREAK_REMINDER_OVERRIDE_KEY]);
  await logIn(page, student);

  // Blocked: the overlay says why, its button has the focus, the page behind takes none.
  const overlay = overlayOf(page);
  await expect(overlay).toBeVisible();
  await expect(overlay).toContainText('Press f or use the button');
  await expect(overlay.getByRole('button', { name: 'Enter full screen' })).toBeFocused();
  await expectToast(page, STUDY_MODE.fullscreenNotice);
  await expectAccessible(page, 'study mode overlay');
  // Then the way to a live game (decision 070), then Log out.
  await page.keyboard.press('Tab');
  await expect(overlay.getByRole('link', { name: 'Join a live game' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(overlay.getByRole('button', { name: 'Log out' })).toBeFocused();
  await page.keyboard.press('Tab');
  // Nothing behind the overlay can be reached: it is inert, out of the tab order and of the accessibility tree.
  expect(await page.evaluate(() => document.activeElement?.closest('[inert]') ?? null)).toBeNull();
  await expect(page.locator('[inert] #main')).toHaveCount(1);
  const quizLink = page.locator('a[href="/dashboard/student/quiz"]').first();
  await quizLink.evaluate((link: HTMLElement) => link.focus());
  expect(await quizLink.evaluate((link) => link === document.activeElement)).toBe(false);
  // The notice is gone after 2 seconds.
  await expect(page.getByRole('status').filter({ hasText: STUDY_MODE.fullscreenNotice })).toBeHidden({
    timeout: patience(4000),
  });

  // f enters full screen, and the dashboard is usable.
  await page.keyboard.press('f');
  await expect(overlay).toBeHidden();
  expect(await isFullscreen(page)).toBe(true);
  await page.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'Quiz' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/quiz$/);
  // While in full screen, a break reminder on the (shortened) interval.
  await expectToast(page, STUDY_MODE.breakReminder);

  // Leaving full screen (Esc) blocks again; the button does what f does (touch, screen readers).
  await page.evaluate(() => document.exitFullscreen());
  await expect(overlay).toBeVisible();
  await overlay.getByRole('button', { name: 'Enter full screen' }).click();
  await expect(overlay).toBeHidden();
  expect(await isFullscreen(page)).toBe(true);
});

test('losing focus shows the goals alert; leaving asks first, but not after logging out', async ({ page, request }) => {
  const student = await registeredStudent(request);
  await logIn(page, student);
  await enterStudyMode(page);

  // Another tab takes the focus: the alert comes.
  const dialogs: { type: string; message: string }[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push({ type: dialog.type(), message: dialog.message() });
    void dialog.accept();
  });
  // Playwright makes every page believe it has the focus; give this one real focus handling.
  const devtools = await page.context().newCDPSession(page);
  await devtools.send('Emulation.setFocusEmulationEnabled', { enabled: false });
  await page.bringToFront();
  await page.getByRole('heading', { level: 1 }).first().click();
  const otherTab = await page.context().newPage();
  await otherTab.bringToFront();
  await expect
    .poll(() => dialogs.filter((dialog) => dialog.type === 'alert').map((dialog) => dialog.message))
    .toEqual([STUDY_MODE.blurAlert]);
  await otherTab.close();
  await page.bringToFront();
  await devtools.send('Emulation.setFocusEmulationEnabled', { enabled: true });

  // Reloading asks for confirmation (accepted here, so the reload goes on).
  await page.keyboard.press('f'); // a user gesture (browsers only ask after one), and back to full screen if the alert left it
  await expect(overlayOf(page)).toBeHidden();
  await page.reload();
  expect(dialogs.map((dialog) => dialog.type)).toContain('beforeunload');

  // After logging out nothing asks any more.
  await expect(overlayOf(page)).toBeVisible();
  dialogs.length = 0;
  await overlayOf(page).getByRole('button', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  // The address changes before React has unmounted the dashboard (a transition): wait for the shell to go.
  await expect(overlayOf(page)).toHaveCount(0);
  await page.reload();
  await page.goto('/');
  expect(dialogs).toEqual([]);
});

test('a browser that refuses full screen does not trap the student', async ({ page, request }) => {
  const student = await registeredStudent(request);
  // As on browsers that have the API but refuse it for pages (some embedded and kiosk browsers).
  await page.addInitScript(() => {
    const counted = window as unknown as { fullscreenRequests: number };
    counted.fullscreenRequests = 0;
    Element.prototype.requestFullscreen = () => {
      counted.fullscreenRequests += 1;
      return Promise.reject(new TypeError('Full screen is not allowed'));
    };
  });
  await logIn(page, student);
  const overlay = overlayOf(page);
  await overlay.getByRole('button', { name: 'Enter full screen' }).click();
  await expect(overlay.getByRole('alert')).toContainText('did not allow full screen');
  await overlay.getByRole('button', { name: 'Continue without full screen' }).click();
  await expect(overlay).toBeHidden();

  // Typing an f in a field asks for nothing; an f anywhere else asks again.
  const requestsBefore = await fullscreenRequests(page);
  const newTask = page.getByRole('region', { name: 'Tasks' }).getByLabel('New task');
  await newTask.pressSequentially('finish the fractions sheet');
  await expect(newTask).toHaveValue('finish the fractions sheet');
  expect(await fullscreenRequests(page)).toBe(requestsBefore);
  await page.getByRole('region', { name: 'Tasks' }).getByRole('button', { name: 'Add task' }).focus();
  await page.keyboard.press('f');
  await expect.poll(() => fullscreenRequests(page)).toBe(requestsBefore + 1);
  // The key is also known by its position, for keyboards whose f key types another letter.
  await page.evaluate(() =>
    window.dispatchEvent(new KeyboardEvent('keydown', { key: 'а', code: 'KeyF', bubbles: true })),
  );
  await expect.poll(() => fullscreenRequests(page)).toBe(requestsBefore + 2);

  await page.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'Quiz' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/quiz$/);
});

test('teachers are never asked for full screen', async ({ page }) => {
  const teacher = await registerTeacherThroughUi(page);
  await logInTeacherThroughUi(page, teacher);
  await expect(page.getByRole('region', { name: 'Tasks' })).toBeVisible();
  await expect(page.getByTestId('study-mode-overlay')).toHaveCount(0);
});
