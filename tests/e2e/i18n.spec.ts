import type { BrowserContext } from '@playwright/test';
import { buildSchoolSetup } from '../../src/server/testing/factories.ts';
import { patience } from '../../src/server/testing/patience.ts';
import { logInTeacherThroughUi } from './actors.ts';
import { ownInstancePort, startFreshInstance } from './app-instances.ts';
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

/**
 * The school's default language (decision 055 addendum), on a server of its own whose school
 * speaks Arabic: a browser that asks for none of the shipped languages (French) gets the login in
 * Arabic before any script runs; a browser in English gets the login in English, and its teacher,
 * signed in on "Automatic", the dashboard in the school's Arabic, the setting saying so.
 */
test('the school’s language for a French browser, and for a signed-in person on Automatic', async ({
  browser,
  playwright,
}, testInfo) => {
  test.setTimeout(patience(120_000));
  const { instance, stop } = await startFreshInstance(ownInstancePort(90, testInfo.project.name));
  const contexts: BrowserContext[] = [];
  const browserIn = async (locale: string) => {
    const context = await browser.newContext({ baseURL: instance.baseUrl, locale });
    contexts.push(context);
    return context.newPage();
  };
  try {
    const api = await playwright.request.newContext({ baseURL: instance.baseUrl });
    const setup = buildSchoolSetup({ defaultLocale: 'ar' });
    expect((await api.post('/api/school/setup', { data: setup })).status()).toBe(201);
    await api.dispose();

    const french = await browserIn('fr-FR');
    const answer = await french.goto('/auth/teacher/login');
    // The server's page, before any script: the school's language.
    expect(await answer!.text()).toContain('<html lang="ar" dir="rtl"');
    await expect(french.getByRole('heading', { name: 'دخول المعلّمين' })).toBeVisible();
    await expect(french.locator('html[lang="ar"][dir="rtl"]')).toBeAttached();
    await expectAccessible(french, 'teacher login in the school’s Arabic');

    const english = await browserIn('en-US');
    await english.goto('/auth/teacher/login');
    await expect(english.getByRole('heading', { name: 'Teacher login' })).toBeVisible();
    await logInTeacherThroughUi(english, setup);
    await expect(english.getByRole('navigation', { name: 'قائمة المعلّم' }).first()).toBeAttached();
    await expect(english.locator('html[lang="ar"][dir="rtl"]')).toBeAttached();

    await english.goto('/dashboard/teacher/account');
    const setting = english.getByRole('combobox', { name: 'لغة الواجهة' });
    await expect(setting).toHaveValue('');
    await expect(setting.locator('option:checked')).toHaveText('تلقائي (العربية)');
    await expectAccessible(english, 'account in the school’s Arabic, on Automatic');
    // The next page the server sends is in it too, before any script.
    const reloaded = await english.reload();
    expect(await reloaded!.text()).toContain('<html lang="ar" dir="rtl"');
  } finally {
    for (const context of contexts) await context.close();
    await stop();
  }
});
