import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { TeacherAssignment } from '../../src/shared/assignments.ts';
import { createClass, teacherWithClass, uploadLibraryFile } from './api-setup.ts';
import { enterStudyMode, openSecondBrowser, signInByToken } from './actors.ts';
import { handInThroughUi } from './assignment-steps.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { addQuiz, signUpStudent, takeQuiz } from './progress-setup.ts';
import { localDateTimeIn } from './quiz-steps.ts';

/**
 * Issue 33's proof, the daily loop of a class at both sizes (decisions 058 and 061–064). Through
 * the UI: a teacher posts an assignment with a PDF to two classes; Ada hands in text and an image,
 * takes it back and hands in again; once the due time has passed Ben hands in, late by the
 * server's clock; Cleo never does and shows as missing; the teacher grades, comments and returns;
 * Ada follows the bell to her grade and feedback and replies privately, and the teacher follows
 * the bell to her reply; the gradebook shows both quizzes and the assignment, and its CSV holds
 * the scores and averages this test computes (decision 062: points earned over points possible).
 * Accounts, classes, the library's PDF and the quiz attempts are set up through the API.
 */

const PDF = { path: 'tests/e2e/fixtures/fractions-worksheet.pdf', mimeType: 'application/pdf' };
const IMAGE = 'tests/e2e/fixtures/checkerboard.png';
const ASSIGNMENT_POINTS = 20;
/** buildNewQuiz's three questions, a point each. */
const QUIZ_POINTS = 3;

/** The bell of the page's header, asked for its count now (as coming back to the tab does), then opened. */
async function openBell(page: Page) {
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
  await page.getByRole('button', { name: /^Notifications, \d+ unread$/ }).click();
  return page.getByRole('dialog', { name: 'Notifications' });
}

