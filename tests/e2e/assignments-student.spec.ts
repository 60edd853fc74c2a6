import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import type { NewAssignmentInput, StudentAssignment } from '../../src/shared/assignments.ts';
import { chooseOwnLanguage, registeredStudent, teacherWithClass } from './api-setup.ts';
import { enterStudyMode, logInStudentThroughUi } from './actors.ts';
import { handInThroughUi } from './assignment-steps.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

/**
 * The student's side of an assignment (issue 33 point 2, decision 064): it shows under To do, a
 * draft survives a reload and reaches a second page, a stale tab gets the choice instead of
 * overwriting, hand in, take back, hand in again; a past-due one shows as missing. Screens in
 * English and Arabic go to .qa-tmp/screenshots to be looked at.
 */

const QA_DIR = '.qa-tmp/screenshots';
const HOUR = 3_600_000;

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createAssignment(request: APIRequestContext, token: string, body: NewAssignmentInput) {
  const response = await request.post('/api/assignments', { data: body, headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data as { _id: string; title: string };
}

async function assignmentAsStudent(request: APIRequestContext, token: string, id: string) {
  const response = await request.get(`/api/student/assignments/${id}`, { headers: bearer(token) });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data as StudentAssignment;
}

async function studentToken(request: APIRequestContext, student: { rollNumber: string; password: string }) {
  const response = await request.post('/api/student/login', {
    data: { rollNumber: student.rollNumber, password: student.password },
  });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data as string;
}

const answerBox = (page: Page) => page.getByRole('textbox', { name: 'Your answer' });
const draftStatus = (page: Page) => page.getByTestId('draft-status');

async function shoot(page: Page, name: string) {
  mkdirSync(QA_DIR, { recursive: true });
  await page.mouse.move(Math.floor(page.viewportSize()!.width / 2), 0);
  await page.screenshot({
    path: `${QA_DIR}/assignments-student-${test.info().project.name}-${name}.png`,
    fullPage: true,
  });
}

test('a student sees, drafts, hands in, takes back and hands in again; a stale tab chooses', async ({
  page,
}, testInfo) => {
  testInfo.setTimeout(testInfo.timeout * 3);
  const { token, klass } = await teacherWithClass(page.request);
  const student = await registeredStudent(page.request, { classCode: klass.joinCode });
  const suffix = Math.random().toString(36).slice(2, 7);
  const essay = await createAssignment(page.request, token, {
    classIds: [klass.id],
    title: `Rivers essay ${suffix}`,
    instructions:
      'Write **one page** about a river.\n\n- its source\n- its mouth\n\nSee [the atlas](https://example.org/atlas).',
    points: 10,
    dueAt: new Date(Date.now() + 48 * HOUR).toISOString(),
    acceptLate: true,
  });
  const map = await createAssignment(page.request, token, {
    classIds: [klass.id],
    title: `Map of Europe ${suffix}`,
    points: 5,
    dueAt: new Date(Date.now() - HOUR).toISOString(),
    acceptLate: false,
  });

  // The dashboard's summary, then the full list.
  await logInStudentThroughUi(page, student);
  const summary = page.getByRole('region', { name: 'Assignments' });
  await expect(summary.getByTestId('assignments-counts')).toHaveText('1 to do · 1 missing');
  await expect(summary.getByRole('link', { name: new RegExp(essay.title) })).toBeVisible();
  await expectAccessible(page, 'student dashboard with assignments');
  await summary.getByRole('link', { name: 'All assignments' }).click();
  await expect(page).toHaveTitle(/^Assignments · /);
  const todo = page.getByRole('region', { name: 'To do' });
  const missing = page.getByRole('region', { name: 'Missing' });
  await expect(todo.getByRole('link', { name: new RegExp(essay.title) })).toBeVisible();
  await expect(missing.getByRole('link', { name: new RegExp(map.title) })).toContainText('Missing');
  await expect(todo.getByRole('link', { name: new RegExp(map.title) })).toHaveCount(0);
  await expectAccessible(page, 'student assignments');
  await shoot(page, 'en-list');

  // The missing one, closed by the late rule.
  await missing.getByRole('link', { name: new RegExp(map.title) }).click();
  await expect(page.getByText(/late work is not accepted: this assignment can no longer be handed in/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Hand in' })).toBeDisabled();
  await page.goBack();

  // The assignment: the instructions rendered safely, a draft saved as typed.
  await todo.getByRole('link', { name: new RegExp(essay.title) }).click();
  await expect(page.getByRole('heading', { level: 1, name: essay.title })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`^\u2068${essay.title}\u2069 · `));
  await expect(page.locator('strong', { hasText: 'one page' })).toBeVisible();
  await expect(page.getByRole('link', { name: /the atlas/ })).toHaveAttribute('target', '_blank');
  await answerBox(page).focus();
  await page.keyboard.type('The Danube rises in the Black Forest.');
  await expect(draftStatus(page)).toHaveText('Saved');
  await expectAccessible(page, 'assignment with a draft');
  await shoot(page, 'en-assignment');

  // A reload keeps it (from the server).
  await page.reload();
  await enterStudyMode(page);
  await expect(answerBox(page)).toHaveValue('The Danube rises in the Black Forest.');

  // A second page (another tab) shows the same draft.
  const second = await page.context().newPage();
  await second.goto(`/dashboard/student/assignments/${essay._id}`);
  await enterStudyMode(second);
  await expect(answerBox(second)).toHaveValue('The Danube rises in the Black Forest.');

  // The first page saves on; the second, still on the old version, gets the choice.
  await answerBox(page).press('Control+End');
  await page.keyboard.type(' It flows to the Black Sea.');
  await expect(draftStatus(page)).toHaveText('Saved');
  await answerBox(second).press('Control+End');
  await second.keyboard.type(' Stale words.');
  const choice = second.getByRole('alert').filter({ hasText: 'changed in another tab' });
  await expect(choice).toBeVisible();
  await expect(choice.getByRole('textbox', { name: 'Your text on this page' })).toHaveValue(
    'The Danube rises in the Black Forest. Stale words.',
  );
  await expect(choice.getByRole('textbox', { name: 'The text saved elsewhere' })).toHaveValue(
    'The Danube rises in the Black Forest. It flows to the Black Sea.',
  );
  await expectAccessible(second, 'the conflict choice');
  await shoot(second, 'en-conflict');
  await choice.getByRole('button', { name: 'Keep the saved text' }).click();
  await expect(answerBox(second)).toHaveValue('The Danube rises in the Black Forest. It flows to the Black Sea.');
  await second.close();

  // Hand in (confirmed), take back, hand in again.
  await handInThroughUi(page);
  const studentApiToken = await studentToken(page.request, student);
  expect((await assignmentAsStudent(page.request, studentApiToken, essay._id)).handIn).toMatchObject({
    state: 'handed-in',
    text: 'The Danube rises in the Black Forest. It flows to the Black Sea.',
    late: false,
  });
  await expectAccessible(page, 'handed in');
  await page.getByRole('button', { name: 'Take back' }).click();
  await expect(answerBox(page)).toHaveValue('The Danube rises in the Black Forest. It flows to the Black Sea.');
  await answerBox(page).press('Control+End');
  await page.keyboard.type(' The end.');
  await handInThroughUi(page);
  expect((await assignmentAsStudent(page.request, studentApiToken, essay._id)).handIn).toMatchObject({
    state: 'handed-in',
    text: 'The Danube rises in the Black Forest. It flows to the Black Sea. The end.',
  });
  await shoot(page, 'en-handed-in');

  // Done now; the same screens in Arabic, right to left.
  await page.goto('/dashboard/student/assignments');
  await enterStudyMode(page);
  await expect(
    page.getByRole('region', { name: 'Done' }).getByRole('link', { name: new RegExp(essay.title) }),
  ).toBeVisible();
  await chooseOwnLanguage(page, 'ar');
  await page.reload();
  await enterStudyMode(page);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1, name: 'الواجبات' })).toBeVisible();
  await expectAccessible(page, 'assignments in Arabic');
  await shoot(page, 'ar-list');
  await page.getByRole('link', { name: new RegExp(essay.title) }).click();
  await expect(page.getByRole('heading', { level: 1, name: essay.title })).toBeVisible();
  await expectAccessible(page, 'an assignment in Arabic');
  await shoot(page, 'ar-assignment');
  await page.goto(`/dashboard/student/assignments/${map._id}`);
  await enterStudyMode(page);
  await expect(page.getByRole('heading', { level: 1, name: map.title })).toBeVisible();
  await shoot(page, 'ar-missing');
});
