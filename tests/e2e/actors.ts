import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { StudentRegistration } from '../../src/shared/accounts.ts';
import { buildStudentRegistration, TEST_SETUP_CODE } from '../../src/server/testing/factories.ts';
import { expect, expectAccessible } from './fixtures.ts';
import { invitedTeacher } from './school-setup.ts';
import { homeroomCode } from './api-setup.ts';
import { expectAnnounced } from './toasts.ts';

const homeroomCodeOf = (page: Page) => homeroomCode(page.request);

/** Named actors for the scenarios: each fills the real forms as a person would. */

/**
 * The set-up screen's first step (decision 050): the code from the server's log, which every
 * e2e server has as SETUP_CODE (playwright.config.ts, .ci/run's cluster).
 */
export async function enterSetupCode(page: Page, code: string = TEST_SETUP_CODE) {
  await page.getByLabel('Set-up code').fill(code);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('School name')).toBeVisible();
}

/** The fields of a teacher's account, on the setup screen and the registration by invitation. */
export async function fillTeacherFields(
  page: Page,
  teacher: { name: string; subject: string; email: string; password: string },
) {
  await page.getByLabel('Full name').fill(teacher.name);
  await page.getByLabel('Subject').fill(teacher.subject);
  await page.getByLabel('Email').fill(teacher.email);
  await page.getByLabel('Password').fill(teacher.password);
}

/**
 * On the staff screen, as an administrator: a fresh invitation link (shown once), listed as
 * pending under its note.
 */
export async function createInvitationLinkThroughUi(page: Page, note: string) {
  await page.getByLabel('Note (optional)').fill(note);
  await page.getByRole('button', { name: 'Create invitation link' }).click();
  const linkField = page.getByRole('textbox', { name: 'Invitation link' });
  await expect(linkField).toHaveValue(/\/auth\/teacher\/register\?invitation=[A-Za-z0-9_-]{32}$/);
  await expect(page.getByText(/shown only once and expires in 7 days/)).toBeVisible();
  const invitations = page.getByRole('table', { name: 'Invitations, newest first' });
  await expect(invitations.getByRole('row', { name: new RegExp(note) })).toContainText('pending');
  return linkField.inputValue();
}

/**
 * A teacher opens an invitation link and registers: the code comes from the link, not typed
 * (`schoolName`: the invitation names the school).
 */
export async function registerTeacherByLink(
  page: Page,
  link: string,
  teacher: { name: string; subject: string; email: string; password: string },
  schoolName?: string,
) {
  await page.goto(link);
  if (schoolName) await expect(page.getByText(`You're invited to join ${schoolName}.`)).toBeVisible();
  await expect(page.getByLabel('Invitation code')).toHaveCount(0);
  await expectAccessible(page, 'registration by invitation');
  await fillTeacherFields(page, teacher);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/auth\/teacher\/login$/);
  await expect(page.getByRole('main').getByRole('status')).toContainText('Registration successful');
}

/** Registers a new teacher through the link of a fresh invitation (decision 030). */
export async function registerTeacherThroughUi(page: Page) {
  const teacher = await invitedTeacher(page.request);
  await registerTeacherByLink(page, `/auth/teacher/register?invitation=${teacher.invitation}`, teacher);
  return teacher;
}

/** On the classes screen: makes a class by keyboard and opens its page. */
export async function createClassThroughUi(page: Page, className: string, subject: string) {
  await page.getByRole('textbox', { name: /^Class name/ }).fill(className);
  await page.getByRole('textbox', { name: 'Subject (optional)' }).fill(subject);
  await page.getByRole('textbox', { name: 'Subject (optional)' }).press('Enter');
  const classLink = page.getByRole('link', { name: new RegExp(className) });
  await expect(classLink).toContainText('0 students');
  await expectAccessible(page, 'classes, one');
  await classLink.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: className })).toBeVisible();
}

/** On a class page (clipboard permission granted): copies the join code and returns it as the clipboard holds it. */
export async function copyJoinCode(page: Page) {
  const code = await page.getByRole('textbox', { name: 'Join code' }).inputValue();
  await page.getByRole('button', { name: 'Copy', exact: true }).focus();
  await page.keyboard.press('Enter');
  // Its status says so for 4 s: the record of it, however late the look.
  await expectAnnounced(page, 'Copied', { kind: 'status' });
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(code);
  return copied;
}

