import { expect, test, type APIRequestContext, type Page, type Request } from '@playwright/test';
import type { NewQuizPayload } from '../../src/shared/quizzes.ts';
import { currentQuestion, logInStudentThroughUi, openQuizFromMenu, enterStudyMode } from './actors.ts';
import { registeredStudent, RIGHT_ANSWERS, savedChoices, teacherWithQuiz, quizAsStudent } from './api-setup.ts';

/**
 * Review of issue 17 (wt-review17): attempts to break points 1-3 in Chromium.
 * EXPECTED TO FAIL on main at 7b8bb84 (bugs, see the review report):
 *  - 'a change of answer while "Submitting…" ...': the submission carries the page's choices as they
 *    were when Submit was pressed; a later choice is saved (200) but the stale one is scored.
 *  - 'two tabs: ...': a stale tab's submission overrides an acknowledged save of another tab.
 * The others pass (desktop and mobile) and document what was tried.
 */

const isAnswersSave = (request: Request) => request.method() === 'PUT' && request.url().endsWith('/answers');
const WRONG: Record<string, string> = {
  'What is 2 + 2?': '3',
  'What is the capital of France?': 'Rome',
  'Which is a prime number?': '8',
};

async function startQuizAsStudent(page: Page, request: APIRequestContext, quiz: Partial<NewQuizPayload> = {}) {
  const className = `Brk-${Date.now().toString(36)}`;
  const { quiz: created } = await teacherWithQuiz(request, { class: className, ...quiz });
  const student = await registeredStudent(request, { class: className });
  page.on('dialog', (dialog) => void dialog.accept().catch(() => {}));
  await logInStudentThroughUi(page, student);
  await openQuizFromMenu(page, created.title);
  await page.getByRole('button', { name: 'Start quiz' }).click();
  await expect(page.getByRole('timer')).toBeVisible();
  const token = (await page.evaluate(() => localStorage.getItem('token')))!;
  return { quizId: created._id, title: created.title, token, student };
}

async function pick(page: Page, table: Record<string, string>) {
  const text = await currentQuestion(page);
  const choice = table[text]!;
  await page.getByRole('radio', { name: choice, exact: true }).check();
  return { text, choice };
}
const nextQuestion = (page: Page) => page.getByRole('button', { name: 'Next question' }).click();

test('closing the tab 100 ms after a click keeps the choice', async ({ page, request, context }) => {
  const { quizId, token } = await startQuizAsStudent(page, request);
  const { text, choice } = await pick(page, RIGHT_ANSWERS);
  await page.waitForTimeout(100);
  await page.close({ runBeforeUnload: false });
  await expect.poll(() => savedChoices(request, token, quizId), { timeout: 5000 }).toMatchObject({ [text]: choice });
  void context;
});

test('closing the tab (confirming the leave dialog) 100 ms after a click keeps the choice', async ({
  page,
  request,
}) => {
  const { quizId, token } = await startQuizAsStudent(page, request);
  const { text, choice } = await pick(page, RIGHT_ANSWERS);
  await page.waitForTimeout(100);
  await page.close({ runBeforeUnload: true });
  await expect.poll(() => savedChoices(request, token, quizId), { timeout: 5000 }).toMatchObject({ [text]: choice });
});

test('reloading 100 ms after a click: resumed screen shows the choice', async ({ page, request }) => {
  const { quizId, token } = await startQuizAsStudent(page, request);
  const { text, choice } = await pick(page, RIGHT_ANSWERS);
  await page.waitForTimeout(100);
  await page.reload();
  await enterStudyMode(page);
  await expect(page.getByRole('timer')).toBeVisible();
  expect(await savedChoices(request, token, quizId)).toMatchObject({ [text]: choice });
  await expect(page.getByRole('radio', { name: choice, exact: true })).toBeChecked();
});

test('reloading with a slow answer save (800 ms): resumed screen shows the choice being saved', async ({
  page,
  request,
}) => {
  const { quizId, token } = await startQuizAsStudent(page, request);
  await page.route('**/api/quiz/*/answers', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 800));
    await route.continue().catch(() => {});
  });
  const { text, choice } = await pick(page, RIGHT_ANSWERS);
  await page.waitForTimeout(100);
  await page.reload();
  await enterStudyMode(page);
  await expect(page.getByRole('timer')).toBeVisible();
  await page.waitForTimeout(1500);
  const server = await savedChoices(request, token, quizId);
  const onScreen = await page.getByRole('radio', { name: choice, exact: true }).isChecked();
  console.log(`slow save + reload: server has ${JSON.stringify(server[text])}, screen checked=${onScreen}`);
  expect(onScreen).toBe(server[text] === choice);
});

