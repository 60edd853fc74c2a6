import type { APIRequestContext } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';
import { logInTeacherThroughUi } from './actors.ts';
import { createClass, quizAsStudent, registeredStudent, teacherWithQuiz } from './api-setup.ts';

/**
 * Decision 036's lifecycle through the teacher's screens: a typo fixed before anyone starts,
 * the key fixed after a student submitted (the analytics say "Regraded"), a copy for another
 * class, and Delete archiving the quiz that has attempts.
 */

/** A student of the class submits through the API, choosing 3 for 2 + 2 (wrong until the key is fixed). */
async function submitAsStudent(request: APIRequestContext, classCode: string, quizId: string) {
  const student = await registeredStudent(request, { classCode });
  const login = await request.post('/api/student/login', {
    data: { rollNumber: student.rollNumber, password: student.password },
  });
  const token = (await login.json()).data as string;
  const headers = { authorization: `Bearer ${token}` };
  expect((await request.post(`/api/quiz/${quizId}/start`, { headers, data: {} })).ok()).toBe(true);
  const { quiz } = await quizAsStudent(request, token, quizId);
  const choices: Record<string, string> = {
    'What is 2 + 2 ?': '3',
    'What is the capital of France?': 'Paris',
    'Which is a prime number?': '7',
  };
  const submitted = await request.post('/api/student/update-student', {
    headers,
    data: {
      quiz: {
        _id: quizId,
        questions: quiz.questions.map((question) => ({
          _id: question._id,
          selectedOption: choices[question.question_text],
        })),
      },
    },
  });
  expect(submitted.ok(), await submitted.text()).toBe(true);
}

test('a teacher fixes a typo, then the key after a student submitted, duplicates and archives', async ({
  page,
  request,
}) => {
  // Six screens and two accounts: near the 60 s default on a loaded 2-CPU machine.
  test.slow();
  const { teacher, token, quiz, klass } = await teacherWithQuiz(request, {
    class: `Lifecycle-${Date.now().toString(36)}`,
  });
  const otherClass = await createClass(request, token);
  await logInTeacherThroughUi(page, teacher);
  await page.goto(`/dashboard/teacher/quiz-analytics/${quiz._id}`);

  // Nobody started it: everything can change. A typo in the first question.
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Edit');
  const first = page.getByRole('region', { name: 'Question 1' });
  await expect(first.getByRole('button', { name: 'Remove question 1' })).toBeEnabled();
  await first.getByLabel('Question text').fill('What is 2 + 2 ?');
  await expectAccessible(page, 'edit quiz');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/quiz-analytics/${quiz._id}$`));
  await expect(page.getByText('What is 2 + 2 ?', { exact: true }).first()).toBeVisible();

  // A student submits; then the key of 2 + 2 is "fixed" to 3, which regrades the attempt.
  await submitAsStudent(request, klass.joinCode, quiz._id);
  await page.reload();
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('note')).toContainText('Students have started this quiz');
  const locked = page.getByRole('region', { name: 'Question 1' });
  await expect(locked.getByRole('button', { name: 'Remove question 1' })).toHaveCount(0);
  await expect(locked.getByRole('button', { name: 'Add option' })).toHaveCount(0);
  await expect(locked.getByLabel('Question type')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add question' })).toHaveCount(0);
  // Options keep their ids: the wording of one changes freely, and the right one moves to 3.
  await expect(locked.getByLabel('Option 2 of question 1', { exact: true })).toHaveValue('3');
  await locked.getByLabel('Option 1 of question 1', { exact: true }).fill('four');
  await locked.getByLabel('Option 2 of question 1 is correct', { exact: true }).check();
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(new RegExp(`/quiz-analytics/${quiz._id}$`));
  await expect(page.getByText(/Regraded on .+\(1 attempt changed\)/)).toBeVisible();
  await expectAccessible(page, 'analytics after a regrade');

  // A copy for the other class.
  await page.getByRole('link', { name: 'Duplicate' }).click();
  const duplicate = page.getByRole('dialog');
  await duplicate.getByLabel('Class').selectOption({ label: otherClass.name });
  await duplicate.getByLabel('Title').fill(`${quiz.title} again`);
  await duplicate.getByLabel('Deadline').fill('2099-01-01T10:00');
  await expectAccessible(page, 'duplicate dialog');
  await duplicate.getByRole('button', { name: 'Duplicate' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `${quiz.title} again` })).toBeVisible();
  await expect(page.getByText('No attempts made')).toBeVisible();

  // Delete the original: it has an attempt, so Archive (a second choice deletes the results).
  await page.goto(`/dashboard/teacher/quiz-analytics/${quiz._id}`);
  await page.getByRole('link', { name: 'Delete' }).click();
  const confirm = page.getByRole('alertdialog');
  await expect(confirm.getByRole('button', { name: 'Delete with results…' })).toBeVisible();
  await expectAccessible(page, 'delete dialog');
  await confirm.getByRole('button', { name: 'Archive' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/all-quiz$/);
  const card = page.getByRole('article', { name: quiz.title, exact: true });
  await expect(card.getByText('Archived')).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
});
