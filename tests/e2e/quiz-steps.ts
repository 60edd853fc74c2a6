import type { Browser, Page, Response } from '@playwright/test';
import { RIGHT_ANSWERS } from './api-setup.ts';
import { currentQuestion, logInStudentThroughUi, openQuizFromMenu, openSecondBrowser } from './actors.ts';
import { expect, expectAccessible } from './fixtures.ts';

/** The quiz editor's and a running attempt's steps, shared by the quiz scenarios. */

/** The questions a teacher types into the editor (the same as buildNewQuiz()'s). */
export const QUESTIONS = [
  { text: 'What is 2 + 2?', options: ['4', '3', '5'] },
  { text: 'What is the capital of France?', options: ['Paris', 'Rome', 'Madrid'] },
  { text: 'Which is a prime number?', options: ['7', '8', '9'] },
];

/** A datetime-local value (local time) some hours from now. */
export function localDateTimeIn(hours: number): string {
  const date = new Date(Date.now() + hours * 3_600_000);
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** In the quiz editor: adds question `number` with its options and marks the right one. */
export async function fillQuestion(page: Page, number: number, question: (typeof QUESTIONS)[number]) {
  await page.getByRole('button', { name: 'Add question' }).click();
  const editor = page.getByRole('region', { name: `Question ${number}`, exact: true });
  await editor.getByLabel('Question text').fill(question.text);
  // A new question starts as a single choice with two empty options.
  for (const [index, option] of question.options.entries()) {
    if (index > 1) await editor.getByRole('button', { name: 'Add option' }).click();
    await editor.getByLabel(`Option ${index + 1} of question ${number}`, { exact: true }).fill(option);
  }
  // An empty trailing option is dropped on preview and submit.
  await editor.getByRole('button', { name: 'Add option' }).click();
  const right = question.options.indexOf(RIGHT_ANSWERS[question.text]!);
  await editor.getByLabel(`Option ${right + 1} of question ${number} is correct`, { exact: true }).check();
}

/**
 * In a started attempt: picks `choices` (by question text) question after question and submits.
 * Returns the submission's response, checked to carry no answer key.
 */
export async function answerAndSubmit(page: Page, choices: Record<string, string>): Promise<Response> {
  await expect(page.getByRole('timer')).toBeVisible();
  const count = Object.keys(choices).length;
  for (let index = 0; index < count; index += 1) {
    const text = await currentQuestion(page);
    await page.getByRole('radio', { name: choices[text]!, exact: true }).check();
    if (index < count - 1) await page.getByRole('button', { name: 'Next question' }).click();
  }
  const submission = page.waitForResponse((response) => response.url().endsWith('/api/student/update-student'));
  await page.getByRole('button', { name: 'Submit' }).click();
  const submitted = await submission;
  expect(submitted.ok()).toBe(true);
  // No response before the moment carries the key: not even the one the screen was drawn from.
  expect(await submitted.text()).not.toMatch(/"(answer|correct|accepted|tolerance)"/);
  await expect(page.getByRole('heading', { name: 'Quiz submitted' })).toBeVisible();
  return submitted;
}

/**
 * The review of a submitted attempt of `answered` questions whose answers show after the deadline
 * (`answersVisibleAt`, as the server holds it): the student's own choices, no key, and the date.
 */
export async function expectReviewWithoutKey(page: Page, answersVisibleAt: string, answered: number) {
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
    answersVisibleAt,
  );
  await expect(page.getByTestId('answers-notice')).toHaveText(
    `Correct answers and the points of each question will be shown after the deadline, ${visibleAt}.`,
  );
  // Each question's points are a piece of the key (issue 30 point 1): its points only, never "0 / 1".
  await expect(page.getByTestId('review-points')).toHaveCount(answered);
  await expect(page.getByTestId('review-points').filter({ hasText: '/' })).toHaveCount(0);
  await expect(page.locator('[data-review="correct"]')).toHaveCount(0);
  await expect(page.locator('[data-review="wrong"]')).toHaveCount(0);
  await expect(page.locator('[data-review="chosen"]')).toHaveCount(answered);
  await expect(page.getByText('your answer', { exact: true })).toHaveCount(answered);
  await expect(page.getByText('correct answer', { exact: true })).toHaveCount(0);
  await expectAccessible(page, 'review before the answers are shown');
}

/** A question of any type as a teacher types it into the editor (issue 20); `points` as typed. */
export type TypedQuestion = { text: string; points?: string; image?: { name: string; png: Buffer; alt: string } } & (
  | { type: 'Single choice'; options: string[]; correct: string }
  | { type: 'Multiple answers'; options: string[]; correct: string[]; scoring: 'All or nothing' | 'Partial credit' }
  | { type: 'True or false'; correct: boolean }
  | { type: 'Short text'; accepted: string[] }
  | { type: 'Number'; value: string; tolerance: string }
  /** Prompt and match; an empty prompt is an extra match (decision 045). */
  | { type: 'Matching'; pairs: [string, string][] }
  | { type: 'Description (no answer)' }
);