export async function logInTeacherThroughUi(page: Page, teacher: { email: string; password: string }) {
  await page.goto('/auth/teacher/login');
  await expectAccessible(page, 'teacher login');
  await page.getByLabel('Email').fill(teacher.email);
  await page.getByLabel('Password').fill(teacher.password);
  await page.getByLabel('Password').press('Enter');
  await expect(page).toHaveURL(/\/dashboard\/teacher$/);
}

/**
 * Registers a new student with a class's code (typed, as given by the teacher); `isOnForm` when
 * the page already shows the form (reached by a link).
 */
export async function registerStudentThroughUi(
  page: Page,
  { classCode = '', isOnForm = false, name }: { classCode?: string; isOnForm?: boolean; name?: string } = {},
) {
  const student = buildStudentRegistration({
    classCode: classCode || (await homeroomCodeOf(page)),
    ...(name ? { name } : {}),
  });
  if (!isOnForm) await page.goto('/auth/student/register');
  await expectAccessible(page, 'student registration');
  await fillStudentRegistration(page, student);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/auth\/student\/login$/);
  return student;
}

/** The student registration form, filled (`classCode` blank: the field left empty). */
export async function fillStudentRegistration(page: Page, student: StudentRegistration) {
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(student.name);
  await page.getByLabel('Account username').fill(student.rollNumber);
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(student.email);
  await page.getByLabel('Class code').fill(student.classCode);
  await page.getByLabel('Parent name').fill(student.parentName);
  await page.getByLabel('Parent email').fill(student.parentEmail);
  await page.getByLabel('Password').fill(student.password);
}

export async function logInStudentThroughUi(page: Page, student: { rollNumber: string; password: string }) {
  await page.goto('/auth/student/login');
  await expectAccessible(page, 'student login');
  await page.getByLabel('Username').fill(student.rollNumber);
  await page.getByLabel('Password').fill(student.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student$/);
  await enterStudyMode(page);
}

/**
 * The student dashboard opens blocked until full screen (SPEC §4 study mode):
 * press f as a student would, and wait for the overlay to go. A page load
 * (goto, reload) leaves full screen, so call it again after one.
 */
export async function enterStudyMode(page: Page) {
  const overlay = page.getByTestId('study-mode-overlay');
  await expect(overlay).toBeVisible();
  await page.keyboard.press('f');
  try {
    await expect(overlay).toBeHidden();
  } catch (error) {
    // CI keeps no trace: say what the page was doing when f did not take it to full screen.
    const state = await page.evaluate(() => ({
      focused: document.activeElement?.outerHTML.slice(0, 200),
      isFullscreen: document.fullscreenElement !== null,
      hasFocus: document.hasFocus(),
    }));
    const overlayText = await overlay.innerText().catch(() => '(gone)');
    throw new Error(`study mode did not start on f: ${JSON.stringify({ ...state, overlayText })}`, { cause: error });
  }
}

/** The student's side menu, then the quiz's card: Take quiz, or Resume while it runs. */
export async function openQuizFromMenu(page: Page, title: string) {
  await page.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'Quiz' }).click();
  await page.getByRole('link', { name: new RegExp(`^(Take quiz|Resume \\(\\d+:\\d\\d left\\))\\W+${title}$`) }).click();
}

/** The question on screen in a running attempt or preview. */
export const currentQuestion = async (page: Page) => (await page.getByTestId('question-text').textContent()) ?? '';

/**
 * Another person's browser beside `like`: its size (a phone's touch too), watched like every
 * context (fixtures.ts); its page's uncaught errors and console errors are collected in `errors`.
 */
export async function openSecondBrowser(browser: Browser, like: Page, isPhone: boolean) {
  const context = await browser.newContext({ viewport: like.viewportSize()!, isMobile: isPhone, hasTouch: isPhone });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { context, page, errors };
}

/**
 * Signs `context`'s pages in as the login page would (the token and the role in local storage,
 * SPEC §3), on every page of the app at `origin` it opens: for scenarios whose subject is past the login.
 */
export async function signInByToken(
  context: BrowserContext,
  origin: string,
  session: { token: string; role: 'teacher' | 'student' },
) {
  await context.addInitScript(
    (stored) => {
      // Not in a frame without storage of its own (a PDF shown in the page, in Chromium's viewer).
      if (location.origin !== stored.origin || !window.localStorage) return;
      localStorage.setItem('token', stored.token);
      localStorage.setItem('userType', stored.role);
    },
    { origin: new URL(origin).origin, ...session },
  );
}
