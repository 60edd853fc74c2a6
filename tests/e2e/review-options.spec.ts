import { expect, expectAccessible, test } from './fixtures.ts';
import { currentQuestion, logInStudentThroughUi, openQuizFromMenu } from './actors.ts';
import { quizAsStudent, registeredStudent, RIGHT_ANSWERS, teacherWithQuiz } from './api-setup.ts';

/**
 * Issue 19 point 9 (decision 032): a quiz's answer key is hidden until its deadline. A student
 * submits a quiz with the default review options, sees their score, their own choices and when
 * the correct answers will be shown, and no correct answer, on screen or in what the server sent.
 */

/** The prime question is missed on purpose: 2 of 3 right. */
const CHOICES: Record<string, string> = { ...RIGHT_ANSWERS, 'Which is a prime number?': '8' };

test('a quiz’s answer key is hidden until its deadline', async ({ page, request }) => {
  const className = `Review-${Date.now().toString(36)}`;
  const { quiz, klass } = await teacherWithQuiz(request, { class: className });
  const student = await registeredStudent(request, { classCode: klass.joinCode });
  await logInStudentThroughUi(page, student);
  await openQuizFromMenu(page, quiz.title);
  await page.getByRole('button', { name: 'Start quiz' }).click();
  await expect(page.getByRole('timer')).toBeVisible();

  for (let index = 0; index < 3; index += 1) {
    const text = await currentQuestion(page);
    await page.getByRole('radio', { name: CHOICES[text]!, exact: true }).check();
    if (index < 2) await page.getByRole('button', { name: 'Next question' }).click();
  }
  const submission = page.waitForResponse((response) => response.url().endsWith('/api/student/update-student'));
  await page.getByRole('button', { name: 'Submit' }).click();
  const submitted = await submission;
  expect(submitted.ok()).toBe(true);
  // No response before the moment carries the key: not even the one the screen was drawn from.
  expect(await submitted.text()).not.toContain('"answer"');

  await expect(page.getByRole('heading', { name: 'Quiz submitted' })).toBeVisible();
  // The score shows right after submitting (the default).
  await expect(page.getByTestId('result-score')).toHaveText('2 / 3');
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  const { attempt } = await quizAsStudent(request, token, quiz._id);
  if (attempt?.status !== 'submitted') throw new Error('The attempt should be submitted');
  // The date as the client's formatDateTime writes it, in the browser's own time zone.
  const visibleAt = await page.evaluate(
    (iso) =>
      new Date(iso).toLocaleString('en-GB', {
        day: '2-digit',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      }),
    attempt.answersVisibleAt!,
  );
  await expect(page.getByTestId('answers-notice')).toHaveText(
    `Correct answers will be shown after the deadline, ${visibleAt}.`,
  );
  await expect(page.locator('[data-review="correct"]')).toHaveCount(0);
  await expect(page.locator('[data-review="wrong"]')).toHaveCount(0);
  await expect(page.locator('[data-review="chosen"]')).toHaveCount(3);
  await expect(page.getByText('your answer', { exact: true })).toHaveCount(3);
  await expect(page.getByText('correct answer', { exact: true })).toHaveCount(0);
  await expectAccessible(page, 'review before the answers are shown');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // Opened again later, the review still holds no key.
  const reopened = page.waitForResponse((response) => response.url().endsWith(`/api/quiz/${quiz._id}`));
  await page.reload();
  expect(await (await reopened).text()).not.toContain('"answer"');
  await expect(page.getByTestId('answers-notice')).toBeVisible();
  await expect(page.locator('[data-review="correct"]')).toHaveCount(0);
});
