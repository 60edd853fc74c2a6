import { launch, watch, shot, sleep, BASE } from './lib.mjs';
const W = process.env.W ? Number(process.env.W) : 1280, H = process.env.H ? Number(process.env.H) : 800;
const P = process.env.P || 'd';
const email = process.env.EMAIL || `teacher.${P}@example.com`;
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: W, height: H }, acceptDownloads: true });
const page = await ctx.newPage(); watch(page, 'T'+P);
await page.goto(BASE + '/'); await shot(page, `${P}-01-landing`, false);
await page.getByRole('link', { name: 'Get Started' }).first().click();
await page.waitForLoadState('networkidle'); console.log('after Get Started:', page.url());
await shot(page, `${P}-02-auth`, false);
await page.getByRole('link', { name: /Teacher/ }).first().click();
await page.waitForLoadState('networkidle'); console.log('after Teacher:', page.url());
await page.getByRole('link', { name: 'Create a teacher account' }).click();
await page.getByLabel('Full name').fill('Tessa Teacher');
await page.getByLabel('Subject').fill('Geography');
await page.getByLabel('Email').fill(email);
await page.getByLabel('Password').fill('correct-horse-9');
await page.getByRole('button', { name: 'Register' }).click();
await sleep(1500); console.log('after register:', page.url()); await shot(page, `${P}-03-after-register`, false);
if (!page.url().includes('/login')) await page.goto(BASE + '/auth/teacher/login');
await page.getByLabel('Email').fill(email);
await page.getByLabel('Password').fill('correct-horse-9');
await page.getByRole('button', { name: 'Log in' }).click();
await page.waitForURL(/dashboard\/teacher/); await sleep(1000);
console.log('after login:', page.url()); await shot(page, `${P}-04-dashboard`, false);
// menu -> Quiz
const quizLink = page.getByRole('link', { name: 'Quiz', exact: true });
console.log('quiz links', await quizLink.count(), 'visible', await quizLink.first().isVisible());
if (!(await quizLink.first().isVisible())) {
  // mobile: maybe a menu toggle
  const btns = await page.getByRole('button').allInnerTexts(); console.log('buttons', btns);
  const labels = await page.locator('button[aria-label]').evaluateAll(e=>e.map(x=>x.getAttribute('aria-label')));
  console.log('btn labels', labels);
}
await ctx.storageState({ path: `/tmp/qa/teacher-${P}.json` });
await browser.close();
