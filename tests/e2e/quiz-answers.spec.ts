import type { APIRequestContext, Page, Request } from '@playwright/test';
import type { NewQuizPayload } from '../../src/shared/quizzes.ts';
import { expect, test } from './fixtures.ts';
import { currentQuestion, logInStudentThroughUi, openQuizFromMenu } from './actors.ts';
import { registeredStudent, RIGHT_ANSWERS, saveChoicesElsewhere, savedChoices, teacherWithQuiz } from './api-setup.ts';

/**
 * Issue 17: every choice a student makes reaches the server, whichever way the attempt
 * screen is left (decision 022), and a resumed attempt shows what the server holds.
 */

const isAnswersSave = (request: Request) => request.method() === 'PUT' && request.url().endsWith('/answers');

/** A quiz of buildNewQuiz()'s three questions for a class of its own, started by a new student. */
async function startQuizAsStudent(page: Page, request: APIRequestContext, quiz: Partial<NewQuizPayload> = {}) {
  const className = `Answers-${Date.now().toString(36)}`;
  const { quiz: created } = await teacherWithQuiz(request, { class: className, ...quiz });
  const student = await registeredStudent(request, { class: className });
  await logInStudentThroughUi(page, student);
  await openQuizFromMenu(page, created.title);
  await page.getByRole('button', { name: 'Start quiz' }).click();
  await expect(page.getByRole('timer')).toBeVisible();
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  return { quizId: created._id, title: created.title, token };
}

/** Picks the right answer of the question on screen. */
async function pickRightAnswer(page: Page) {
  const text = await currentQuestion(page);
  const choice = RIGHT_ANSWERS[text]!;
  await page.getByRole('radio', { name: choice, exact: true }).check();
  return { text, choice };
}

const nextQuestion = (page: Page) => page.getByRole('button', { name: 'Next question' }).click();

/** Walks the questions from the first: each shows `chosen[its text]` selected, or nothing. */
async function expectChoicesOnScreen(page: Page, chosen: Record<string, string>, count = 3) {
  for (let index = 0; index < count; index += 1) {
    await expect(page.getByText(`Question ${index + 1} of ${count}`)).toBeVisible();
    const text = await currentQuestion(page);
    if (chosen[text]) {
      await expect(page.getByRole('radio', { name: chosen[text], exact: true })).toBeChecked();
    } else {
      for (const radio of await page.getByRole('radio').all()) await expect(radio).not.toBeChecked();
    }
    if (index < count - 1) await nextQuestion(page);
  }
}

test('on resume the screen shows exactly the answers the server holds', async ({ page, request }) => {
  const { quizId, title, token } = await startQuizAsStudent(page, request);
  const chosen: Record<string, string> = {};
  for (let index = 0; index < 2; index += 1) {
    // Each choice acknowledged by the server before going on: only the resume is under test.
    const saved = page.waitForResponse((response) => isAnswersSave(response.request()) && response.ok());
    const { text, choice } = await pickRightAnswer(page);
    chosen[text] = choice;
    await saved;
    await nextQuestion(page);
  }
  await page.getByRole('navigation', { name: 'Student menu' }).getByRole('link', { name: 'Quiz' }).click();
  await expect(page.getByRole('timer')).toHaveCount(0);
  // Meanwhile another tab of the same student answers the last question.
  const lastText = Object.keys(RIGHT_ANSWERS).find((text) => !(text in chosen))!;
  await saveChoicesElsewhere(request, token, quizId, { [lastText]: RIGHT_ANSWERS[lastText]! });
  expect(await savedChoices(request, token, quizId)).toEqual(RIGHT_ANSWERS);

  await openQuizFromMenu(page, title);
  await expectChoicesOnScreen(page, RIGHT_ANSWERS);
  await expect(page.getByText(/unanswered/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('result-score')).toHaveText('3 / 3');
});
