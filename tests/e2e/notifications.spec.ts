import { mkdirSync } from 'node:fs';
import { registeredStudent, teacherWithClass } from './api-setup.ts';
import { logInStudentThroughUi, logInTeacherThroughUi, openSecondBrowser } from './actors.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { fillTypedQuestion, startNewQuizInEditor } from './quiz-steps.ts';

const SCREENSHOT_DIR = 'docs/screenshots';

/**
 * The bell (issue 33 point 5, decision 059): a teacher publishes a quiz to a class through the
 * editor; its student's bell counts it, opens by keyboard onto the quiz, marks it read, and the
 * count is gone. The student's page asks on coming back to the front (and every minute).
 */
test('a published quiz reaches the student’s bell, read on open', async ({ page, browser }, testInfo) => {
  const { teacher, klass } = await teacherWithClass(page.request);
  const student = await registeredStudent(page.request, { classCode: klass.joinCode });
  const isDesktop = testInfo.project.name === 'desktop';

  // --- Student: nothing yet ------------------------------------------------------------------
  const { context: studentContext, page: studentPage } = await openSecondBrowser(browser, page, !isDesktop);
  await logInStudentThroughUi(studentPage, student);
  await expect(studentPage.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  // --- Teacher: publishes a quiz to the class ---------------------------------------------------
  await logInTeacherThroughUi(page, teacher);
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  const title = `Bell quiz ${Date.now().toString(36)}`;
  await startNewQuizInEditor(page, title, klass.name);
  await fillTypedQuestion(page, 1, { type: 'True or false', text: 'The sun is a star.', correct: true });
  await page.getByRole('button', { name: 'Save quiz' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/all-quiz$/);
  // The teacher's own bell stays quiet: the students of the class are told.
  await expect(page.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();

  // --- Student: the count, the panel, read ---------------------------------------------------
  // Coming back to the tab (its visibility changing) asks for the count at once, not waiting for the poll.
  await studentPage.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
  const bell = studentPage.getByRole('button', { name: 'Notifications, 1 unread' });
  await expect(bell).toBeVisible();
  await expect(studentPage.getByTestId('notification-badge')).toHaveText('1');
  await bell.focus();
  await studentPage.keyboard.press('Enter');
  const panel = studentPage.getByRole('dialog', { name: 'Notifications' });
  await expect(panel).toBeVisible();
  const entry = panel.getByRole('link', { name: new RegExp(`New quiz ${title} in ${klass.name}`) });
  await expect(entry).toBeVisible();
  await expect(entry).toContainText('New:');
  // Read on open: the count is gone while the panel still marks what was new.
  await expect(studentPage.getByRole('button', { name: 'Notifications', exact: true })).toBeVisible();
  await expect(studentPage.getByTestId('notification-badge')).toHaveCount(0);
  await expectAccessible(studentPage, 'notifications panel');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await studentPage.screenshot({ path: `${SCREENSHOT_DIR}/notifications-${testInfo.project.name}.png` });

  // Escape closes it and the focus returns to the bell.
  await studentPage.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await expect(studentPage.getByRole('button', { name: 'Notifications', exact: true })).toBeFocused();

  // Opened again: read now; its link leads to the quiz.
  await studentPage.keyboard.press('Enter');
  await expect(entry).toBeVisible();
  await expect(entry).not.toContainText('New:');
  await entry.click();
  await expect(studentPage).toHaveURL(/\/dashboard\/student\/quiz\/[\w-]+$/);
  await expect(studentPage.getByRole('heading', { name: title })).toBeVisible();
  await expect(panel).toBeHidden();
  await studentContext.close();
});
