import type { Page } from '@playwright/test';
import { enterStudyMode } from './actors.ts';
import { expect, expectAccessible } from './fixtures.ts';
import { patience } from '../../src/server/testing/patience.ts';

/**
 * A teacher's roster work through the real screens (issue 19 points 6 and 7), shared by the
 * scenarios that are about it (roster-import, password-reset) and the school's whole flow
 * (school-trust).
 */

const HEADER = 'Name;Roll number;Email;Parent name;Parent email';
const NAMES = ['Ayşe Yılmaz', 'Zoë Brontë', '王小明', 'Αλέξης Π.', 'Nguyễn Văn An'];

/** The roll number of the `number`th student (from 1) of a class list tagged `tag`. */
export const rollNumberOf = (tag: string, number: number) => `${tag}-${String(number).padStart(2, '0')}`;

/**
 * A class list of 30 as a spreadsheet saves it: semicolons, a BOM, CRLF, quoted fields, names in
 * other scripts; `badRow` (from 1) has an email that is not one.
 */
export function classList(tag: string, badRow?: number) {
  const rows = Array.from({ length: 30 }, (_, index) => {
    const id = rollNumberOf(tag, index + 1);
    const email = index + 1 === badRow ? 'not-an-email' : `${id}@school.test`;
    return `${NAMES[index % NAMES.length]} ${index + 1};${id};${email};"Parent; ${id}";parent-${id}@family.test`;
  });
  return `\uFEFF${[HEADER, ...rows].join('\r\n')}\r\n`;
}

/** The contact details of the class list's students: what no teacher of another class may see. */
export const classListContacts = (tag: string) =>
  Array.from({ length: 30 }, (_, index) => {
    const id = rollNumberOf(tag, index + 1);
    return [`${id}@school.test`, `parent-${id}@family.test`];
  }).flat();

/**
 * On the class page: imports the 30 students of `classList(tag)`. The file is first sent with
 * row 7 broken (shown at row 8 of the sheet, nothing importable), then fixed; ends on the
 * credentials sheet, in the dialog, which is returned.
 */
export async function importClassListThroughUi(page: Page, className: string, tag: string) {
  await page.getByRole('button', { name: 'Import students (CSV)' }).click();
  const dialog = page.getByRole('dialog', { name: `Import students into ${className}` });
  await dialog.getByLabel('CSV file').setInputFiles({
    name: 'class-list.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(classList(tag, 7)),
  });
  await dialog.getByRole('button', { name: 'Check the list' }).click();
  await expect(dialog.getByText(/1 of 30 rows have problems/)).toBeVisible();
  // Row 8 of the sheet: the header is row 1. On a phone each row is a card whose lines carry
  // their label ("Row 8 …"), so the row's name starts with it there.
  const badRow = dialog.getByRole('region', { name: 'Rows of the file' }).getByRole('row', { name: /^(Row )?8 / });
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

  await expect(dialog.getByText(`30 students imported into ${className}.`)).toBeVisible({ timeout: patience(60_000) });
  const sheet = dialog.getByRole('region', { name: 'Credentials sheet' });
  await expect(sheet.getByRole('row')).toHaveCount(31); // a header and 30 students
  await expectAccessible(page, 'import: the credentials sheet');
  return dialog;
}

/** The initial password the credentials sheet of `dialog` shows for `rollNumber`. */
export async function passwordOnSheet(dialog: ReturnType<Page['getByRole']>, rollNumber: string) {
  const row = dialog
    .getByRole('region', { name: 'Credentials sheet' })
    .getByRole('row', { name: new RegExp(rollNumber) });
  const password = (await row.getByRole('cell').nth(2).textContent())!;
  expect(password).toMatch(/^[A-Za-z2-9]{5}-[A-Za-z2-9]{5}$/);
  return password;
}

/** The visible one of a student's buttons: the table's on wide screens, the card's on phones. */
export const visibleButton = (page: Page, name: string) =>
  page.getByRole('main').getByRole('button', { name, exact: true }).filter({ visible: true });

/**
 * On a list of students showing `studentName` (the students screen, a class page): resets their
 * password, answering the question, and returns the temporary password shown once.
 */
export async function resetPasswordThroughUi(page: Page, studentName: string) {
  // A question first (the safe answer has the focus), then the password once.
  await visibleButton(page, `Reset password: ${studentName}`).click();
  const question = page.getByRole('alertdialog', { name: `Reset ${studentName}'s password?` });
  await expect(question.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await expectAccessible(page, 'reset password question');
  await question.getByRole('button', { name: 'Reset password' }).click();

  const shown = page.getByRole('dialog', { name: `${studentName}'s temporary password` });
  await expect(shown.getByText(/shown only once/)).toBeVisible();
  const field = shown.getByRole('textbox', { name: 'Temporary password' });
  await expect(field).toHaveValue(/^[A-Za-z2-9]{5}-[A-Za-z2-9]{5}$/);
  const temporaryPassword = await field.inputValue();
  await expectAccessible(page, 'temporary password dialog');
  await shown.getByRole('button', { name: 'Done' }).click();
  await expect(shown).toBeHidden();
  return temporaryPassword;
}

/** Signs a student in with a password a teacher gave (reset, imported): the next screen asks for their own. */
export async function signInWithTemporaryPassword(page: Page, rollNumber: string, temporaryPassword: string) {
  await page.goto('/auth/student/login');
  await page.getByLabel('Username').fill(rollNumber);
  await page.getByLabel('Password').fill(temporaryPassword);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard\/student\/choose-password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();
  await expectAccessible(page, 'choose a new password');
}

/**
 * On the choose-password screen, by keyboard: the temporary password, then the new one twice; ends
 * where the student was going (issue 30 point 6), the dashboard when they only signed in.
 */
export async function chooseNewPasswordThroughUi(
  page: Page,
  temporaryPassword: string,
  newPassword: string,
  arrivesAt: RegExp = /\/dashboard\/student$/,
) {
  await page.getByLabel(/^Temporary password/).focus();
  await page.keyboard.type(temporaryPassword);
  await page.keyboard.press('Tab');
  await page.keyboard.type(newPassword);
  await page.keyboard.press('Tab');
  await page.keyboard.type(newPassword);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(arrivesAt);
  await enterStudyMode(page);
}
