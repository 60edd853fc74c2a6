import { randomBytes } from 'node:crypto';
import { registeredStudent, teacherWithClass } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { logInTeacherThroughUi } from './actors.ts';
import {
  chooseNewPasswordThroughUi,
  resetPasswordThroughUi,
  signInWithTemporaryPassword,
  visibleButton,
} from './roster-steps.ts';

const NEW_PASSWORD = 'my very own passphrase';

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

  const temporaryPassword = await resetPasswordThroughUi(page, student.name);

  // The student, on this browser after the teacher's session is forgotten.
  await page.evaluate(() => localStorage.clear());
  await signInWithTemporaryPassword(page, student.rollNumber, temporaryPassword);

  // No other screen opens until it is done.
  await page.goto('/dashboard/student/quiz');
  await expect(page).toHaveURL(/\/dashboard\/student\/choose-password$/);

  // Then the screen they were going to, not the dashboard (issue 30 point 6).
  await chooseNewPasswordThroughUi(page, temporaryPassword, NEW_PASSWORD, /\/dashboard\/student\/quiz$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Quizzes' })).toBeVisible();
});
