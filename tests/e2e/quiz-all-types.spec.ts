import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures.ts';
import { currentQuestion, enterStudyMode, logInTeacherThroughUi } from './actors.ts';
import { registeredStudent, teacherWithClass } from './api-setup.ts';
import { fillTypedQuestion, startQuizInSecondBrowser, startNewQuizInEditor, type TypedQuestion } from './quiz-steps.ts';
import { patience } from '../../src/server/testing/patience.ts';

/**
 * Issue 20's proof, end to end at both sizes: a teacher builds a quiz with one question of
 * every type, an image and a formula; a student takes it; the teacher fixes the key and the
 * analytics and the student's own list show the regrade.
 */

/** A 48×48 PNG, uploaded from memory as a file the teacher picked. */
const SQUARE_PNG = readFileSync('tests/e2e/fixtures/checkerboard.png');
const IMAGE_ALT = 'A black and white checkerboard';

const QUESTIONS: TypedQuestion[] = [
  {
    type: 'Single choice',
    text: String.raw`What is \( \frac{1}{2} + \frac{1}{2} \)?`,
    options: ['1', '2', '1/4'],
    correct: '1',
  },
  {
    type: 'Multiple answers',
    text: 'Which of these are prime?',
    points: '2',
    options: ['2', '3', '4'],
    correct: ['2', '3'],
    scoring: 'Partial credit',
  },
  {
    type: 'True or false',
    text: 'The picture shows a checkerboard.',
    correct: true,
    image: { name: 'checkerboard.png', png: SQUARE_PNG, alt: IMAGE_ALT },
  },
  { type: 'Short text', text: 'Name the capital of France.', points: '1.5', accepted: ['Paris', 'Paname'] },
  { type: 'Number', text: 'What is pi to two decimal places?', value: '3.14', tolerance: '0.01' },
];
/** 1 + 2 + 1 + 1.5 + 1 */
const TOTAL = '6.5';

/**
 * What the student does on each question (found by a word of its text, whatever the order):
 * half the multiple answers (partial credit: 1 of 2 points) and Lutetia for Paris (wrong until
 * the key is fixed): 1 + 1 + 1 + 0 + 1 = 4 points.
 */
const STUDENT_ANSWERS: { match: string; answer(page: Page): Promise<void> }[] = [
  { match: 'pi to', answer: (page) => page.getByRole('textbox', { name: 'Your answer (a number)' }).fill('3,15') },
  { match: 'What is', answer: (page) => page.getByRole('radio', { name: '1', exact: true }).check() },
  { match: 'prime', answer: (page) => page.getByRole('checkbox', { name: '2', exact: true }).check() },
  { match: 'checkerboard', answer: (page) => page.getByRole('radio', { name: 'True', exact: true }).check() },
  { match: 'capital', answer: (page) => page.getByRole('textbox', { name: 'Your answer' }).fill('Lutetia') },
];

/** The formula on screen is KaTeX's, and no TeX source shows outside KaTeX's hidden MathML. */
async function expectFormulaRendered(page: Page) {
  const question = page.getByTestId('question-text');
  await expect(question.locator('.katex-html')).toBeVisible();
  const shown = await question.evaluate((element) => {
    const copy = element.cloneNode(true) as HTMLElement;
    for (const hidden of copy.querySelectorAll('.katex-mathml')) hidden.remove();
    return copy.textContent ?? '';
  });
  expect(shown).toContain('What is');
  expect(shown).not.toMatch(/\\frac|\\\(|\\\)/);
}

/** The question's image is on screen with its description, and its bytes loaded. */
async function expectImageLoaded(page: Page) {
  const image = page.getByRole('img', { name: IMAGE_ALT, exact: true });
  await expect(image).toBeVisible();
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
    .toBe(48);
}

