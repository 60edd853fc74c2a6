import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { buildStudentRegistration } from '../../src/server/testing/factories.ts';
import { registeredStudent, teacherWithClass } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { logInStudentThroughUi, logInTeacherThroughUi } from './actors.ts';
import { expectToast } from './toasts.ts';

const SCREENSHOT_DIR = 'docs/screenshots';

/** A class of this run only: both projects share one server. */
const newClassName = (label: string) => `${label}-${randomBytes(3).toString('hex')}`;

/** A student as listed: a table row on wide screens, a card on phones (the other one is hidden). */
const listedStudent = (page: Page, name: string) =>
  page.getByRole('main').getByText(name, { exact: true }).filter({ visible: true });

test('teacher adds a student who then logs in', async ({ page, browser, request, pageErrors }, testInfo) => {
  pageErrors.allow(/status of 409/); // the browser logs the refused duplicate
  const className = newClassName('7B');
  const otherClass = newClassName('7C');
  // Set-up through the API: the teacher's class with a classmate already in it, and someone in
  // another teacher's class (never listed: issue 19 point 8).
  const { teacher, klass } = await teacherWithClass(request, className);
  const { klass: other } = await teacherWithClass(request, otherClass);
  const classmate = await registeredStudent(request, { classCode: klass.joinCode });
  const stranger = await registeredStudent(request, { classCode: other.joinCode });
  const newStudent = buildStudentRegistration();

  await logInTeacherThroughUi(page, teacher);
  const menu = page.getByRole('navigation', { name: 'Teacher menu' });
  await menu.getByRole('link', { name: 'Students' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/students$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Students' })).toBeVisible();
  await expect(listedStudent(page, classmate.name)).toBeVisible();
  await expectAccessible(page, 'students list');

  await page.getByRole('link', { name: 'Add student' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/students\/add$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Add a student' })).toBeVisible();
  await expect(page.getByLabel('Password')).toHaveAttribute('type', 'password');
  await expect(page.getByRole('textbox', { name: 'Email', exact: true })).toHaveAttribute('type', 'email');
  await expect(page.getByLabel('Parent email')).toHaveAttribute('type', 'email');

  // An empty form is refused before anything is sent: every field says what is missing.
  await page.getByRole('button', { name: 'Add student' }).click();
  const main = page.getByRole('main');
  for (const message of [
    'Choose one of your classes',
    'Name is required',
    'Account username is required',
    'Email is required',
    'Parent name is required',
    'Parent email is required',
    'Password is required',
  ]) {
    await expect(main.getByText(message, { exact: true })).toBeVisible();
  }
  await expectToast(page, 'Choose one of your classes');
  // The class is picked from the teacher's classes (decision 031), first in the form.
  const classPicker = page.getByRole('combobox', { name: 'Class' });
  await expect(classPicker).toBeFocused();
  await expect(page.getByLabel('Account username')).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page, 'add student, field errors');

  // Filled by keyboard; a username that is taken is refused by the server and marked on its field.
  await classPicker.selectOption({ label: className });
  await page.getByRole('textbox', { name: 'Name', exact: true }).fill(newStudent.name);
  await page.keyboard.press('Tab');
  await page.keyboard.type(classmate.rollNumber.toUpperCase());
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(newStudent.email);
  await page.getByLabel('Parent name').fill(newStudent.parentName);
  await page.getByLabel('Parent email').fill(newStudent.parentEmail);
  await page.getByLabel('Password').fill(newStudent.password);
  await page.getByLabel('Password').press('Enter');
  await expectToast(page, 'This account username is already taken');
  await expect(main.getByText('This account username is already taken')).toBeVisible();
  await expect(page.getByLabel('Account username')).toBeFocused();
  await expect(page).toHaveURL(/\/students\/add$/);
  if (testInfo.project.name === 'desktop') {
    await page.screenshot({ path: `${SCREENSHOT_DIR}/add-student.png`, fullPage: true });
  }

  // Corrected where the focus already is, and sent with Enter (the error toast may cover the button on phones).
  await page.getByLabel('Account username').fill(newStudent.rollNumber);
  await page.getByLabel('Account username').press('Enter');
  // Back on the students list (issue 18; SPEC §2 said /dashboard/teacher).
  await expect(page).toHaveURL(/\/dashboard\/teacher\/students$/);
  await expectToast(page, `Student ${newStudent.name} added to ${className}`);

  // The new student is on the list: found by a search for part of the username, in another case...
  await menu.getByRole('link', { name: 'Students' }).click();
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.fill(newStudent.rollNumber.slice(2).toUpperCase());
  await expect
    .poll(() => new URL(page.url()).searchParams.get('search'))
    .toBe(newStudent.rollNumber.slice(2).toUpperCase());
  await expect(listedStudent(page, newStudent.name)).toBeVisible();
  await expect(listedStudent(page, classmate.name)).toHaveCount(0);
  await expect(page.getByText('1 student shown')).toBeVisible();
  // ...by name...
  await search.fill(newStudent.name.toLowerCase());
  await expect.poll(() => new URL(page.url()).searchParams.get('search')).toBe(newStudent.name.toLowerCase());
  await expect(listedStudent(page, newStudent.name)).toBeVisible();
  await search.fill('no such student %_');
  await expect(page.getByText('No students found')).toBeVisible();
  await expectAccessible(page, 'students list, nothing found');

  // ...and with the classmate under the class filter, without the other class.
  await search.fill('');
  const classFilter = page.getByRole('combobox', { name: 'Class' });
  await expect(classFilter.getByRole('option', { name: className })).toBeAttached(); // the teacher's class
  await expect(classFilter.getByRole('option', { name: otherClass })).toHaveCount(0);
  await classFilter.selectOption(className);
  await expect.poll(() => new URL(page.url()).searchParams.get('classId')).toBe(klass.id);
  await expect(listedStudent(page, newStudent.name)).toBeVisible();
  await expect(listedStudent(page, classmate.name)).toBeVisible();
  await expect(listedStudent(page, stranger.name)).toHaveCount(0);
  await expect(page.getByText('2 students shown')).toBeVisible();
  await expectAccessible(page, 'students list, one class');
  if (testInfo.project.name === 'desktop') await page.screenshot({ path: `${SCREENSHOT_DIR}/students.png` });

  // The filter survives a reload: it lives in the address.
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Class' })).toHaveValue(klass.id);
  await expect(page.getByText('2 students shown')).toBeVisible();

  // The student logs in on their own device with what the teacher set.
  const studentPage = await browser.newPage();
  const studentProblems: string[] = [];
  studentPage.on('pageerror', (error) => studentProblems.push(error.message));
  studentPage.on('console', (message) => {
    if (message.type() === 'error') studentProblems.push(message.text());
  });
  await logInStudentThroughUi(studentPage, newStudent);
  await expect(studentPage.getByTestId('header-user-name')).toHaveText(newStudent.name);
  await expectAccessible(studentPage, 'student dashboard of the added student');
  expect(studentProblems).toEqual([]);
  await studentPage.close();
});

test('a long class pages with Load more, by keyboard', async ({ page, request }) => {
  const className = newClassName('9Z');
  const { teacher, klass } = await teacherWithClass(request, className);
  // Two more than a page of 25; zero-padded numbers sort as names.
  const count = 27;
  for (let index = 1; index <= count; index += 1) {
    const pupil = buildStudentRegistration({
      classCode: klass.joinCode,
      name: `Pupil ${String(index).padStart(2, '0')}`,
    });
    const response = await request.post('/api/student/register', { data: pupil });
    expect(response.ok(), await response.text()).toBe(true);
  }

  await logInTeacherThroughUi(page, teacher);
  await page.goto(`/dashboard/teacher/students?classId=${klass.id}`);
  await expect(page.getByText('25 students shown; more below')).toBeVisible();
  await expect(listedStudent(page, 'Pupil 25')).toBeVisible();
  await expect(listedStudent(page, 'Pupil 26')).toHaveCount(0);

  const loadMore = page.getByRole('button', { name: 'Load more' });
  await loadMore.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('27 students shown')).toBeVisible();
  await expect(listedStudent(page, 'Pupil 27')).toBeVisible();
  await expect(loadMore).toHaveCount(0);

  // Enter in the search box searches at once, within the chosen class.
  const search = page.getByRole('searchbox', { name: 'Search' });
  await search.focus();
  await page.keyboard.type('pupil 0');
  await page.keyboard.press('Enter');
  await expect(page.getByText('9 students shown')).toBeVisible();
  await expectAccessible(page, 'students list, searched');
});
