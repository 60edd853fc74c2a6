import { BUNDLED_QUOTES } from '../../src/shared/bundled-quotes.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { logInStudentThroughUi, logInTeacherThroughUi, registerTeacherThroughUi } from './actors.ts';
import { registeredStudent } from './api-setup.ts';

test('teacher sees a quote with the quotes service down, and adds, completes and deletes a task', async ({ page }) => {
  const teacher = await registerTeacherThroughUi(page);
  await logInTeacherThroughUi(page, teacher);

  const quote = page.getByRole('figure', { name: 'Quote of the day' });
  await expect(quote).toBeVisible();
  const quoteText = (await quote.locator('blockquote').textContent()) ?? '';
  expect(BUNDLED_QUOTES.map((bundled) => bundled.quote)).toContain(quoteText);

  const tasks = page.getByRole('region', { name: 'Tasks' });
  await expect(tasks.getByText('There are no tasks to complete')).toBeVisible();
  await tasks.getByRole('button', { name: 'Add task' }).click();
  await expect(tasks.getByText('Task text is required')).toBeVisible();

  await tasks.getByLabel('New task').fill('Mark the algebra quizzes');
  await tasks.getByLabel('New task').press('Enter');
  await expect(tasks.getByRole('listitem')).toHaveCount(1);
  await expect(tasks.getByLabel('New task')).toHaveValue('');
  await tasks.getByLabel('New task').fill('Prepare Friday’s lesson');
  await tasks.getByRole('button', { name: 'Add task' }).click();
  await expect(tasks.getByRole('listitem')).toHaveCount(2);
  await expectAccessible(page, 'teacher home with tasks');

  await tasks.getByRole('button', { name: /Mark complete\W+Mark the algebra quizzes/ }).click();
  await expect(tasks.getByRole('button', { name: /Mark complete\W+Mark the algebra quizzes/ })).toHaveCount(0);
  // The pressed button is gone: focus lands on the same task's Delete button, not on <body>.
  await expect(tasks.getByRole('button', { name: /Delete\W+Mark the algebra quizzes/ })).toBeFocused();
  await expect(tasks.locator('li .line-through')).toContainText('Mark the algebra quizzes (completed)');

  // Saved on the server: a reload shows the same list.
  await page.reload();
  await expect(tasks.getByRole('listitem')).toHaveCount(2);
  await expect(tasks.locator('li .line-through')).toContainText('Mark the algebra quizzes (completed)');

  await tasks.getByRole('button', { name: /Delete\W+Mark the algebra quizzes/ }).click();
  await expect(tasks.getByRole('listitem')).toHaveCount(1);
  await expect(tasks.getByLabel('New task')).toBeFocused();
  await expect(tasks.getByRole('listitem')).toContainText('Prepare Friday’s lesson');

  // Logging out leaves nothing behind: no request without a token (the page-error guard
  // fails on any 401), and the next teacher on this browser sees their own, empty list.
  await page.getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  const nextTeacher = await registerTeacherThroughUi(page);
  await logInTeacherThroughUi(page, nextTeacher);
  await expect(tasks.getByText('There are no tasks to complete')).toBeVisible();
});

test('two tabs adding tasks at once keep both tasks', async ({ page, context }) => {
  const teacher = await registerTeacherThroughUi(page);
  await logInTeacherThroughUi(page, teacher);
  const otherTab = await context.newPage();
  await otherTab.goto('/dashboard/teacher');
  const first = page.getByRole('region', { name: 'Tasks' });
  const second = otherTab.getByRole('region', { name: 'Tasks' });
  await expect(second.getByText('There are no tasks to complete')).toBeVisible();

  await first.getByLabel('New task').fill('From the first tab');
  await first.getByRole('button', { name: 'Add task' }).click();
  await expect(first.getByRole('listitem')).toHaveCount(1);

  // The second tab still shows the old (empty) list: its save is refused, reloaded, and applied again.
  await second.getByLabel('New task').fill('From the second tab');
  await second.getByRole('button', { name: 'Add task' }).click();
  await expect(second.getByRole('listitem')).toHaveCount(2);
  await page.reload();
  await expect(first.getByRole('listitem')).toHaveCount(2);
  await otherTab.close();
});

test('a student keeps a task list on the home screen', async ({ page, request }) => {
  const student = await registeredStudent(request);
  await logInStudentThroughUi(page, student);
  const tasks = page.getByRole('region', { name: 'Tasks' });
  await expect(tasks.getByText('There are no tasks to complete')).toBeVisible();
  await tasks.getByLabel('New task').fill('Revise chapter 4');
  await tasks.getByRole('button', { name: 'Add task' }).click();
  await expect(tasks.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('figure', { name: 'Quote of the day' })).toHaveCount(0);
  await expectAccessible(page, 'student home with tasks');
});
