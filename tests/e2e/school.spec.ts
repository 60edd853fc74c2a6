import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { buildSchoolSetup, buildTeacherAccount, TEST_SETUP_CODE } from '../../src/server/testing/factories.ts';
import { DEMO_PASSWORD, DEMO_TEACHER_EMAIL } from '../../src/shared/demo.ts';
import {
  createInvitationLinkThroughUi,
  enterSetupCode,
  fillTeacherFields,
  logInTeacherThroughUi,
  registerTeacherByLink,
} from './actors.ts';
import { ownInstancePort, startFreshInstance } from './app-instances.ts';
import { teacherWithClass } from './api-setup.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { administratorToken, E2E_ADMINISTRATOR } from './school-setup.ts';
import { patience } from '../../src/server/testing/patience.ts';

const SCREENSHOT_DIR = 'docs/screenshots';
/** Phone screenshots are for looking at, not for the docs. */
const QA_DIR = '.qa-tmp/screenshots';

/** The docs keep the desktop screenshot; the phone's goes where a reviewer looks at it. */
async function screenshot(page: Page, name: string, project: string) {
  const dir = project === 'desktop' ? SCREENSHOT_DIR : QA_DIR;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: `${dir}/${name}.png`, fullPage: true });
}

async function confirm(page: Page, answer: string) {
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: answer, exact: true }).click();
  await expect(dialog).toBeHidden();
}

test('the administrator invites a teacher, who registers; a deactivation ends their session', async ({
  page,
  browser,
  pageErrors,
}, testInfo) => {
  pageErrors.allow(/status of 401/); // the deactivated teacher's refused request, in the other context
  await administratorToken(page.request); // the school exists, with this administrator
  await logInTeacherThroughUi(page, E2E_ADMINISTRATOR);
  await page.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'Staff' }).click();
  await expect(page).toHaveURL(/\/dashboard\/teacher\/staff$/);
  await expect(page.getByRole('textbox', { name: 'School name' })).toHaveValue(E2E_ADMINISTRATOR.schoolName);

  const note = `E2E invite ${Date.now()}`;
  const link = await createInvitationLinkThroughUi(page, note);
  const invitations = page.getByRole('table', { name: 'Invitations, newest first' });
  await expectAccessible(page, 'staff screen');
  await screenshot(page, 'staff', testInfo.project.name);

  // The teacher, in a browser of their own, opens the link.
  const teacherContext = await browser.newContext();
  const teacherPage = await teacherContext.newPage();
  const teacher = buildTeacherAccount();
  await registerTeacherByLink(teacherPage, link, teacher, E2E_ADMINISTRATOR.schoolName);
  await logInTeacherThroughUi(teacherPage, teacher);
  // A teacher who is not an administrator has no Staff.
  await expect(teacherPage.getByRole('link', { name: 'Staff' })).toHaveCount(0);

  // The invitation is used; the administrator deactivates the new teacher.
  await page.reload();
  await expect(invitations.getByRole('row', { name: new RegExp(note) })).toContainText(teacher.name);
  await expect(invitations.getByRole('row', { name: new RegExp(note) })).toContainText('used');
  const teachers = page.getByRole('table', { name: 'Teachers, by name' });
  while (!(await teachers.getByRole('rowheader', { name: teacher.name }).isVisible())) {
    await page.getByRole('button', { name: 'Load more' }).last().click();
  }
  await page.getByRole('button', { name: `Deactivate: ${teacher.name}` }).click();
  await confirm(page, 'Deactivate');
  await expect(teachers.getByRole('row', { name: new RegExp(teacher.name) })).toContainText('Deactivated');

  // The teacher's open dashboard: the next request ends the session, the login says why.
  await teacherPage.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'Students' }).click();
  await expect(teacherPage).toHaveURL(/\/auth\/teacher\/login$/);
  await expect(teacherPage.getByRole('main').getByRole('status')).toHaveText(
    "Your account has been deactivated by your school's administrator.",
  );
  await expectAccessible(teacherPage, 'login after deactivation');
  await teacherContext.close();
  // The end-of-test axe run reads the administrator's page: not mid-way through a toast's exit.
  await expect(page.getByText('Teacher updated')).toHaveCount(0);
});

