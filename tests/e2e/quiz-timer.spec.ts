import { expect, expectAccessible, test } from './fixtures.ts';
import { logInStudentThroughUi, openQuizFromMenu } from './actors.ts';
import { registeredStudent, RIGHT_ANSWERS, teacherWithQuiz } from './api-setup.ts';
import { patience } from '../../src/server/testing/patience.ts';

test('the timer runs out on a 1-minute quiz and the attempt submits itself', async ({ page, request }, testInfo) => {
  test.skip(testInfo.project.name !== 'desktop', 'one run of this minute-long scenario is enough');
  test.setTimeout(patience(150_000));
  // A title with no spaces must wrap, not widen the page.
  const { quiz, klass } = await teacherWithQuiz(request, {
    maxTime: 1,
    // The review below shows the key: this quiz shows it right after submitting (decision 032).
    reviewAnswers: 'after-submit',
    title: `Unbroken${'x'.repeat(150)}${Date.now()}`,
  });
  const student = await registeredStudent(request, { classCode: klass.joinCode });
  await logInStudentThroughUi(page, student);

  await openQuizFromMenu(page, quiz.title);
  await expect(page.getByText('1 minute once you start')).toBeVisible();
  await page.getByRole('button', { name: 'Start quiz' }).click();

  const timer = page.getByRole('timer');
  await expect(timer).toHaveText(/0:5\d|1:00/);
  const questionText = await page.getByTestId('question-text').textContent();
  await page.getByRole('radio', { name: RIGHT_ANSWERS[questionText!]!, exact: true }).check();
  await expect(page.getByText('All answers saved')).toBeVisible();
  await expectAccessible(page, 'attempt in progress');
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // Nobody presses Submit: at 0:00 the attempt submits itself with the saved answer.
  await expect(page.getByRole('heading', { name: 'Time is up: your answers were submitted' })).toBeVisible({
    timeout: patience(75_000),
  });
  await expect(page.getByTestId('result-score')).toHaveText('1 / 3');
  await expect(page.getByTestId('result-accuracy')).toHaveText('33.33%');
  await expect(page.locator('[data-review="correct"]')).toHaveCount(3);
});
