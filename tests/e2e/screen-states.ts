import { createCompiledCatalog } from '@lingui/cli/api';
import type { Locator, Page } from '@playwright/test';
import { expect } from './fixtures.ts';
import { announcementsOf, holdToast, releaseToasts } from './toasts.ts';

/**
 * The states of a screen its first view does not show (a dialog, a toast, field errors, an open
 * panel, the next step of a runner), and how a person reaches each: the pseudo-locale pass
 * (pseudo-locale.spec.ts) reads them after the screen's first state. Each waits for the event
 * that shows the state (the dialog open, the error on its field), never for a time.
 */
export type ScreenState = {
  name: string;
  reach(page: Page): Promise<void>;
  /** Back to a state the next one can start from; an open dialog is closed unless told. */
  leave?(page: Page): Promise<void>;
};

/**
 * An English message as the pseudo-locale shows it ("Save" → "Śàvē"), compiled as the build
 * compiles the pseudo catalog: the scenario names buttons in English, the page shows them accented.
 */
export function pseudo(english: string): string {
  const { source, errors } = createCompiledCatalog(
    'pseudo',
    { message: english },
    {
      namespace: 'json',
      pseudoLocale: 'pseudo',
    },
  );
  expect(errors, `pseudo(${english})`).toEqual([]);
  const compiled = (JSON.parse(source) as { messages: { message: unknown } }).messages.message;
  return [compiled]
    .flat()
    .filter((part) => typeof part === 'string')
    .join('');
}

/** A control named by its English message (a part of its name: "Edit" finds "Edit Ana"). */
export const control = (page: Page | Locator, english: string, role: 'button' | 'link' | 'tab' = 'button') =>
  page.getByRole(role, { name: pseudo(english) }).first();

/** The dialog on top: a modal <dialog> or a non-modal panel (the bell's). */
export const openDialog = (page: Page) => page.locator('dialog[open], [role=dialog]:visible').last();

/** Closes the dialog on top as a person does with the keyboard, and waits until it has gone. */
export async function closeDialog(page: Page) {
  await page.keyboard.press('Escape');
  await expect(page.locator('dialog[open]')).toHaveCount(0);
  await expect(page.locator('[role=dialog]:visible')).toHaveCount(0);
}

/** A dialog (or a confirmation's question) that `english`'s button opens; Escape closes it. */
export const dialogState = (name: string, english: string): ScreenState => ({
  name,
  reach: async (page) => {
    await control(page, english).click();
    await expect(openDialog(page)).toBeVisible();
  },
  leave: closeDialog,
});

/**
 * Field errors: the form (the `nth` on the screen) sent as it is, its empty required fields
 * marked. `prepare` empties or fills what the first view gives (a field filled by default).
 */
export const fieldErrorsState = (
  name = 'empty form: field errors',
  { nth = 0, prepare }: { nth?: number; prepare?(form: Locator): Promise<void> } = {},
): ScreenState => ({
  name,
  reach: async (page) => {
    const form = page.locator('form:visible').nth(nth);
    await prepare?.(form);
    await form.locator('button[type=submit]').last().click();
    await expect(page.locator('[aria-invalid=true]:visible').first()).toBeVisible();
  },
  leave: async () => {},
});

const toastCount = (page: Page) => announcementsOf(page).filter(({ kind }) => kind === 'toast').length;

/**
 * A toast, held on screen from its appearance (toasts.ts) while it is read; `act` makes it.
 * The toast leaves on its own timer once let go.
 */
export const toastState = (name: string, act: (page: Page) => Promise<void>): ScreenState => ({
  name,
  reach: async (page) => {
    const toastsBefore = toastCount(page);
    await holdToast(page, /./);
    await act(page);
    await expect.poll(() => toastCount(page), { message: `a toast: ${name}` }).toBeGreaterThan(toastsBefore);
  },
  leave: releaseToasts,
});