/** In the quiz editor: adds question `number` of any type, with its points, image and key. */
export async function fillTypedQuestion(page: Page, number: number, question: TypedQuestion) {
  await page.getByRole('button', { name: 'Add question' }).click();
  const editor = page.getByRole('region', { name: `Question ${number}`, exact: true });
  await editor.getByLabel('Question type').selectOption({ label: question.type });
  if (question.points) await editor.getByRole('textbox', { name: /^Points/ }).fill(question.points);
  await editor
    .getByLabel(question.type === 'Description (no answer)' ? 'Text to show' : 'Question text')
    .fill(question.text);
  if (question.image) {
    const { name, png, alt } = question.image;
    await editor
      .getByLabel(`Image of question ${number} (optional)`)
      .setInputFiles({ name, mimeType: 'image/png', buffer: png });
    // Uploaded at once: the description box replaces the file box.
    await editor.getByRole('textbox', { name: new RegExp(`^Image of question ${number}: description`) }).fill(alt);
    await expect(editor.getByRole('img', { name: alt })).toBeVisible();
  }
  switch (question.type) {
    case 'Single choice':
    case 'Multiple answers': {
      // A new choice question has two empty options.
      for (const [index, option] of question.options.entries()) {
        if (index > 1) await editor.getByRole('button', { name: 'Add option' }).click();
        await editor.getByLabel(`Option ${index + 1} of question ${number}`, { exact: true }).fill(option);
      }
      const correct = typeof question.correct === 'string' ? [question.correct] : question.correct;
      for (const option of correct) {
        const position = question.options.indexOf(option) + 1;
        await editor.getByLabel(`Option ${position} of question ${number} is correct`, { exact: true }).check();
      }
      if (question.type === 'Multiple answers') {
        await editor.getByLabel('Scoring').selectOption({ label: question.scoring });
      }
      break;
    }
    case 'True or false':
      await editor
        .getByRole('group', { name: 'The statement is' })
        .getByRole('radio', { name: question.correct ? 'True' : 'False' })
        .check();
      break;
    case 'Short text':
      for (const [index, accepted] of question.accepted.entries()) {
        if (index > 0) await editor.getByRole('button', { name: 'Add accepted answer' }).click();
        await editor.getByLabel(`Accepted answer ${index + 1} of question ${number}`, { exact: true }).fill(accepted);
      }
      break;
    case 'Number':
      await editor.getByRole('textbox', { name: /^Correct value/ }).fill(question.value);
      await editor.getByRole('textbox', { name: /^Tolerance/ }).fill(question.tolerance);
      break;
    case 'Matching':
      // A new matching question has three empty pairs.
      for (const [index, [prompt, match]] of question.pairs.entries()) {
        if (index > 2) await editor.getByRole('button', { name: 'Add pair' }).click();
        await editor.getByLabel(`Prompt ${index + 1} of question ${number}`, { exact: true }).fill(prompt);
        await editor.getByLabel(`Match ${index + 1} of question ${number}`, { exact: true }).fill(match);
      }
      break;
    case 'Description (no answer)':
      await expect(editor.getByRole('textbox', { name: /^Points/ })).toHaveCount(0);
      break;
  }
}

/** The quiz editor opened for a new quiz: its title, class, a deadline tomorrow and 10 minutes. */
export async function startNewQuizInEditor(page: Page, title: string, className: string) {
  await page.goto('/dashboard/teacher/create-quiz');
  await page.getByLabel('Title').fill(title);
  await page.getByRole('combobox', { name: 'Class' }).selectOption({ label: className });
  await page.getByLabel('Deadline').fill(localDateTimeIn(24));
  await page.getByLabel('Maximum time (minutes)').fill('10');
}

/**
 * The student's side of a quiz test: a browser of the teacher page's size (a phone's touch too),
 * signed in, on the quiz's first question; its page errors and console errors are collected.
 */
export async function startQuizInSecondBrowser(
  browser: Browser,
  teacherPage: Page,
  student: { rollNumber: string; password: string },
  title: string,
  isPhone: boolean,
) {
  const {
    context: studentContext,
    page: studentPage,
    errors: studentErrors,
  } = await openSecondBrowser(browser, teacherPage, isPhone);
  await logInStudentThroughUi(studentPage, student);
  await openQuizFromMenu(studentPage, title);
  await studentPage.getByRole('button', { name: 'Start quiz' }).click();
  await expect(studentPage.getByRole('timer')).toBeVisible();
  return { studentContext, studentPage, studentErrors };
}
