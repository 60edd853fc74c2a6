import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { teacherWithClass } from './api-setup.ts';
import { logInTeacherThroughUi } from './actors.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

const HEADER = 'Name;Roll number;Email;Parent name;Parent email';

/** A class list as a spreadsheet saves it: semicolons, a BOM, CRLF, names in other scripts. */
function classList(tag: string, badRow?: number) {
  const names = ['Ayşe Yılmaz', 'Zoë Brontë', '王小明', 'Αλέξης Π.', 'Nguyễn Văn An'];
  const rows = Array.from({ length: 30 }, (_, index) => {
    const id = `${tag}-${String(index + 1).padStart(2, '0')}`;
    const email = index + 1 === badRow ? 'not-an-email' : `${id}@school.test`;
    return `${names[index % names.length]} ${index + 1};${id};${email};"Parent; ${id}";parent-${id}@family.test`;
  });
  return `\uFEFF${[HEADER, ...rows].join('\r\n')}\r\n`;
}

test('a teacher imports 30 students from a CSV: one bad row shown and fixed, passwords once', async ({
  page,
  request,
}) => {
  const tag = `imp${randomBytes(3).toString('hex')}`;
  const { teacher, klass } = await teacherWithClass(request, `Import ${tag}`);
  await logInTeacherThroughUi(page, teacher);
  await page.goto(`/dashboard/teacher/classes/${klass.id}`);
  await expect(page.getByRole('heading', { level: 1, name: klass.name })).toBeVisible();

  await page.getByRole('button', { name: 'Import students (CSV)' }).click();
  const dialog = page.getByRole('dialog', { name: `Import students into ${klass.name}` });
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'class-list.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(classList(tag, 7)),
  });
  await dialog.getByRole('button', { name: 'Check the list' }).click();
  await expect(dialog.getByText(/1 of 30 rows have problems/)).toBeVisible();
  // Row 8 of the sheet: the header is row 1.
  const badRow = dialog.getByRole('region', { name: 'Rows of the file' }).getByRole('row', { name: /^8 / });
  await expect(badRow).toContainText('Email must be a valid email address');
  await expect(dialog.getByRole('button', { name: 'Import 30 students' })).toBeDisabled();
  await expectAccessible(page, 'import: a row with a problem');

  // The teacher fixes the file and checks it again.
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'class-list.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(classList(tag)),
  });
  await dialog.getByRole('button', { name: 'Check the list' }).click();
  await expect(dialog.getByText('All 30 rows can be imported.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Import 30 students' }).click();

  await expect(dialog.getByText(`30 students imported into ${klass.name}.`)).toBeVisible({ timeout: 60_000 });
  const sheet = dialog.getByRole('region', { name: 'Credentials sheet' });
  await expect(sheet.getByRole('row')).toHaveCount(31); // a header and 30 students
  const firstRow = sheet.getByRole('row', { name: new RegExp(`${tag}-01`) });
  const password = (await firstRow.getByRole('cell').nth(2).textContent())!;
  expect(password).toMatch(/^[A-Za-z2-9]{5}-[A-Za-z2-9]{5}$/);
  await expectAccessible(page, 'import: the credentials sheet');

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
  await page.goto('/auth/student/login');
  await page.getByLabel('Username').fill(`${tag}-01`);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/choose-password$/);
});
