import { expect, test } from './fixtures.ts';
import { logInStudentThroughUi, openQuizFromMenu } from './actors.ts';
import { answerAndSubmit, expectReviewWithoutKey } from './quiz-steps.ts';
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
  await answerAndSubmit(page, CHOICES);

  // The score shows right after submitting (the default).
  await expect(page.getByTestId('result-score')).toHaveText('2 / 3');
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  const { attempt } = await quizAsStudent(request, token, quiz._id);
  if (attempt?.status !== 'submitted') throw new Error('The attempt should be submitted');
  await expectReviewWithoutKey(page, attempt.answersVisibleAt!, 3);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // Opened again later, the review still holds no key.
  const reopened = page.waitForResponse((response) => response.url().endsWith(`/api/quiz/${quiz._id}`));
  await page.reload();
  expect(await (await reopened).text()).not.toContain('"answer"');
  await expect(page.getByTestId('answers-notice')).toBeVisible();
  await expect(page.locator('[data-review="correct"]')).toHaveCount(0);
});
