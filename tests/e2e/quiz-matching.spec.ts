import { expect, expectAccessible, test } from './fixtures.ts';
import { currentQuestion, enterStudyMode, logInTeacherThroughUi } from './actors.ts';
import { registeredStudent, teacherWithClass } from './api-setup.ts';
import { fillTypedQuestion, startQuizInSecondBrowser, localDateTimeIn, type TypedQuestion } from './quiz-steps.ts';
import { patience } from '../../src/server/testing/patience.ts';

/**
 * Issue 30 point 4 (decision 045), end to end at both sizes: a teacher writes a description and
 * a matching question in the editor; a student reads the one and answers the other with a
 * select per prompt; the score counts each prompt as an equal share and the description as
 * nothing; the teacher's analytics list the answer.
 */

const DESCRIPTION = 'Read carefully: the next questions are about the body.';
const QUESTIONS: TypedQuestion[] = [
  { type: 'Description (no answer)', text: DESCRIPTION },
  {
    type: 'Matching',
    text: 'Match each organ to what it does.',
    points: '3',
    pairs: [
      ['heart', 'pumps blood'],
      ['lungs', 'exchange gases'],
      ['kidneys', 'filter blood'],
      ['', 'digest food'],
    ],
  },
  { type: 'True or false', text: 'The heart is a muscle.', correct: true },
];

test('a description and a matching question, written, taken and scored by equal shares', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(patience(150_000));
  const isDesktop = testInfo.project.name === 'desktop';
  const title = `Matching ${Date.now().toString(36)}`;
  const { teacher, klass } = await teacherWithClass(page.request);
  const student = await registeredStudent(page.request, { classCode: klass.joinCode });

  // --- Teacher: writes the quiz ---------------------------------------------------------------
  await logInTeacherThroughUi(page, teacher);
  await page.goto('/dashboard/teacher/create-quiz');
  await page.getByLabel('Title').fill(title);
  await page.getByRole('combobox', { name: 'Class' }).selectOption({ label: klass.name });
  await page.getByLabel('Deadline').fill(localDateTimeIn(24));
  await page.getByLabel('Maximum time (minutes)').fill('10');
  for (const [index, question] of QUESTIONS.entries()) await fillTypedQuestion(page, index + 1, question);
  await expectAccessible(page, 'quiz editor with a description and a matching question');
  await page
    .getByRole('region', { name: 'Question 2', exact: true })
    .screenshot({ path: testInfo.outputPath('matching-editor.png') });
  await page.getByRole('button', { name: 'Save quiz' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/all-quiz$/);
  const card = page.getByRole('article', { name: title });
  // The description is no question.
  await expect(card).toContainText('2 questions');

  // --- Student: reads, matches, submits ------------------------------------------------------
  const { studentContext, studentPage, studentErrors } = await startQuizInSecondBrowser(
    browser,
    page,
    student,
    title,
    !isDesktop,
  );
  // The description comes first, where the teacher put it, unnumbered and with nothing to answer.
  await expect(studentPage.getByText('Read this before going on')).toBeVisible();
  expect(await currentQuestion(studentPage)).toContain(DESCRIPTION);
  await expect(studentPage.getByRole('combobox')).toHaveCount(0);
  await expectAccessible(studentPage, 'runner, a description');
  await studentPage.getByRole('button', { name: 'Next question' }).click();

  for (let number = 1; number <= 2; number += 1) {
    await expect(studentPage.getByText(`Question ${number} of 2`)).toBeVisible();
    const text = await currentQuestion(studentPage);
    if (text.includes('organ')) {
      const heart = studentPage.getByRole('combobox', { name: 'heart' });
      // Every match is offered, the extra one too; no option value says which prompt it belongs to.
      const offered = await heart.getByRole('option').allTextContents();
      expect(offered.sort()).toEqual(['Choose…', 'digest food', 'exchange gases', 'filter blood', 'pumps blood']);
      // By keyboard: the prompt's select takes the focus and the arrow keys.
      await heart.focus();
      await heart.selectOption({ label: 'pumps blood' });
      await studentPage.getByRole('combobox', { name: 'lungs' }).selectOption({ label: 'exchange gases' });
      // One wrong: kidneys matched to the extra match.
      await studentPage.getByRole('combobox', { name: 'kidneys' }).selectOption({ label: 'digest food' });
      await expectAccessible(studentPage, 'runner, a matching question');
      await studentPage
        .getByTestId('quiz-stage')
        .screenshot({ path: testInfo.outputPath(`matching-runner-${testInfo.project.name}.png`) });
    } else {
      await studentPage.getByRole('radio', { name: 'True', exact: true }).check();
    }
    if (number < 2) await studentPage.getByRole('button', { name: 'Next question' }).click();
  }
  // A reload keeps the matches (saved as the student went); study mode asks for full screen again.
  studentPage.on('dialog', (dialog) => void dialog.accept());
  await studentPage.reload();
  await enterStudyMode(studentPage);
  await expect(studentPage.getByRole('timer')).toBeVisible();
  await studentPage.getByRole('button', { name: 'Next question' }).click();
  await studentPage.getByRole('button', { name: 'Next question' }).click();
  await expect(studentPage.getByRole('button', { name: 'Submit' })).toBeVisible();
  await expect(studentPage.getByText(/unanswered/)).toHaveCount(0);
  await studentPage.getByRole('button', { name: 'Submit' }).click();
  await expect(studentPage.getByRole('heading', { name: 'Quiz submitted' })).toBeVisible();
  // 2 of 3 prompts of 3 points, and 1: 3 of 4 (the description counts for nothing).
  await expect(studentPage.getByTestId('result-score')).toHaveText('3 / 4');
  await expect(studentPage.getByTestId('result-accuracy')).toHaveText('75%');
  await expectAccessible(studentPage, 'review before the answers are shown');
  expect(studentErrors).toEqual([]);
  await studentContext.close();

  // --- Teacher: the analytics -------------------------------------------------------------------
  await page.reload();
  await card.getByRole('link', { name: title }).click();
  const row = page.getByRole('row', { name: new RegExp(student.name) });
  await expect(row).toContainText('3 / 4');
  await expect(row).toContainText('heart → pumps blood, lungs → exchange gases, and kidneys → digest food');
  await expect(page.getByText('Correct matches:')).toBeVisible();
  await expectAccessible(page, 'analytics with a matching question');
});