test('the administrator gives a class without a teacher its owner', async ({ page }) => {
  const adminToken = await administratorToken(page.request);
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  // A class whose only teacher is deactivated: no active teacher teaches it (decision 031).
  const { token, klass } = await teacherWithClass(page.request, `0 Untaught ${Date.now().toString(36)}`);
  const profile = await page.request.post('/api/teacher/get-teacher-by-id', { headers: auth(token) });
  const teacherId = (await profile.json()).data._id as string;
  const deactivated = await page.request.post(`/api/school/teachers/${teacherId}/deactivate`, {
    headers: auth(adminToken),
  });
  expect(deactivated.ok(), await deactivated.text()).toBe(true);

  await logInTeacherThroughUi(page, E2E_ADMINISTRATOR);
  await page.goto('/dashboard/teacher/staff');
  const untaught = page.getByRole('table', { name: 'Classes without a teacher, by name' });
  const row = untaught.getByRole('row', { name: new RegExp(klass.name) });
  await expect(row).toBeVisible();
  await expectAccessible(page, 'classes without a teacher');
  const picker = row.getByRole('combobox', { name: `Teacher for ${klass.name}` });
  await expect(picker.getByRole('option', { name: E2E_ADMINISTRATOR.name })).toHaveCount(1);
  await picker.selectOption({ label: E2E_ADMINISTRATOR.name });
  await row.getByRole('button', { name: `Assign the teacher to ${klass.name}` }).click();
  await expect(row).toHaveCount(0);
  await expect(page.getByText(`${E2E_ADMINISTRATOR.name} now teaches ${klass.name}`)).toBeVisible();

  // The administrator teaches it now: it is in their classes.
  await page.goto('/dashboard/teacher/classes');
  await expect(page.getByRole('link', { name: new RegExp(klass.name) })).toBeVisible();
});