test('an assignment’s whole loop: posted, handed in on time, late and never, graded, returned, discussed, in the gradebook', async ({
  page,
  browser,
  baseURL,
}, testInfo) => {
  const isPhone = testInfo.project.name === 'mobile';
  const suffix = Date.now().toString(36);
  /** A student's own browser beside the teacher's (signed in by their token), on their dashboard or `at`. */
  const studentBrowser = async (student: { token: string }, at = '/dashboard/student') => {
    const opened = await openSecondBrowser(browser, page, isPhone);
    await signInByToken(opened.context, baseURL!, { token: student.token, role: 'student' });
    await opened.page.goto(at);
    await enterStudyMode(opened.page);
    return opened;
  };

  // --- Set-up (API): a teacher with two classes, three students, two quizzes taken, a PDF in the library.
  // The students are in the first class by name, the one the grading view opens on.
  const { token, klass } = await teacherWithClass(page.request, `Earth science ${suffix}`);
  const other = await createClass(page.request, token, `Physics ${suffix}`);
  const [ada, ben, cleo] = await Promise.all(
    ['Ada Okafor', 'Ben Lindqvist', 'Cleo Marchetti'].map((name) => signUpStudent(page.request, name, klass.joinCode)),
  );
  const quizzes = [
    await addQuiz(page.request, { token }, klass.name),
    await addQuiz(page.request, { token }, klass.name),
  ];
  // What each earns: right answers per quiz (null: not taken, due tomorrow) and the assignment's points (null: missing).
  const results: { student: typeof ada; quizzes: (number | null)[]; grade: number | null }[] = [
    { student: ada!, quizzes: [3, 2], grade: 17.5 },
    { student: ben!, quizzes: [1, null], grade: 12 },
    { student: cleo!, quizzes: [2, null], grade: null },
  ];
  await Promise.all(
    results.map(async ({ student, quizzes: rights }) => {
      for (const [index, right] of rights.entries())
        if (right !== null) await takeQuiz(page.request, student!, quizzes[index]!._id, right);
    }),
  );
  await uploadLibraryFile(page.request, token, klass.id, PDF);

  // --- The teacher posts it to both classes, with the PDF from the library.
  await signInByToken(page.context(), baseURL!, { token, role: 'teacher' });
  await page.goto(`/dashboard/teacher/assignments/new?class=${klass.id}`);
  const title = `Volcano report ${suffix}`;
  await page.getByRole('textbox', { name: 'Title' }).fill(title);
  await page
    .getByRole('textbox', { name: 'Instructions' })
    .fill('Read the worksheet, then explain **why** a volcano erupts. Add a drawing.');
  await expect(page.getByRole('checkbox', { name: klass.name })).toBeChecked();
  await page.getByRole('checkbox', { name: other.name }).check();
  await page.getByRole('textbox', { name: 'Points' }).fill(String(ASSIGNMENT_POINTS));
  await page.getByLabel('Due', { exact: true }).fill(localDateTimeIn(48));
  await page.getByRole('button', { name: 'Attach from library' }).click();
  const picker = page.getByRole('dialog', { name: 'Attach from your library' });
  await picker.getByRole('button', { name: 'Attach fractions-worksheet.pdf' }).click();
  await expect(picker.getByRole('button', { name: 'fractions-worksheet.pdf is attached' })).toBeDisabled();
  await picker.getByRole('button', { name: 'Done' }).click();
  await expectAccessible(page, 'the assignment editor, filled');
  await page.getByRole('button', { name: 'Create assignment' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/assignments\/[0-9a-f-]{36}$/);
  const assignmentId = page.url().split('/').pop()!;
  // Each class name isolated (U+2068…U+2069) in the list, so a name in another script keeps its order.
  await expect(page.getByText(`\u2068${klass.name}\u2069 and \u2068${other.name}\u2069`)).toBeVisible();

  // --- Ada: the PDF opens; text and an image, handed in, taken back, changed, handed in again.
  const adaBrowser = await studentBrowser(ada!);
  const adaPage = adaBrowser.page;
  await adaPage
    .getByRole('region', { name: 'Assignments' })
    .getByRole('link', { name: new RegExp(title) })
    .click();
  await expect(adaPage.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const pdfAddress = await adaPage.getByRole('link', { name: /fractions-worksheet\.pdf/ }).getAttribute('href');
  const pdf = await adaPage.request.get(pdfAddress!);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  expect(Buffer.compare(await pdf.body(), readFileSync(PDF.path))).toBe(0);
  const answer = adaPage.getByRole('textbox', { name: 'Your answer' });
  await answer.fill('Magma is lighter than the rock around it, so it rises.');
  await expect(adaPage.getByTestId('draft-status')).toHaveText('Saved');
  await adaPage.getByLabel('Add a file').setInputFiles(IMAGE);
  await expect(adaPage.getByRole('button', { name: 'View checkerboard.png' })).toBeVisible();
  await adaPage.getByLabel('Add a file').setInputFiles(PDF.path);
  await expect(adaPage.getByRole('button', { name: 'View fractions-worksheet.pdf' })).toBeVisible();
  await expectAccessible(adaPage, 'a draft with a file');
  await handInThroughUi(adaPage, { isChecked: false });
  await adaPage.getByRole('button', { name: 'Take back' }).click();
  await expect(answer).toHaveValue('Magma is lighter than the rock around it, so it rises.');
  const finalText = 'Magma is lighter than the rock around it, so it rises; gas pressure makes it burst out.';
  await answer.fill(finalText);
  await handInThroughUi(adaPage, { isChecked: false });
  await expect(adaPage.getByText(finalText)).toBeVisible();
  await expect(adaPage.getByText('Late', { exact: true })).toHaveCount(0);
  // She leaves for her list (the bell leads her back later).
  await adaPage.getByRole('link', { name: 'All assignments' }).click();

  // --- The due time passes: the teacher moves it to now (set-up; the server judges what comes after).
  const headers = { authorization: `Bearer ${token}` };
  const read = (await (await page.request.get(`/api/assignments/${assignmentId}`, { headers })).json())
    .data as TeacherAssignment;
  const moved = await page.request.put(`/api/assignments/${assignmentId}`, {
    headers,
    data: {
      classIds: read.classes.map((entry) => entry._id),
      title: read.title,
      instructions: read.instructions,
      points: read.points,
      dueAt: new Date().toISOString(),
      acceptLate: read.acceptLate,
      publishAt: read.publishAt,
      attachments: read.attachments.map((attachment) => attachment._id),
      version: read.version,
    },
  });
  expect(moved.ok(), await moved.text()).toBe(true);

  // --- Ben hands in after it: accepted, marked late.
  const benBrowser = await studentBrowser(ben!, `/dashboard/student/assignments/${assignmentId}`);
  const benPage = benBrowser.page;
  await expect(
    benPage.getByText('The due time has passed. You can still hand it in: it will be marked late.'),
  ).toBeVisible();
  await benPage.getByRole('textbox', { name: 'Your answer' }).fill('Pressure builds up under the crust.');
  await handInThroughUi(benPage, { says: /marked late/, isChecked: false });
  await expect(benPage.getByRole('region', { name: 'Your work' }).getByText('Late', { exact: true })).toBeVisible();
  await benBrowser.context.close();
  expect(benBrowser.errors, 'Ben’s page errors').toEqual([]);

  // --- The teacher: on time, late, missing; grades, comments and returns.
  await page.reload();
  const students = page.getByRole('list', { name: 'Students' });
  const rowOf = (name: string) => students.getByRole('button', { name: new RegExp(name) });
  await expect(rowOf(ada!.name).getByText('Handed in', { exact: true })).toBeVisible();
  await expect(rowOf(ben!.name)).toContainText('Handed in late');
  await expect(rowOf(cleo!.name)).toContainText('Missing');
  await rowOf(ada!.name).click();
  const adaPanel = page.getByRole('region', { name: `Hand-in of ${ada!.name}` });
  await expect(adaPanel.getByText(finalText)).toBeVisible();
  await adaPanel.getByRole('button', { name: 'View checkerboard.png' }).click();
  const drawing = adaPanel.getByRole('img', { name: 'checkerboard.png' });
  await expect.poll(() => drawing.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  // Her PDF in the page, in the browser's own viewer: our page may frame it (a blocked frame would
  // show Chromium's error page, and its CSP report fails the test as a console error).
  await adaPanel.getByRole('button', { name: 'View fractions-worksheet.pdf' }).click();
  const pdfFrame = adaPanel.getByTitle('PDF: fractions-worksheet.pdf');
  await expect(pdfFrame).toBeVisible();
  await expect
    .poll(
      () =>
        page
          .frames()
          .find((frame) => frame.url().includes('/api/hand-in-files/'))
          ?.url() ?? '',
    )
    .toMatch(/^https?:\/\//);
  const feedback = 'Clear explanation. Label the magma chamber in the drawing.';
  await adaPanel.getByRole('textbox', { name: 'Points' }).fill(String(results[0]!.grade));
  await adaPanel.getByRole('textbox', { name: 'Feedback for the student' }).fill(feedback);
  await adaPanel.getByRole('button', { name: 'Save grade' }).click();
  await expect(rowOf(ada!.name)).toContainText('Graded');
  await adaPanel.getByRole('button', { name: 'Return to the student' }).click();
  await expect(rowOf(ada!.name)).toContainText('Returned');
  const teacherComment = 'Which gas builds the pressure?';
  await adaPanel.getByLabel('Add a private comment').fill(teacherComment);
  await adaPanel.getByRole('button', { name: 'Send' }).click();
  await expect(adaPanel.getByText(teacherComment)).toBeVisible();
  await expectAccessible(page, 'the grading view');

  await rowOf(ben!.name).click();
  const benPanel = page.getByRole('region', { name: `Hand-in of ${ben!.name}` });
  await benPanel.getByRole('textbox', { name: 'Points' }).fill(String(results[1]!.grade));
  await benPanel.getByRole('textbox', { name: 'Feedback for the student' }).fill('Late, and too short: say why.');
  await benPanel.getByRole('button', { name: 'Save grade' }).click();
  await expect(rowOf(ben!.name)).toContainText('Graded');
  await page.getByRole('button', { name: 'Return all graded' }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Return all' }).click();
  await expect(rowOf(ben!.name)).toContainText('Returned');
  await expect(rowOf(cleo!.name)).toContainText('Missing');

  // --- Ada: the bell leads to her grade and feedback; she replies privately.
  const adaBell = await openBell(adaPage);
  await adaBell.getByRole('link', { name: new RegExp(`${title} was returned with 17\\.5`) }).click();
  await expect(adaPage).toHaveURL(new RegExp(`/dashboard/student/assignments/${assignmentId}$`));
  await expect(adaPage.getByTestId('returned-grade')).toContainText('17.5');
  await expect(adaPage.getByText(feedback)).toBeVisible();
  await expect(adaPage.getByText(teacherComment)).toBeVisible();
  const reply = 'Carbon dioxide and water vapour, I think.';
  await adaPage.getByLabel('Add a private comment').fill(reply);
  await adaPage.getByRole('button', { name: 'Send' }).click();
  await expect(adaPage.getByRole('listitem').filter({ hasText: reply })).toContainText('You');
  await expectAccessible(adaPage, 'returned work with its thread');
  await adaBrowser.context.close();
  expect(adaBrowser.errors, 'Ada’s page errors').toEqual([]);

  // --- The teacher: the bell leads to Ada's hand-in with her reply.
  const teacherBell = await openBell(page);
  await teacherBell.getByRole('link', { name: new RegExp(`${ada!.name} commented on ${title}`) }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/teacher/assignments/${assignmentId}\\?student=`));
  await expect(page.getByRole('region', { name: `Hand-in of ${ada!.name}` }).getByText(reply)).toBeVisible();

  // --- The gradebook: both quizzes and the assignment; its CSV as computed here.
  await page.goto(`/dashboard/teacher/classes/${klass.id}/gradebook`);
  const table = page.getByRole('table');
  for (const item of [title, ...quizzes.map((quiz) => quiz.title)]) await expect(table).toContainText(item);
  await expect(table.getByRole('row', { name: new RegExp(cleo!.name) })).toContainText('Missing');
  // (axe-core checks the gradebook as the test ends on it: fixtures.ts.)
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const csv = readFileSync(await download.path(), 'utf8');

  const expected = results.map(({ student, quizzes: rights, grade }) => {
    const counted = [
      ...rights.flatMap((right) => (right === null ? [] : [{ earned: right, possible: QUIZ_POINTS }])),
      ...(grade === null ? [] : [{ earned: grade, possible: ASSIGNMENT_POINTS }]),
    ];
    const earned = counted.reduce((sum, item) => sum + item.earned, 0);
    const possible = counted.reduce((sum, item) => sum + item.possible, 0);
    return [
      student!.name,
      student!.rollNumber,
      String(Math.round((earned / possible) * 10_000) / 100),
      // Only the assignment is past due.
      grade === null ? '1' : '0',
      grade === null ? 'Missing' : String(grade),
      ...rights.map((right) => (right === null ? 'Not due' : String(right))),
    ];
  });
  // The assignment is due now, the quizzes tomorrow: it comes first.
  const header = [
    'Name',
    'Roll number',
    'Average (%)',
    'Missing',
    `${title} (${ASSIGNMENT_POINTS})`,
    ...quizzes.map((quiz) => `${quiz.title} (${QUIZ_POINTS})`),
  ];
  expect(
    csv
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(',')),
  ).toEqual([header, ...expected]);
});
