import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { registeredStudent, registeredTeacher } from './api-setup.ts';
import { copyJoinCode, createClassThroughUi, logInStudentThroughUi, logInTeacherThroughUi } from './actors.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { patience } from '../../src/server/testing/patience.ts';

const SCREENSHOT_DIR = 'docs/screenshots';
const JOIN_CODE = /^[A-Z2-9]{4}-[A-Z2-9]{4}$/;

/** Answers the page's question with `answer`, by keyboard. */
async function confirm(page: Page, answer: string) {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: answer, exact: true }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
}

/** Activates a button by keyboard, as a person without a mouse would. */
async function press(page: Page, name: string) {
  await page.getByRole('button', { name, exact: true }).focus();
  await page.keyboard.press('Enter');
}

test('a teacher makes a class and shares its code; a student joins; co-teacher, roster, archive', async ({
  page,
  context,
  browser,
}, testInfo) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const teacher = await registeredTeacher(page.request);
  const colleague = await registeredTeacher(page.request);
  const student = await registeredStudent(page.request);
  await logInTeacherThroughUi(page, teacher);

  await page.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'Classes' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/classes$/);
  await expect(page.getByText('No classes yet')).toBeVisible();
  await expectAccessible(page, 'classes, none yet');

  const className = `E2E ${Date.now().toString(36)}`;
  await createClassThroughUi(page, className, 'Chemistry');

  // The code: shown grouped, copied, rotated.
  const codeBox = page.getByRole('textbox', { name: 'Join code' });
  await expect(codeBox).toHaveValue(JOIN_CODE);
  const firstCode = await copyJoinCode(page);
  await press(page, 'Rotate code');
  await confirm(page, 'Rotate code');
  await expect(codeBox).not.toHaveValue(firstCode);
  await expect(codeBox).toHaveValue(JOIN_CODE);
  const code = await codeBox.inputValue();

  // The student, in a browser of their own, joins with the new code typed in lower case.
  const studentContext = await browser.newContext({ viewport: page.viewportSize() });
  const studentPage = await studentContext.newPage();
  await logInStudentThroughUi(studentPage, student);
  await studentPage.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'My classes' }).click();
  await expect(studentPage).toHaveURL(/\/dashboard\/student\/classes$/);
  await studentPage.getByRole('textbox', { name: /^Class code/ }).fill(code.toLowerCase());
  await studentPage.getByRole('textbox', { name: /^Class code/ }).press('Enter');
  const joined = studentPage.getByRole('listitem').filter({ hasText: className });
  await expect(joined).toContainText('Chemistry');
  await expectAccessible(studentPage, 'my classes');
  await studentContext.close();

  // The teacher sees the student on the roster.
  await page.reload();
  const roster = page.getByRole('table', { name: `Students of ${className}` });
  await expect(roster.getByRole('rowheader', { name: student.name })).toBeVisible();
  await expect(roster.getByRole('row', { name: new RegExp(student.name) })).toContainText(student.parentEmail);

  // A co-teacher from the school's active teachers.
  await page.getByRole('combobox', { name: 'Add a co-teacher' }).selectOption({ label: colleague.name });
  await press(page, 'Add co-teacher');
  const teachers = page.getByRole('table', { name: `Teachers of ${className}` });
  await expect(teachers.getByRole('rowheader', { name: colleague.name })).toBeVisible();
  await expect(teachers.getByRole('row', { name: new RegExp(teacher.name) })).toContainText('Owner');
  await expect(page.getByText('Co-teacher added')).toHaveCount(0, { timeout: patience(15_000) });
  await expectAccessible(page, 'class page');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/class-page-${testInfo.project.name}.png`, fullPage: true });

  // Archived: badge on the page and in the list, the roster closed to new students.
  await press(page, 'Archive class');
  await confirm(page, 'Archive');
  await expect(page.getByRole('heading', { level: 1, name: className })).toContainText('Archived');
  await expect(page.getByRole('button', { name: 'Add student' })).toBeDisabled();
  await page.getByRole('link', { name: 'Back to classes' }).click();
  await expect(page.getByRole('link', { name: new RegExp(className) })).toContainText('Archived');
  await expect(page.getByRole('link', { name: new RegExp(className) })).toContainText('1 student');
});
