import { DEMO_PASSWORD, DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL } from '../../src/shared/demo.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

/**
 * The landing page names the demo's sign-ins only where the demo school is (decision 050): the
 * e2e server's school is a real one (school-setup.ts), so its page shows no demo and no public
 * password. school.spec.ts's first run fills the demo and sees the block appear.
 */
test('a school without the demo: the landing page names no demo account', async ({ page }) => {
  const status = await page.request.get('/api/school');
  expect((await status.json()).data.hasDemo).toBe(false);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Try the demo' })).toBeHidden();
  await expect(page.getByRole('link', { name: 'Try the demo' })).toBeHidden();
  const html = await page.content();
  for (const credential of [DEMO_PASSWORD, DEMO_TEACHER_EMAIL, DEMO_STUDENT_ROLL_NUMBER]) {
    expect(html).not.toContain(credential);
  }
  await expectAccessible(page, 'landing without the demo');
});
