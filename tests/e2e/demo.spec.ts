import { DEMO_PASSWORD, DEMO_STUDENT_ROLL_NUMBER, DEMO_TEACHER_EMAIL } from '../../src/shared/demo.ts';
import { expect, expectAccessible, test } from './fixtures.ts';

test('the landing page’s demo link explains the demo school and how to sign in', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('link', { name: 'Try the demo' }).click();
  await expect(page).toHaveURL(/#demo$/);
  const demo = page.getByRole('region', { name: 'Try the demo' });
  await expect(demo).toBeInViewport();
  await expect(demo).toContainText('npm run seed');
  await expect(demo).toContainText(DEMO_TEACHER_EMAIL);
  await expect(demo).toContainText(DEMO_STUDENT_ROLL_NUMBER);
  await expect(demo).toContainText(DEMO_PASSWORD);
  await expectAccessible(page, 'landing, demo section');
  await demo.getByRole('link', { name: 'Student login' }).click();
  await expect(page).toHaveURL(/\/auth\/student\/login$/);
});
