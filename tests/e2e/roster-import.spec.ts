import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { teacherWithClass } from './api-setup.ts';
import { logInTeacherThroughUi } from './actors.ts';
import { expect, test } from './fixtures.ts';
import {
  importClassListThroughUi,
  passwordOnSheet,
  rollNumberOf,
  signInWithTemporaryPassword,
} from './roster-steps.ts';

test('a teacher imports 30 students from a CSV: one bad row shown and fixed, passwords once', async ({
  page,
  request,
}) => {
  const tag = `imp${randomBytes(3).toString('hex')}`;
  const { teacher, klass } = await teacherWithClass(request, `Import ${tag}`);
  await logInTeacherThroughUi(page, teacher);
  await page.goto(`/dashboard/teacher/classes/${klass.id}`);
  await expect(page.getByRole('heading', { level: 1, name: klass.name })).toBeVisible();

  const dialog = await importClassListThroughUi(page, klass.name, tag);
  const password = await passwordOnSheet(dialog, rollNumberOf(tag, 1));

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const sheetCsv = await readFile(await download.path(), 'utf8');
  expect(sheetCsv).toContain(`${tag}-30`);
  expect(sheetCsv).toContain(password);

  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(dialog).toBeHidden();
  const roster = page.getByRole('table', { name: `Students of ${klass.name}` });
  await expect(page.getByText('30 students, by name')).toBeVisible();
  await expect(roster.getByText(`${tag}-01`, { exact: true })).toBeVisible();

  // The imported student signs in with the sheet's password and must choose their own.
  await page.evaluate(() => localStorage.clear());
  await signInWithTemporaryPassword(page, rollNumberOf(tag, 1), password);
});
