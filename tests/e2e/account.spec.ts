import type { Browser, Page, TestInfo } from '@playwright/test';
import { registeredStudent, registeredTeacher } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { expectToast } from './toasts.ts';
import { enterStudyMode, logInStudentThroughUi, logInTeacherThroughUi } from './actors.ts';

const SCREENSHOT_DIR = 'docs/screenshots';
const NEW_PASSWORD = 'a-brand-new-passphrase';
const SIGNED_OUT_NOTICE = /You were signed out because your password was changed or you signed out of all devices/;

/**
 * A second browser (another device of the same person): its own storage, so its own
 * session. Its page errors are collected like the fixture's; a refused request's 401 is
 * expected there.
 */
async function secondDevice(browser: Browser, page: Page, testInfo: TestInfo) {
  const isDesktop = testInfo.project.name === 'desktop';
  const context = await browser.newContext({
    baseURL: testInfo.project.use.baseURL,
    viewport: page.viewportSize()!,
    isMobile: !isDesktop,
    hasTouch: !isDesktop,
  });
  const other = await context.newPage();
  const problems: string[] = [];
  other.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  other.on('console', (message) => {
    if (message.type() === 'error' && !/status of 401/.test(message.text())) problems.push(message.text());
  });
  return { page: other, problems, close: () => context.close() };
}

/** The account page through the user name in the header (every dashboard screen has it). */
async function openAccountFromHeader(page: Page, name: string) {
  await page.getByRole('link', { name: `${name}, account settings` }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
}

test('a student changes the password; another device holding the old session is sent to the login', async ({
  page,
  browser,
  request,
  pageErrors,
}, testInfo) => {
  pageErrors.allow(/status of 400/); // the browser logs the refused wrong current password
  const student = await registeredStudent(request);
  await logInStudentThroughUi(page, student);
  const other = await secondDevice(browser, page, testInfo);
  await logInStudentThroughUi(other.page, student);

  await openAccountFromHeader(page, student.name);
  await expect(page).toHaveURL(/\/dashboard\/student\/account$/);
  await expect(page.getByRole('main')).toContainText(`Signed in as ${student.name} (${student.rollNumber})`);
  // Password managers learn which saved login the new password belongs to.
  await expect(page.locator('input[autocomplete="username"]')).toHaveValue(student.rollNumber);
  await expectAccessible(page, 'student account page');

  // By keyboard: an empty form says what is missing, next to each field.
  // The labels end with a required mark (*): matched from their start.
  const current = page.getByLabel(/^Current password/);
  const fresh = page.getByLabel(/^New password/);
  const confirm = page.getByLabel(/^Confirm new password/);
  await current.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main').getByText('Current password is required')).toBeVisible();
  await expect(page.getByRole('main').getByText('New password is required')).toBeVisible();
  await expect(current).toBeFocused();
  await expect(current).toHaveAttribute('aria-invalid', 'true');

  // The new password typed twice, differently.
  await page.keyboard.type(student.password);
  await page.keyboard.press('Tab');
  await expect(fresh).toBeFocused();
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Tab');
  await expect(confirm).toBeFocused();
  await page.keyboard.type(`${NEW_PASSWORD}!`);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main').getByText('The two new passwords do not match')).toBeVisible();
  await expect(confirm).toBeFocused();
  await expectAccessible(page, 'account page, field errors');

  // A wrong current password: the server says so, under that field; nothing changes.
  await current.fill('not-my-password');
  await confirm.fill(NEW_PASSWORD);
  await confirm.press('Enter');
  await expect(page.getByRole('main').getByText('Your current password is not correct')).toBeVisible();
  await expectToast(page, 'Your current password is not correct');
  await expect(current).toBeFocused();

  await current.fill(student.password);
  await current.press('Enter');
  await expectToast(page, 'Your password was changed');
  for (const field of [current, fresh, confirm]) await expect(field).toHaveValue(''); // not left on screen
  await expect(page.getByRole('main').getByText('Your current password is not correct')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Change password' })).toBeEnabled();
  if (testInfo.project.name === 'desktop') await page.screenshot({ path: `${SCREENSHOT_DIR}/account.png` });

  // This device stays signed in: its next screens load with the fresh token.
  const menu = page.getByRole('navigation', { name: 'Student menu' });
  await menu.getByRole('link', { name: 'Quiz' }).click();
  await expect(page.getByRole('heading', { name: 'Online' })).toBeVisible();

  // The other device's next action is refused, and it lands on the login, told why.
  await other.page.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'Quiz' }).click();
  await expect(other.page).toHaveURL(/\/auth\/student\/login$/);
  await expect(other.page.getByRole('main').getByRole('status')).toHaveText(SIGNED_OUT_NOTICE);
  expect(await other.page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await expectAccessible(other.page, 'login after being signed out elsewhere');

  // The old password no longer opens the account; the new one does.
  await other.page.getByLabel('Username').fill(student.rollNumber);
  await other.page.getByLabel('Password').fill(student.password);
  await other.page.getByRole('button', { name: 'Log in' }).click();
  await expect(other.page.getByText('Username or password is incorrect')).toBeVisible();
  await logInStudentThroughUi(other.page, { rollNumber: student.rollNumber, password: NEW_PASSWORD });
  await expect(other.page.getByTestId('header-user-name')).toHaveText(student.name);

  // Study mode keeps working around the page: a reload (confirmed) leaves full screen, the overlay comes back.
  await openAccountFromHeader(page, student.name);
  page.on('dialog', (dialog) => void dialog.accept());
  await page.reload();
  await enterStudyMode(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Account' })).toBeVisible();
  expect(other.problems).toEqual([]);
  await other.close();
});

test('a teacher signs out of all devices, this one included', async ({ page, browser, request }, testInfo) => {
  const teacher = await registeredTeacher(request);
  await logInTeacherThroughUi(page, teacher);
  const other = await secondDevice(browser, page, testInfo);
  await logInTeacherThroughUi(other.page, teacher);

  // From the profile summary on the home screen.
  await page.getByRole('link', { name: 'Account: change password, sign out of all devices' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/account$/);
  await expect(page.getByRole('main')).toContainText(`Signed in as ${teacher.name} (${teacher.email})`);
  await expectAccessible(page, 'teacher account page');

  // The confirmation opens on the safe answer; Escape closes it and gives the focus back.
  const signOutButton = page.getByRole('button', { name: 'Sign out of all devices' });
  await signOutButton.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('alertdialog', { name: 'Sign out of all devices?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page, 'sign out everywhere confirmation');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(signOutButton).toBeFocused();
  expect(await page.evaluate(() => localStorage.getItem('token'))).not.toBeNull(); // nothing happened

  // Confirmed by keyboard: this device goes to the login, told what happened.
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Sign out everywhere' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/auth\/teacher\/login$/);
  await expect(page.getByRole('main').getByRole('status')).toHaveText(/signed out of all devices/);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
  await expectAccessible(page, 'login after signing out everywhere');

  // The other device's next action is refused too.
  await other.page.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'Students' }).click();
  await expect(other.page).toHaveURL(/\/auth\/teacher\/login$/);
  await expect(other.page.getByRole('main').getByRole('status')).toHaveText(SIGNED_OUT_NOTICE);

  // The password itself did not change: both log in again.
  await logInTeacherThroughUi(page, teacher);
  await logInTeacherThroughUi(other.page, teacher);
  await expect(other.page.getByTestId('header-user-name')).toHaveText(teacher.name);
  expect(other.problems).toEqual([]);
  await other.close();
});
