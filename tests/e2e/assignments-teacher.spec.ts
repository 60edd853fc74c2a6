import type { APIRequestContext, Page } from '@playwright/test';
import { chooseOwnLanguage, createClass, registeredStudent, teacherWithClass } from './api-setup.ts';
import { logInTeacherThroughUi } from './actors.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { localDateTimeIn } from './quiz-steps.ts';

/** A student's hand-in through the API (the student's screens are another helper's). */
async function handInAsStudent(
  request: APIRequestContext,
  student: { rollNumber: string; password: string },
  assignmentId: string,
  text: string,
) {
  const login = await request.post('/api/student/login', {
    data: { rollNumber: student.rollNumber, password: student.password },
  });
  expect(login.ok(), await login.text()).toBe(true);
  const token = (await login.json()).data as string;
  const handedIn = await request.post(`/api/student/assignments/${assignmentId}/hand-in`, {
    data: { text, version: 0 },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(handedIn.ok(), await handedIn.text()).toBe(true);
}

/** The screen in `locale`, as a full-page screenshot beside the test's results. */
async function shoot(page: Page, name: string, project: string, outputPath: (name: string) => string) {
  await page.mouse.move(0, 0);
  await page.screenshot({ path: outputPath(`${name}-${project}.png`), fullPage: true });
}

test('a teacher hands out an assignment to two classes, edits it, grades and returns a hand-in', async ({
  page,
}, testInfo) => {
  const project = testInfo.project.name;
  const outputPath = (name: string) => testInfo.outputPath(name);
  const { teacher, token, klass } = await teacherWithClass(page.request, `Algebra ${Date.now().toString(36)}`);
  const second = await createClass(page.request, token, `Geometry ${Date.now().toString(36)}`);
  const student = await registeredStudent(page.request, { classCode: klass.joinCode });
  await logInTeacherThroughUi(page, teacher);

  // The menu's Assignments: the first class's (empty) list.
  await page.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'Assignments' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/assignments/);
  await expect(page.getByText('No assignments yet')).toBeVisible();
  await expectAccessible(page, 'assignments, none yet');
  await page.getByRole('link', { name: 'New assignment' }).click();
  await expect(page).toHaveTitle(/New assignment/);

  // The editor: Markdown instructions, both classes, points and a due time in the browser's zone.
  await page.getByRole('textbox', { name: 'Title' }).fill('Fractions worksheet');
  const instructions = page.getByRole('textbox', { name: 'Instructions' });
  await instructions.fill('Solve the problems of ');
  await instructions.press('End');
  await page.getByRole('toolbar').getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type('chapter 3');
  await expect(instructions).toHaveValue('Solve the problems of **chapter 3**');
  await expect(page.getByRole('checkbox', { name: klass.name })).toBeChecked();
  await page.getByRole('checkbox', { name: second.name }).check();
  await page.getByRole('textbox', { name: 'Points' }).fill('20');
  await page.getByLabel('Due', { exact: true }).fill(localDateTimeIn(48));
  await expect(page.getByText(/In the school’s time zone: /)).toBeVisible();
  await expectAccessible(page, 'assignment editor');
  await shoot(page, 'assignment-editor-en', project, outputPath);
  await page.getByRole('button', { name: 'Create assignment' }).focus();
  await page.keyboard.press('Enter');

  // Its page: the instructions rendered (bold, no markup shown), both classes named.
  await expect(page).toHaveURL(/\/dashboard\/teacher\/assignments\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Fractions worksheet' })).toBeVisible();
  await expect(page.locator('[data-markdown="rendered"] strong')).toHaveText('chapter 3');
  await expect(page.getByText(`\u2068${klass.name}\u2069 and \u2068${second.name}\u2069`)).toBeVisible();
  const assignmentId = page.url().split('/').pop()!;

  // Edit: a new title, saved with the version read.
  await page.getByRole('link', { name: 'Edit' }).click();
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue('Fractions worksheet');
  await page.getByRole('textbox', { name: 'Title' }).fill('Fractions worksheet, part 1');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Fractions worksheet, part 1' })).toBeVisible();

  // The grading list: the student has not handed in yet.
  const students = page.getByRole('list', { name: 'Students' });
  await expect(students.getByRole('button', { name: new RegExp(student.name) })).toContainText('Not handed in');

  // The student hands in text through the API; the teacher reads, grades and returns it.
  await handInAsStudent(page.request, student, assignmentId, 'My answers:\n1. 3/4\n2. <b>5/8</b>');
  await page.reload();
  const row = students.getByRole('button', { name: new RegExp(student.name) });
  await expect(row).toContainText('Handed in');
  await row.focus();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('region', { name: `Hand-in of ${student.name}` });
  await expect(panel.getByText('2. <b>5/8</b>')).toBeVisible();
  await expect(page.getByRole('heading', { name: `Hand-in of ${student.name}` })).toBeFocused();
  await panel.getByRole('textbox', { name: 'Points' }).fill('21');
  await panel.getByRole('button', { name: 'Save grade' }).click();
  await expect(panel.getByText('At most 20 points: what the assignment is worth')).toBeVisible();
  await panel.getByRole('textbox', { name: 'Points' }).fill('17.5');
  await panel.getByRole('textbox', { name: 'Feedback for the student' }).fill('Good work; check 2.');
  await panel.getByRole('button', { name: 'Save grade' }).click();
  await expect(row).toContainText('Graded');
  await expect(row).toContainText('17.5');
  await expectAccessible(page, 'grading view');
  await shoot(page, 'assignment-grading-en', project, outputPath);
  await panel.getByRole('button', { name: 'Return to the student' }).click();
  await expect(row).toContainText('Returned');
  await expect(panel.getByRole('button', { name: 'Change grade' })).toBeVisible();

  // The state filter: returned ones only, then those missing (none: the due time is ahead).
  await page.getByRole('combobox', { name: 'State' }).selectOption('returned');
  await expect(students.getByRole('button')).toHaveCount(1);
  await page.getByRole('combobox', { name: 'State' }).selectOption('missing');
  await expect(page.getByText('No student in this state')).toBeVisible();

  // The class page leads to the class's list, which counts it.
  await page.goto(`/dashboard/teacher/classes/${klass.id}`);
  await page.getByRole('link', { name: 'Assignments of this class' }).click();
  const card = page.getByRole('article', { name: 'Fractions worksheet, part 1' });
  await expect(card).toContainText('Handed in: 1');
  await expect(card).toContainText('To grade: 0');

  // Arabic, right to left: the same screens.
  await chooseOwnLanguage(page, 'ar');
  await page.goto(`/dashboard/teacher/assignments/${assignmentId}`);
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await page.getByRole('list').filter({ hasText: student.name }).getByRole('button').first().click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(student.name) })).toBeVisible();
  await expectAccessible(page, 'grading view, Arabic');
  await shoot(page, 'assignment-grading-ar', project, outputPath);
  await page.goto(`/dashboard/teacher/assignments/${assignmentId}/edit`);
  await expect(page.getByRole('button', { name: 'حفظ التغييرات' })).toBeVisible();
  await shoot(page, 'assignment-editor-ar', project, outputPath);
});