test('a quiz of every type with an image and a formula, taken, then regraded after the key is fixed', async ({
  page,
  browser,
}, testInfo) => {
  // Two people, five questions and four accessibility checks: longer than the default minute.
  test.setTimeout(patience(180_000));
  const isDesktop = testInfo.project.name === 'desktop';
  const title = `All types ${Date.now().toString(36)}`;
  const { teacher, klass } = await teacherWithClass(page.request);
  const student = await registeredStudent(page.request, { classCode: klass.joinCode });

  // --- Teacher: builds the quiz in the editor ----------------------------------------------
  await logInTeacherThroughUi(page, teacher);
  await startNewQuizInEditor(page, title, klass.name);
  for (const [index, question] of QUESTIONS.entries()) await fillTypedQuestion(page, index + 1, question);
  await expectAccessible(page, 'quiz editor with every type');
  await page.getByRole('button', { name: 'Save quiz' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/all-quiz$/);
  const card = page.getByRole('article', { name: title });
  await expect(card).toContainText('5 questions');

  // --- Student: takes it ----------------------------------------------------------------------
  const { studentContext, studentPage, studentErrors } = await startQuizInSecondBrowser(
    browser,
    page,
    student,
    title,
    !isDesktop,
  );
  const seen = new Set<string>();
  for (let index = 0; index < QUESTIONS.length; index += 1) {
    await expect(studentPage.getByText(`Question ${index + 1} of ${QUESTIONS.length}`)).toBeVisible();
    const text = await currentQuestion(studentPage);
    const step = STUDENT_ANSWERS.find((candidate) => text.includes(candidate.match))!;
    expect(step, `a step for "${text}"`).toBeDefined();
    seen.add(step.match);
    if (step.match === 'What is') {
      await expectFormulaRendered(studentPage);
      await expectAccessible(studentPage, 'runner, the formula');
    }
    if (step.match === 'checkerboard') {
      await expectImageLoaded(studentPage);
      await expectAccessible(studentPage, 'runner, the image');
    } else {
      await expect(studentPage.getByRole('img', { name: IMAGE_ALT })).toHaveCount(0);
    }
    await step.answer(studentPage);
    if (index < QUESTIONS.length - 1) await studentPage.getByRole('button', { name: 'Next question' }).click();
  }
  expect(seen.size).toBe(QUESTIONS.length);
  await expect(studentPage.getByText(/unanswered/)).toHaveCount(0);
  await studentPage.getByRole('button', { name: 'Submit' }).click();
  await expect(studentPage.getByRole('heading', { name: 'Quiz submitted' })).toBeVisible();
  await expect(studentPage.getByTestId('result-score')).toHaveText(`4 / ${TOTAL}`);
  await expect(studentPage.getByTestId('result-accuracy')).toHaveText('61.54%');

  // --- Teacher: the analytics, then the key fixed on the edit screen --------------------------
  await page.reload();
  await expect(card).toContainText('1 attempt');
  await card.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/quiz-analytics\/[0-9a-f-]+$/);
  const analyticsUrl = page.url();
  const row = page.getByRole('row', { name: new RegExp(student.name) });
  await expect(row).toContainText(`4 / ${TOTAL}`);
  await expect(page.getByText(/Regraded on/)).toHaveCount(0);
  await expectAccessible(page, 'analytics before the regrade');

  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('note')).toContainText('Students have started this quiz');
  const shortText = page.getByRole('region', { name: 'Question 4', exact: true });
  await expect(shortText.getByLabel('Accepted answer 2 of question 4', { exact: true })).toHaveValue('Paname');
  // The key may change on a locked question: the student's Lutetia becomes right.
  await shortText.getByRole('button', { name: 'Add accepted answer' }).click();
  await shortText.getByLabel('Accepted answer 3 of question 4', { exact: true }).fill('Lutetia');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page).toHaveURL(analyticsUrl);
  await expect(page.getByText(/Regraded on .+\(1 attempt changed\)/)).toBeVisible();
  // Up by exactly the short text's 1.5 points.
  await expect(row).toContainText(`5.5 / ${TOTAL}`);
  await expectAccessible(page, 'analytics after the regrade');

  // --- Student: their list shows the new score ------------------------------------------------
  await studentPage.goto('/dashboard/student/quiz');
  await enterStudyMode(studentPage);
  const attempted = studentPage.getByRole('region', { name: 'Attempted' });
  await expect(attempted.getByRole('heading', { name: title })).toBeVisible();
  await expect(attempted).toContainText('84.62%');
  expect(studentErrors).toEqual([]);
  await studentContext.close();
});
