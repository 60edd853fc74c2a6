import { expect, expectAccessible, test } from './fixtures.ts';
import {
  currentQuestion,
  enterStudyMode,
  logInStudentThroughUi,
  logInTeacherThroughUi,
  openQuizFromMenu,
} from './actors.ts';
import { registeredStudent, teacherWithClass } from './api-setup.ts';
import { fillTypedQuestion, startNewQuizInEditor } from './quiz-steps.ts';
import { patience } from '../../src/server/testing/patience.ts';

/**
 * Issue 30 point 4, decision 046, end to end at both sizes: a teacher writes a quiz with an
 * essay (and its marking guidance), a student writes the essay, the attempt awaits marking, the
 * teacher marks it on the marking screen reached from the analytics, and the student sees the
 * final score with the essay's points and the teacher's comment.
 */

const ESSAY = 'Explain why ice floats on water.';
const GUIDANCE = 'Density, and why: hydrogen bonds.';
const ANSWER = 'Ice is less dense than liquid water,\nbecause its molecules are held apart in a lattice.';
const COMMENT = 'Good: name the hydrogen bonds next time.';

test('an essay written, awaiting marking, marked by the teacher, its result seen by the student', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(patience(180_000));
  const isDesktop = testInfo.project.name === 'desktop';
  const size = isDesktop ? 'desktop' : 'mobile';
  const title = `Essay ${Date.now().toString(36)}`;
  const { teacher, klass } = await teacherWithClass(page.request);
  const student = await registeredStudent(page.request, { classCode: klass.joinCode });

  // --- Teacher: a true-false question and an essay of 4 points with guidance ------------------
  await logInTeacherThroughUi(page, teacher);
  await startNewQuizInEditor(page, title, klass.name);
  await page.getByLabel('Show the correct answers').selectOption({ label: 'Right after submitting' });
  await fillTypedQuestion(page, 1, {
    type: 'True or false',
    text: 'Water boils at 100 °C at sea level.',
    correct: true,
  });
  await page.getByRole('button', { name: 'Add question' }).click();
  const essayEditor = page.getByRole('region', { name: 'Question 2', exact: true });
  await essayEditor.getByLabel('Question type').selectOption({ label: 'Essay (marked by hand)' });
  await essayEditor.getByRole('textbox', { name: /^Points/ }).fill('4');
  await essayEditor.getByLabel('Question text').fill(ESSAY);
  await essayEditor.getByLabel('Marking guidance (optional)').fill(GUIDANCE);
  await expectAccessible(page, 'quiz editor with an essay');
  await page.getByRole('button', { name: 'Save quiz' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/all-quiz$/);

  // --- Student: writes the essay ------------------------------------------------------------
  const studentContext = await browser.newContext({
    viewport: page.viewportSize()!,
    isMobile: !isDesktop,
    hasTouch: !isDesktop,
  });
  const studentPage = await studentContext.newPage();
  const seenByStudent: string[] = [];
  studentPage.on('response', (response) => {
    if (response.url().includes('/api/'))
      void response.text().then(
        (text) => seenByStudent.push(text),
        () => {},
      );
  });
  await logInStudentThroughUi(studentPage, student);
  await openQuizFromMenu(studentPage, title);
  await studentPage.getByRole('button', { name: 'Start quiz' }).click();
  for (let index = 0; index < 2; index += 1) {
    await expect(studentPage.getByText(`Question ${index + 1} of 2`)).toBeVisible();
    if ((await currentQuestion(studentPage)).includes('ice')) {
      const box = studentPage.getByRole('textbox', { name: 'Your answer' });
      await box.fill(ANSWER);
      await expect(studentPage.getByText(/Your teacher marks this answer/)).toBeVisible();
      await expectAccessible(studentPage, 'runner, the essay');
      await studentPage.screenshot({ path: testInfo.outputPath(`essay-runner-${size}.png`), fullPage: true });
    } else {
      await studentPage.getByRole('radio', { name: 'True', exact: true }).check();
    }
    if (index === 0) await studentPage.getByRole('button', { name: 'Next question' }).click();
  }
  await studentPage.getByRole('button', { name: 'Submit' }).click();
  await expect(studentPage.getByRole('heading', { name: 'Quiz submitted' })).toBeVisible();
  // No final score yet: awaiting marking, with the points of the true-false so far.
  await expect(studentPage.getByTestId('score-notice')).toHaveText(/Awaiting marking.*Points so far: 1 of 5\./);
  await expect(studentPage.getByTestId('result-score')).toHaveCount(0);
  await expect(studentPage.getByText('Awaiting marking by your teacher')).toBeVisible();

  // --- Teacher: the analytics link to the marking screen; the essay is marked -----------------
  await page.goto('/dashboard/teacher/all-quiz');
  await page.getByRole('article', { name: title }).getByRole('link', { name: title }).click();
  const row = page.getByRole('row', { name: new RegExp(student.name) });
  await expect(row).toContainText('so far: awaiting marking');
  await page.getByRole('link', { name: 'Mark essays (1 awaiting)' }).click();
  await expect(page).toHaveURL(/\/quiz-analytics\/[0-9a-f-]+\/marking$/);
  const essay = page.getByRole('group', { name: new RegExp(student.name) });
  await expect(essay).toContainText('because its molecules are held apart');
  await essay.getByText('Marking guidance').click();
  await expect(essay).toContainText(GUIDANCE);
  await expectAccessible(page, 'marking screen');
  await page.screenshot({ path: testInfo.outputPath(`essay-marking-${size}.png`), fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  // Too many points: said at the field, nothing sent.
  await essay.getByRole('textbox', { name: /^Points/ }).fill('5');
  await essay.getByRole('button', { name: 'Save mark' }).click();
  await expect(essay.getByText('At most 4 points: what the question is worth')).toBeVisible();
  await essay.getByRole('textbox', { name: /^Points/ }).fill('3,5');
  await essay.getByLabel('Comment for the student (optional)').fill(COMMENT);
  await essay.getByRole('button', { name: 'Save mark' }).click();
  await expect(page.getByText('No essays await marking')).toBeVisible();
  await page.getByRole('button', { name: 'Marked', exact: true }).click();
  await expect(page.getByRole('group', { name: new RegExp(student.name) })).toContainText('Marked 3.5 / 4 points');

  await page.getByRole('link', { name: 'Quiz analytics' }).click();
  await expect(row).toContainText('4.5 / 5');
  await expect(row).not.toContainText('awaiting marking');

  // --- Student: the final score, the essay's points and the comment ---------------------------
  await studentPage.goto('/dashboard/student/quiz');
  await enterStudyMode(studentPage);
  const attempted = studentPage.getByRole('region', { name: 'Attempted' });
  await expect(attempted).toContainText('4.5 / 5');
  await attempted
    .getByRole('link', { name: new RegExp(title) })
    .first()
    .click();
  await expect(studentPage.getByTestId('result-score')).toHaveText('4.5 / 5');
  const reviewed = studentPage.getByTestId('review-question').filter({ hasText: ESSAY });
  await expect(reviewed.getByTestId('review-points')).toHaveText('3.5 / 4 points');
  await expect(reviewed).toContainText(COMMENT);
  await expectAccessible(studentPage, 'review with the marked essay');
  await studentPage.screenshot({ path: testInfo.outputPath(`essay-review-${size}.png`), fullPage: true });
  // The marking guidance never reached the student.
  expect(seenByStudent.join('\n')).not.toContain('hydrogen bonds.');
  await studentContext.close();
});
