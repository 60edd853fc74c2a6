import { randomBytes } from 'node:crypto';
import type { Browser, Page, TestInfo } from '@playwright/test';
import { buildSchoolSetup, buildStudentRegistration, buildTeacherAccount } from '../../src/server/testing/factories.ts';
import {
  enterSetupCode,
  copyJoinCode,
  createClassThroughUi,
  createInvitationLinkThroughUi,
  fillStudentRegistration,
  fillTeacherFields,
  logInStudentThroughUi,
  logInTeacherThroughUi,
  openQuizFromMenu,
  registerStudentThroughUi,
  registerTeacherByLink,
} from './actors.ts';
import { createClass, quizAsStudent, registeredStudent, RIGHT_ANSWERS } from './api-setup.ts';
import { ownInstancePort, startFreshInstance, type AppInstance } from './app-instances.ts';
import { test as base, expect, expectAccessible } from './fixtures.ts';
import { expectToast } from './toasts.ts';
import { answerAndSubmit, expectReviewWithoutKey, fillQuestion, localDateTimeIn, QUESTIONS } from './quiz-steps.ts';
import {
  chooseNewPasswordThroughUi,
  classListContacts,
  importClassListThroughUi,
  resetPasswordThroughUi,
  rollNumberOf,
  signInWithTemporaryPassword,
} from './roster-steps.ts';
import { patience } from '../../src/server/testing/patience.ts';

/**
 * Issue 19's proof, as a school lives it, on a new server: set up, staff invited, a class and its
 * code, students by code and by class list, a password reset, contact details only for the
 * class's teachers, an answer key hidden until the deadline. One scenario, step after step, each
 * step through the screens its person uses (the API only for what a step is not about).
 */

/**
 * Step 8's quiz: made by its teacher in the quiz editor for their class, due tomorrow, review
 * options left as they are (answers after the deadline). The one place that chooses the class.
 */
async function createQuizDueTomorrow(page: Page, className: string, title: string) {
  await page.goto('/dashboard/teacher/create-quiz');
  await page.getByLabel('Title').fill(title);
  // The class was made with its subject: its option reads "Name (Subject)".
  await page.getByRole('combobox', { name: 'Class' }).selectOption({ label: `${className} (Chemistry)` });
  await page.getByLabel('Deadline').fill(localDateTimeIn(24));
  await page.getByLabel('Maximum time (minutes)').fill('10');
  await expect(page.getByLabel('Show the correct answers')).toHaveValue('after-deadline');
  for (const [index, question] of QUESTIONS.entries()) await fillQuestion(page, index + 1, question);
  await page.getByRole('button', { name: 'Save quiz' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/all-quiz$/);
  await expect(page.getByRole('article', { name: title })).toContainText(className);
}

/** Every scenario here runs on a school of its own: a new instance, on an empty embedded database. */
const test = base.extend<{ school: AppInstance }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's needs from its first parameter
  school: async ({}, use, testInfo) => {
    const { instance, stop } = await startFreshInstance(ownInstancePort(60, testInfo.project.name));
    await use(instance);
    await stop();
  },
  baseURL: async ({ school }, use) => use(school.baseUrl),
});

/** The ones who are not the administrator, each in a browser of their own at this project's size. */
async function personBrowser(
  browser: Browser,
  testInfo: TestInfo,
  baseURL: string,
  errors: string[],
  allowed?: RegExp,
) {
  const { viewport, isMobile, hasTouch } = testInfo.project.use;
  const context = await browser.newContext({
    baseURL,
    viewport,
    isMobile,
    hasTouch,
    permissions: ['clipboard-read', 'clipboard-write'],
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    const text = `console.error on ${page.url()}: ${message.text()}`;
    if (message.type() === 'error' && !allowed?.test(text)) errors.push(text);
  });
  return page;
}

/** What every response under /api/ that `page` receives from now on said, all of it. */
function recordApiAnswers(page: Page) {
  const bodies: Promise<string>[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/api/')) bodies.push(response.text().catch(() => ''));
  });
  return async () => (await Promise.all(bodies)).join('\n');
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The prime question is missed on purpose: 2 of 3 right. */
const CHOICES: Record<string, string> = { ...RIGHT_ANSWERS, 'Which is a prime number?': '8' };

