import { randomBytes } from 'node:crypto';
import type { Page } from '@playwright/test';
import { registeredStudent, teacherWithClass } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { enterStudyMode, logInTeacherThroughUi } from './actors.ts';

const NEW_PASSWORD = 'my very own passphrase';

/** The visible one of a student's buttons: the table's on wide screens, the card's on phones. */
const visibleButton = (page: Page, name: string) =>
  page.getByRole('main').getByRole('button', { name, exact: true }).filter({ visible: true });

test('a teacher resets a password; the student signs in with it and must choose a new one', async ({
  page,
  request,
}) => {
  const className = `R-${randomBytes(3).toString('hex')}`;
  const { teacher, klass } = await teacherWithClass(request, className);
  const student = await registeredStudent(request, { classCode: klass.joinCode });

  await logInTeacherThroughUi(page, teacher);
  await page.goto(`/dashboard/teacher/students?classId=${klass.id}`);
  await expect(page.getByRole('main').getByText(student.name, { exact: true }).filter({ visible: true })).toBeVisible();

  await expectAccessible(page, 'students list with the actions');

  // Edit: the details in a dialog, checked with axe, left unchanged.
  await visibleButton(page, `Edit ${student.name}`).click();
  const edit = page.getByRole('dialog', { name: `Edit ${student.name}` });
  await expect(edit.getByRole('textbox', { name: /^Account username/ })).toHaveValue(student.rollNumber);
  await expectAccessible(page, 'edit student dialog');
  await edit.getByRole('button', { name: 'Cancel' }).click();
  await expect(edit).toBeHidden();

  // Reset: a question first (the safe answer has the focus), then the password once.
  await visibleButton(page, `Reset password: ${student.name}`).click();
  const question = page.getByRole('alertdialog', { name: `Reset ${student.name}'s password?` });
  await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page, 'reset password question');
  await question.getByRole('button', { name: 'Reset password' }).click();

  const shown = page.getByRole('dialog', { name: `${student.name}'s temporary password` });
  await expect(shown.getByText(/shown only once/)).toBeVisible();
  const field = shown.getByRole('textbox', { name: 'Temporary password' });
  await expect(field).toHaveValue(/^[A-Za-z2-9]{5}-[A-Za-z2-9]{5}$/);
  const temporaryPassword = await field.inputValue();
  await expectAccessible(page, 'temporary password dialog');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();

  // The student, on this browser after the teacher's session is forgotten.
  await page.evaluate(() => localStorage.clear());
  await page.goto('/auth/student/login');
  await page.getByLabel('Username').fill(student.rollNumber);
  await page.getByLabel('Password').fill(temporaryPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/choose-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await expectAccessible(page, 'choose a new password');

  // No other screen opens until it is done.
  await page.goto('/dashboard/student/quiz');
  await expect(page).toHaveURL(/\/dashboard\/student\/choose-password$/);

  // By keyboard: the temporary password, then the new one twice.
  await page.getByLabel(/^Temporary password/).focus();
  await page.keyboard.type(temporaryPassword);
  await page.keyboard.press('Tab');
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Tab');
  await page.keyboard.type(NEW_PASSWORD);
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/dashboard\/student$/);
  await enterStudyMode(page);
  await expect(page.getByRole('heading', { name: `Welcome, ${student.name}` })).toBeVisible();
});
