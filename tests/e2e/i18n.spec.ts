import { expect, expectAccessible, test } from './fixtures.ts';

/**
 * The interface in the visitor's language (issue 32, decision 054): the switcher on the login
 * page turns it to Arabic, right to left, at once; the server sends the next page's
 * <html lang dir> from the cookie, so a reload starts in Arabic.
 */
test('a visitor chooses Arabic on the login page: right to left, kept on reload', async ({ page }) => {
  await page.goto('/auth/student/login');
  await expect(page.getByRole('heading', { name: 'Student login' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');

  await page.getByRole('combobox', { name: 'Language' }).selectOption({ label: 'العربية' });
  await expect(page.getByRole('heading', { name: 'دخول الطلاب' })).toBeVisible();
  await expect(page.locator('html[dir="rtl"][lang="ar"]')).toBeAttached();
  await expectAccessible(page, 'student login in Arabic');

  await page.reload();
  await expect(page.locator('html[dir="rtl"][lang="ar"]')).toBeAttached();
  await expect(page.getByRole('heading', { name: 'دخول الطلاب' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'تسجيل الدخول' })).toBeVisible();
  // Right to left lays out within the window: nothing scrolls sideways.
  const [scroll, client] = await page.evaluate(() => [
    document.documentElement.scrollWidth,
    document.documentElement.clientWidth,
  ]);
  expect(scroll, 'the page is wider than the window').toBeLessThanOrEqual(client);
  await expectAccessible(page, 'student login in Arabic, reloaded');
});

test('the app’s page arrives in the browser’s language, before any script runs', async ({ browser, baseURL }) => {
  const context = await browser.newContext({ locale: 'es-ES', javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${baseURL}/auth/student/login`);
  await expect(page.locator('html[lang="es"][dir="ltr"]')).toBeAttached();
  await context.close();
});