test('a new school: set up, invited, a class by code and by CSV, a reset, no foreign contacts, no early key', async ({
  page,
  browser,
  school,
}, testInfo) => {
  // About a minute on a quiet machine, an instance's start included; room for a loaded one.
  test.setTimeout(patience(120_000));
  const errors: string[] = [];
  const openBrowser = (allowed?: RegExp) => personBrowser(browser, testInfo, school.baseUrl, errors, allowed);
  const tag = `st${randomBytes(3).toString('hex')}`;
  const className = `9B ${tag}`;

  // 1. The first run: the landing page leads to the setup; the administrator is signed in.
  const setup = buildSchoolSetup({ name: 'Mei-Ling Chen 陈美玲' });
  await page.goto('/');
  await page.getByRole('link', { name: 'Set up your school' }).click();
  await expect(page).toHaveURL(/\/setup$/);
  await expectAccessible(page, 'setup');
  await enterSetupCode(page);
  await page.getByLabel('School name').fill(setup.schoolName);
  await fillTeacherFields(page, setup);
  await page.getByRole('button', { name: 'Set up the school' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher$/);

  // 2. An invitation link; the teacher opens it and registers, the code taken from the link.
  await page.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'Staff' }).click();
  const link = await createInvitationLinkThroughUi(page, `Chemistry ${tag}`);
  await expectAccessible(page, 'staff screen');
  const teacher = buildTeacherAccount({ name: 'Zeynep Çelik', subject: 'Chemistry' });
  const teacherPage = await openBrowser();
  await registerTeacherByLink(teacherPage, link, teacher, setup.schoolName);
  await logInTeacherThroughUi(teacherPage, teacher);

  // 3. The teacher makes a class and copies its join code.
  await teacherPage.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'Classes' }).click();
  await expect(teacherPage.getByText('No classes yet')).toBeVisible();
  await createClassThroughUi(teacherPage, className, 'Chemistry');
  const joinCode = await copyJoinCode(teacherPage);

  // 4. A student registers with the code and is in the class.
  const studentPage = await openBrowser();
  const studentAnswers = recordApiAnswers(studentPage);
  const student = await registerStudentThroughUi(studentPage, { classCode: joinCode, name: '王芳' });
  await logInStudentThroughUi(studentPage, student);
  await studentPage.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'My classes' }).click();
  await expect(studentPage.getByRole('listitem').filter({ hasText: className })).toContainText('Chemistry');
  await expectAccessible(studentPage, 'my classes');

  // Without a code, then with a wrong one: refused, said next to the field, and no account.
  // The browser logs the refused registration and sign-in.
  const refusedPage = await openBrowser(/status of 40[01]/);
  const refused = buildStudentRegistration({ name: 'Emre Şahin', classCode: '' });
  await refusedPage.goto('/auth/student/register');
  await fillStudentRegistration(refusedPage, refused);
  await refusedPage.getByRole('button', { name: 'Register' }).click();
  const codeField = refusedPage.getByLabel('Class code');
  await expect(codeField).toHaveAccessibleDescription(/Class code is required/);
  await codeField.fill('ZZZZ-ZZZZ');
  const refusal = refusedPage.waitForResponse((response) => response.url().endsWith('/api/student/register'));
  await refusedPage.getByRole('button', { name: 'Register' }).click();
  expect((await refusal).status()).toBe(400);
  await expect(codeField).toHaveAccessibleDescription(
    new RegExp(
      escapeRegExp(
        'This class code does not work. Check it with your teacher: it may have been changed or turned off.',
      ),
    ),
  );
  await expect(refusedPage).toHaveURL(/\/auth\/student\/register$/);
  await expectAccessible(refusedPage, 'registration refused: a wrong code');
  await refusedPage.goto('/auth/student/login');
  await refusedPage.getByLabel('Username').fill(refused.rollNumber);
  await refusedPage.getByLabel('Password').fill(refused.password);
  await refusedPage.getByRole('button', { name: 'Log in' }).click();
  await expectToast(refusedPage, 'Username or password is incorrect');
  await expect(refusedPage).toHaveURL(/\/auth\/student\/login$/);
  await refusedPage.context().close();

  // 5. The class list: 30 students, one bad row shown at its row, the fixed file imported.
  const dialog = await importClassListThroughUi(teacherPage, className, tag);
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(teacherPage.getByText('31 students, by name')).toBeVisible();

  // 6. A forgotten password: reset by the teacher, changed by the student at the next sign-in.
  const forgetful = { name: 'Ayşe Yılmaz 1', rollNumber: rollNumberOf(tag, 1) };
  const temporaryPassword = await resetPasswordThroughUi(teacherPage, forgetful.name);
  const forgetfulPage = await openBrowser();
  await signInWithTemporaryPassword(forgetfulPage, forgetful.rollNumber, temporaryPassword);
  await chooseNewPasswordThroughUi(forgetfulPage, temporaryPassword, 'kendi şifrem 2026');
  await expect(forgetfulPage.getByRole('heading', { name: `Welcome, ${forgetful.name}` })).toBeVisible();
  await forgetfulPage.context().close();

  // 7. A teacher of another class (invited too; their class and student made through the API).
  const otherLink = await createInvitationLinkThroughUi(page, `History ${tag}`);
  const other = buildTeacherAccount({ name: 'Li Wei 李伟', subject: 'History' });
  const otherPage = await openBrowser();
  const invitation = new URL(otherLink).searchParams.get('invitation')!;
  expect((await otherPage.request.post('/api/teacher/register', { data: { ...other, invitation } })).ok()).toBe(true);
  const login = await otherPage.request.post('/api/teacher/login', {
    data: { email: other.email, password: other.password },
  });
  const otherClass = await createClass(otherPage.request, (await login.json()).data as string, `9C ${tag}`);
  const otherStudent = await registeredStudent(otherPage.request, { classCode: otherClass.joinCode });
  const contacts = [student.email, student.parentEmail, ...classListContacts(tag)];
  const expectNoContacts = async (text: string, where: string) => {
    for (const contact of contacts) expect(text, `${contact} in ${where}`).not.toContain(contact);
  };
  const otherAnswers = recordApiAnswers(otherPage);
  await logInTeacherThroughUi(otherPage, other);
  const otherMenu = otherPage.getByRole('navigation', { name: 'Teacher menu' });
  await otherMenu.getByRole('link', { name: 'Students' }).click();
  const main = otherPage.getByRole('main');
  await expect(main.getByText(otherStudent.name, { exact: true }).filter({ visible: true })).toBeVisible();
  await expect(main.getByText(student.name, { exact: true })).toHaveCount(0);
  await expectAccessible(otherPage, "another class's teacher: students");
  await expectNoContacts(await otherPage.content(), 'the students screen');
  await otherMenu.getByRole('link', { name: 'LeaderBoard' }).click();
  await expect(otherPage.getByRole('heading', { level: 1, name: 'Leaderboard' })).toBeVisible();
  await expectAccessible(otherPage, "another class's teacher: leaderboard");
  await expectNoContacts(await otherPage.content(), 'the leaderboard');

  // 8. A quiz due tomorrow: the student who submitted sees the review without the key.
  const title = `Acids ${tag}`;
  await createQuizDueTomorrow(teacherPage, className, title);
  await openQuizFromMenu(studentPage, title);
  await studentPage.getByRole('button', { name: 'Start quiz' }).click();
  await answerAndSubmit(studentPage, CHOICES);
  await expect(studentPage.getByTestId('result-score')).toHaveText('2 / 3');
  const quizId = new URL(studentPage.url()).pathname.split('/').at(-1)!;
  const token = (await studentPage.evaluate(() => localStorage.getItem('token')))!;
  const { attempt } = await quizAsStudent(studentPage.request, token, quizId);
  if (attempt?.status !== 'submitted') throw new Error('The attempt should be submitted');
  await expectReviewWithoutKey(studentPage, attempt.answersVisibleAt!, 3);
  expect(await studentAnswers(), 'a response to the student carries the answer key').not.toContain('"answer"');

  // The school-wide leaderboard now ranks the student, for the other teacher without contacts.
  await otherPage.reload();
  await expect(otherPage.getByTestId('leaderboard-row').filter({ hasText: student.name })).toBeVisible();
  await expectNoContacts(await otherPage.content(), 'the leaderboard with the student');
  await expectNoContacts(await otherAnswers(), "the answers to the other teacher's screens");

  expect(errors, 'page errors in the browsers of the others').toEqual([]);
});