test('registering without an invitation, or with a bad one, is refused', async ({ page, pageErrors }) => {
  pageErrors.allow(/status of 404/); // the browser logs the refused code
  await administratorToken(page.request);
  await page.goto('/auth/teacher/register');
  const codeField = page.getByRole('textbox', { name: 'Invitation code' });
  await expect(codeField).toBeVisible();
  await fillTeacherFields(page, buildTeacherAccount());
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(codeField).toBeFocused();
  await expect(codeField).toHaveAccessibleDescription('Invitation code is required');
  await expect(page).toHaveURL(/\/auth\/teacher\/register$/);

  await page.goto(`/auth/teacher/register?invitation=${'x'.repeat(32)}`);
  await expect(page.getByRole('heading', { name: 'This invitation cannot be used' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    'No invitation has this code. Open the link exactly as you were given it.',
  );
  await expect(page.getByRole('button', { name: 'Register' })).toHaveCount(0);
  await expectAccessible(page, 'unusable invitation');
  await page.getByRole('link', { name: 'Enter another code' }).click();
  await expect(page.getByRole('textbox', { name: 'Invitation code' })).toBeVisible();
});

test('first run: a server with no school leads to /setup, which signs the administrator in', async ({
  page,
  pageErrors,
}, testInfo) => {
  pageErrors.allow(/status of 403/); // the browser logs the refused wrong set-up code
  // The shared e2e server is set up by other scenarios: this one needs a server of its own.
  const { instance, stop } = await startFreshInstance(ownInstancePort(50, testInfo.project.name));
  try {
    await page.goto(`${instance.baseUrl}/`);
    const setUp = page.getByRole('link', { name: 'Set up your school' });
    await expect(setUp).toBeVisible();
    await expectAccessible(page, 'landing before setup');

    // The teacher's login leads there too.
    await page.goto(`${instance.baseUrl}/auth/teacher/login`);
    await expect(page).toHaveURL(`${instance.baseUrl}/setup`);
    await expect(page.getByRole('heading', { name: 'Set up your school' })).toBeVisible();
    // First the set-up code from the server's log (decision 050): a wrong one is refused, saying where to look.
    await expect(page.getByText(/set-up code this server printed in its log/)).toBeVisible();
    await expect(page.getByLabel('School name')).toHaveCount(0);
    await expectAccessible(page, 'setup code');
    await page.getByLabel('Set-up code').fill('WRONG-CODE-0000');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText("This is not the set-up code. Copy it from the server's log.").first()).toBeVisible();
    await expect(page.getByLabel('School name')).toHaveCount(0);
    await enterSetupCode(page);
    await expectAccessible(page, 'setup');
    await screenshot(page, 'setup', testInfo.project.name);

    const setup = buildSchoolSetup();
    await page.getByLabel('School name').fill(setup.schoolName);
    await fillTeacherFields(page, setup);
    await page.getByRole('button', { name: 'Set up the school' }).click();
    await expect(page).toHaveURL(`${instance.baseUrl}/dashboard/teacher`);
    await page.getByRole('navigation', { name: 'Teacher menu' }).getByRole('link', { name: 'Staff' }).click();
    await expect(page.getByRole('textbox', { name: 'School name' })).toHaveValue(setup.schoolName);

    // Once set up, /setup says so and leads to the login (signed out: the auth pages send a session to its dashboard).
    await page
      .getByRole('button', { name: /Logout/i })
      .first()
      .click();
    await page.goto(`${instance.baseUrl}/setup`);
    await expect(page.getByRole('heading', { name: 'Your school is set up' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Log in as a teacher' })).toBeVisible();
    await page.goto(`${instance.baseUrl}/`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Set up your school' })).toBeHidden();
  } finally {
    await page.goto('about:blank');
    await stop();
  }
});

test('first run: "Fill with a demo school" fills a fresh server, whose demo teacher then logs in (decision 041)', async ({
  page,
}, testInfo) => {
  // Its own server's start and the demo's fill: more than the default test limit under load.
  test.setTimeout(patience(180_000));
  const { instance, stop } = await startFreshInstance(ownInstancePort(70, testInfo.project.name));
  try {
    // No demo yet: the landing page names no demo account.
    await page.goto(`${instance.baseUrl}/`);
    await expect(page.getByRole('link', { name: 'Set up your school' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Try the demo' })).toBeHidden();
    expect(await page.content()).not.toContain(DEMO_PASSWORD);

    await page.goto(`${instance.baseUrl}/setup`);
    await expect(page.getByRole('heading', { name: 'Set up your school' })).toBeVisible();
    await enterSetupCode(page);
    await page.getByRole('button', { name: 'Fill with a demo school' }).click();
    // The server hashes the demo's passwords and takes its attempts: tens of seconds on a busy machine.
    await expect(page).toHaveURL(`${instance.baseUrl}/auth/teacher/login`, { timeout: patience(120_000) });
    await expect(page.getByRole('status')).toContainText(`Log in as ${DEMO_TEACHER_EMAIL}`);
    await expectAccessible(page, 'login after the demo');
    await page.getByLabel('Email').fill(DEMO_TEACHER_EMAIL);
    await page.getByLabel('Password').fill(DEMO_PASSWORD);
    await page.getByLabel('Password').press('Enter');
    await expect(page).toHaveURL(`${instance.baseUrl}/dashboard/teacher`);
    // The school is set up now: the demo cannot be filled again.
    const again = await page.request.post(`${instance.baseUrl}/api/school/demo`, {
      data: { setupCode: TEST_SETUP_CODE },
    });
    expect(again.status()).toBe(409);

    // The landing page names the demo's sign-ins now that it is there (decision 050).
    await page.goto(`${instance.baseUrl}/`);
    const demo = page.getByRole('region', { name: 'Try the demo' });
    await expect(demo).toContainText(DEMO_TEACHER_EMAIL);
    await expect(demo).toContainText(DEMO_PASSWORD);

    // The administrator (the demo's teacher here) removes it: the server is back at its first run.
    await page.goto(`${instance.baseUrl}/dashboard/teacher/staff`);
    await page.getByRole('button', { name: 'Remove the demo' }).click();
    await confirm(page, 'Remove the demo');
    await expect(page).toHaveURL(`${instance.baseUrl}/setup`, { timeout: patience(30_000) });
    await expect(page.getByLabel('Set-up code')).toBeVisible();
    await page.goto(`${instance.baseUrl}/`);
    await expect(page.getByRole('link', { name: 'Set up your school' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Try the demo' })).toBeHidden();
  } finally {
    await page.goto('about:blank');
    await stop();
  }
});