test('a change of answer while "Submitting…" is acknowledged (200) and must be what is scored', async ({
  page,
  request,
}) => {
  const { quizId, token } = await startQuizAsStudent(page, request);
  for (let index = 0; index < 2; index += 1) {
    await pick(page, RIGHT_ANSWERS);
    await nextQuestion(page);
  }
  const saved = page.waitForResponse((response) => isAnswersSave(response.request()) && response.ok());
  const { text } = await pick(page, WRONG);
  await saved;
  // A slow server: the submission takes 1.5 s to get there.
  await page.route('**/api/student/update-student', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue();
  });
  const saveStatuses: number[] = [];
  page.on('response', (response) => {
    if (isAnswersSave(response.request())) saveStatuses.push(response.status());
  });
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.waitForTimeout(100);
  // The student corrects the last answer while the page says "Submitting…".
  await page.getByRole('radio', { name: RIGHT_ANSWERS[text]!, exact: true }).check();
  await expect(page.getByTestId('result-score')).toBeVisible({ timeout: 15_000 });
  const detail = await quizAsStudent(request, token, quizId);
  console.log(`save statuses after Submit: ${JSON.stringify(saveStatuses)}; score ${detail.attempt?.score}`);
  const last = detail.quiz.questions.find((question) => question.question_text === text)!;
  if (saveStatuses.includes(200))
    expect(last.selectedOption, 'an acknowledged save is scored').toBe(RIGHT_ANSWERS[text]);
});

test('two tabs: a stale tab submitting overrides a later acknowledged save of the other tab', async ({
  page,
  request,
  context,
}) => {
  const { quizId, token, title } = await startQuizAsStudent(page, request);
  // Tab B (this page): picks a wrong answer, saved.
  let saved = page.waitForResponse((response) => isAnswersSave(response.request()) && response.ok());
  const { text } = await pick(page, WRONG);
  await saved;
  // Tab A: the same student in another tab corrects it, saved (200).
  const other = await context.newPage();
  other.on('dialog', (dialog) => void dialog.accept().catch(() => {}));
  await other.goto('/dashboard/student');
  await enterStudyMode(other);
  await openQuizFromMenu(other, title);
  await expect(other.getByRole('timer')).toBeVisible();
  saved = other.waitForResponse((response) => isAnswersSave(response.request()) && response.ok());
  await other.getByRole('radio', { name: RIGHT_ANSWERS[text]!, exact: true }).check();
  const ack = await saved;
  expect(ack.status()).toBe(200);
  // Tab B submits what it shows.
  await page.bringToFront();
  for (let index = 0; index < 2; index += 1) await nextQuestion(page);
  await page.getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByTestId('result-score')).toBeVisible();
  const detail = await quizAsStudent(request, token, quizId);
  const first = detail.quiz.questions.find((question) => question.question_text === text)!;
  console.log(
    `two tabs: scored ${JSON.stringify(first.selectedOption)} for the question tab A last saved as ${RIGHT_ANSWERS[text]}`,
  );
  expect(first.selectedOption, 'the acknowledged save of tab A').toBe(RIGHT_ANSWERS[text]);
});

test('slow network (CDP latency 1 s): closing the tab 600 ms after a click (save in flight)', async ({
  page,
  request,
}) => {
  const { quizId, token } = await startQuizAsStudent(page, request);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 1000,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const { text, choice } = await pick(page, RIGHT_ANSWERS);
  await page.waitForTimeout(600);
  await page.close({ runBeforeUnload: false });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const server = await savedChoices(request, token, quizId);
  console.log(`slow close in flight: server has ${JSON.stringify(server[text])}`);
  expect(server).toMatchObject({ [text]: choice });
});

test('slow network (CDP latency 1 s): closing the tab 100 ms after a click (keepalive)', async ({ page, request }) => {
  const { quizId, token } = await startQuizAsStudent(page, request);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 1000,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const { text, choice } = await pick(page, RIGHT_ANSWERS);
  await page.waitForTimeout(100);
  await page.close({ runBeforeUnload: false });
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const server = await savedChoices(request, token, quizId);
  console.log(`slow close keepalive: server has ${JSON.stringify(server[text])}`);
  expect(server).toMatchObject({ [text]: choice });
});

test('leaving by the header product link (to /) 100 ms after a click', async ({ page, request }) => {
  const { quizId, token, title } = await startQuizAsStudent(page, request);
  const { text, choice } = await pick(page, RIGHT_ANSWERS);
  await page.waitForTimeout(100);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link').first().click();
  await expect(page.getByRole('timer')).toHaveCount(0);
  await expect.poll(() => savedChoices(request, token, quizId), { timeout: 5000 }).toMatchObject({ [text]: choice });
  void title;
});

test('Logout from the header 100 ms after a click', async ({ page, request }) => {
  const { quizId, token } = await startQuizAsStudent(page, request);
  const { text, choice } = await pick(page, RIGHT_ANSWERS);
  await page.waitForTimeout(100);
  await page.getByRole('button', { name: /log ?out/i }).click();
  await expect(page).toHaveURL(/\/auth/);
  await expect.poll(() => savedChoices(request, token, quizId), { timeout: 5000 }).toMatchObject({ [text]: choice });
});
