import type { Page } from '@playwright/test';
import { expect, expectAccessible } from './fixtures.ts';

/** A student's steps on an assignment's page (decision 064), shared by the assignment scenarios. */

/**
 * Hand in, confirmed in the dialog (its words matching `says` when given), and wait until the
 * page shows the work handed in; `isChecked`: axe-core on the dialog too.
 */
export async function handInThroughUi(
  page: Page,
  { says, isChecked = true }: { says?: RegExp; isChecked?: boolean } = {},
) {
  await page.getByRole('button', { name: 'Hand in' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Hand in your work?' });
  await expect(dialog).toBeVisible();
  if (says) await expect(dialog).toContainText(says);
  if (isChecked) await expectAccessible(page, 'hand-in confirmation');
  await dialog.getByRole('button', { name: 'Hand in' }).click();
  await expect(page.getByText(/^Handed in /)).toBeVisible();
}
