import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { teacherWithClass } from './api-setup.ts';
import { logInTeacherThroughUi } from './actors.ts';
import { expect, test } from './fixtures.ts';
import { patience } from '../../src/server/testing/patience.ts';
import type { Locator, Page } from '@playwright/test';
import {
  classList,
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
  await expectSheetPrints(page, password);

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

/**
 * Printed, the sheet shows alone: its rows visible (not the page's hidden everything), on top at
 * the password's place, and the PDF carries text. A CSS rule more specific than the sheet's once
 * printed blank pages.
 */
async function expectSheetPrints(page: Page, password: string) {
  // Found on screen: printed, what is hidden leaves the accessibility tree.
  const sheet = page.getByRole('region', { name: 'Credentials sheet' });
  // On a phone each cell also carries its column's name ("Password"), so match by its text.
  const cell = await sheet.getByRole('cell').filter({ hasText: password }).elementHandle();
  const firstRow = await sheet.getByRole('row').first().elementHandle();
  const heading = await page.locator('main h1').first().elementHandle();
  await page.emulateMedia({ media: 'print' });
  const visibility = (element: Element) => getComputedStyle(element).visibility;
  expect(await cell.evaluate(visibility)).toBe('visible');
  expect(await firstRow.evaluate(visibility)).toBe('visible');
  expect(await heading.evaluate(visibility)).toBe('hidden');
  // What is at the password's place when printed: the password itself (nothing hidden takes hits).
  expect(
    await cell.evaluate((element) => {
      const box = element.getBoundingClientRect();
      return element.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
    }),
  ).toBe(true);
  const pdf = await page.pdf();
  // Chromium writes one font object per font a page uses: a blank page has none.
  expect(pdf.toString('latin1')).toMatch(/\/FontFile2|\/Type\s*\/Font/);
  await page.emulateMedia({ media: 'screen' });
}

/** Lines `text` (else all the element's text) takes on screen: the distinct line boxes of its range. */
const linesOf = (locator: Locator, text?: string) =>
  locator.evaluate((element, wanted) => {
    const range = document.createRange();
    range.selectNodeContents(element);
    if (wanted) {
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = node.textContent!.indexOf(wanted);
        if (at < 0) continue;
        range.setStart(node, at);
        range.setEnd(node, at + wanted.length);
        break;
      }
    }
    return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
  }, text);

/** True when nothing in the element (the page by default) needs sideways scrolling. */
const fitsAcross = (locator: Locator) => locator.evaluate((element) => element.scrollWidth <= element.clientWidth);

test('on a phone, the import keeps names, emails, roll numbers, the class name and passwords whole, without sideways scrolling (issue 30 point 13)', async ({
  page,
  request,
}, testInfo) => {
  test.skip(testInfo.project.name !== 'mobile', 'a phone-width layout');
  const tag = `imp${randomBytes(3).toString('hex')}`;
  const { teacher, klass } = await teacherWithClass(request, `10-A-${tag.slice(3)}`);
  await logInTeacherThroughUi(page, teacher);
  await page.goto(`/dashboard/teacher/classes/${klass.id}`);
  await page.getByRole('button', { name: 'Import students (CSV)' }).click();
  const dialog = page.getByRole('dialog', { name: `Import students into ${klass.name}` });
  expect(await linesOf(dialog.getByRole('heading', { level: 2 }), klass.name)).toBe(1);

  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'class-list.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(classList(tag)),
  });
  await dialog.getByRole('button', { name: 'Check the list' }).click();
  await expect(dialog.getByText('All 30 rows can be imported.')).toBeVisible();
  const rows = dialog.getByRole('region', { name: 'Rows of the file' });
  for (const number of [1, 2, 3, 30]) {
    const cells = rows
      .locator('tbody tr')
      .nth(number - 1)
      .locator('td');
    // Name, roll number, email and parent's email: each on one line, never broken at a hyphen.
    for (const column of [0, 1, 2, 4]) {
      expect(await linesOf(cells.nth(column).locator('bdi')), `row ${number + 1}, column ${column}`).toBe(1);
    }
  }
  expect(await fitsAcross(rows)).toBe(true);
  expect(await fitsAcross(page.locator('html'))).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('rows-on-a-phone.png') });

  await dialog.getByRole('button', { name: 'Import 30 students' }).click();
  await expect(dialog.getByText(`30 students imported into ${klass.name}.`)).toBeVisible({ timeout: patience(60_000) });
  const sheet = dialog.getByRole('region', { name: 'Credentials sheet' });
  await passwordOnSheet(dialog, rollNumberOf(tag, 1));
  for (const number of [1, 15, 30]) {
    const cells = sheet.getByRole('row', { name: new RegExp(rollNumberOf(tag, number)) }).getByRole('cell');
    // On a phone each value follows its column's name: the value itself stays one line.
    expect(await linesOf(cells.nth(1).locator('bdi')), `roll number of student ${number}`).toBe(1);
    expect(await linesOf(cells.nth(2).locator('bdi')), `password of student ${number}`).toBe(1);
  }
  expect(await fitsAcross(sheet)).toBe(true);
  expect(await fitsAcross(page.locator('html'))).toBe(true);
  await page.screenshot({ path: testInfo.outputPath('sheet-on-a-phone.png') });
});
