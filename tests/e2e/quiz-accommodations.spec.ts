import { expect, expectAccessible, test } from './fixtures.ts';
import { logInTeacherThroughUi } from './actors.ts';
import { registeredStudent, teacherWithQuiz } from './api-setup.ts';

/**
 * Issue 20 point 3 (decision 036): on a quiz's analytics page the teacher gives one student extra
 * time, changes it and takes it back; the attempts table marks the accommodated student.
 */

test('a teacher gives a student extra time on a quiz, changes it and removes it', async ({ page, request }) => {
  const { teacher, quiz, klass } = await teacherWithQuiz(request, { maxTime: 10 });
  const student = await registeredStudent(request, { classCode: klass.joinCode });
  // The student takes the quiz (through the API: the analytics page is the subject here).
  const login = await request.post('/api/student/login', {
    data: { rollNumber: student.rollNumber, password: student.password },
  });
  const token = (await login.json()).data as string;
  const headers = { authorization: `Bearer ${token}` };
  const started = await (await request.post(`/api/quiz/${quiz._id}/start`, { headers, data: {} })).json();
  const submitted = await request.post('/api/student/update-student', {
    headers,
    data: {
      quiz: {
        _id: quiz._id,
        questions: started.data.quiz.questions.map((question: { _id: string; options: { _id: string }[] }) => ({
          _id: question._id,
          response: question.options[0]!._id,
        })),
      },
    },
  });
  expect(submitted.ok(), await submitted.text()).toBe(true);

  await logInTeacherThroughUi(page, teacher);
  await page.goto(`/dashboard/teacher/quiz-analytics/${quiz._id}`);
  const section = page.getByRole('region', { name: 'Accommodations', exact: true });
  await expect(page.getByText('No student has an accommodation on this quiz.')).toBeVisible();

  // A value out of bounds is said at its field, and nothing is sent.
  await page.getByRole('button', { name: 'Add accommodation' }).click();
  const form = page.getByRole('form', { name: 'New accommodation' });
  await form.getByLabel('Student').selectOption({ label: `${student.name} (${student.rollNumber})` });
  await form.getByLabel('Extra time (%)').fill('500');
  await form.getByRole('button', { name: 'Save accommodation' }).click();
  await expect(form.getByText('Extra time in percent must be at most 300')).toBeVisible();
  await expect(form.getByLabel('Extra time (%)')).toBeFocused();

  await form.getByLabel('Extra time (%)').fill('');
  await form.getByLabel('Extra minutes').fill('15');
  await form.getByLabel('Extra minutes').press('Enter');
  const row = section.getByRole('row', { name: new RegExp(student.name) });
  await expect(row).toContainText('25 min (+15 min)');
  await expect(row).toContainText('The quiz’s');
  const attemptRow = page
    .getByRole('region', { name: 'Attempts table' })
    .getByRole('row', { name: new RegExp(student.name) });
  await expect(attemptRow).toContainText('Accommodated');
  await expectAccessible(page, 'quiz analytics with an accommodation');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  if (test.info().project.name === 'mobile') {
    // On a phone the attempts are cards (issue 32): the table's own box does not scroll sideways either.
    const table = page.getByRole('region', { name: 'Attempts table' });
    const [inner, outer] = await table.evaluate((element) => [element.scrollWidth, element.clientWidth]);
    expect(inner, 'the attempts table scrolls sideways on a phone').toBeLessThanOrEqual(outer);
  }

  await row.getByRole('button', { name: `Change the accommodation of ${student.name}` }).click();
  const editForm = page.getByRole('form', { name: `Accommodation of ${student.name}` });
  await expect(editForm.getByLabel('Extra minutes')).toHaveValue('15');
  await editForm.getByLabel('Extra time (%)').fill('50');
  await editForm.getByRole('button', { name: 'Save accommodation' }).click();
  await expect(row).toContainText('30 min (+15 min, +50%)');

  await row.getByRole('button', { name: `Remove the accommodation of ${student.name}` }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Remove accommodation' }).click();
  await expect(page.getByText('No student has an accommodation on this quiz.')).toBeVisible();
  await expect(attemptRow).not.toContainText('Accommodated');
});
