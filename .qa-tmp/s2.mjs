import { launch, watch, shot, sleep, BASE } from './lib.mjs';
const W = Number(process.env.W || 1280), H = Number(process.env.H || 800), P = process.env.P || 'd';
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: W, height: H }, storageState: `/tmp/qa/student-${P}.json` });
const page = await ctx.newPage(); watch(page, 'S'+P);
await page.goto(BASE + '/dashboard/student/quiz'); await sleep(1500);
await shot(page, `${P}-70-student-list-3`);
console.log('list overflow:', await page.evaluate(() => document.documentElement.scrollWidth > innerWidth));
await page.getByRole('link', { name: /Take quiz.*Supercal/ }).click(); await sleep(1000);
await shot(page, `${P}-71-odd-intro`);
await page.getByRole('button', { name: 'Start quiz' }).click(); await sleep(1000);
const t0 = Date.now();
await shot(page, `${P}-72-odd-attempt`);
console.log('attempt overflow:', await page.evaluate(() => document.documentElement.scrollWidth), 'vs', W);
// answer Q1 whatever is first option
await page.locator('fieldset input[type=radio]').first().check();
await sleep(1000);
for (let i = 0; i < 14; i++) {
  await sleep(5000);
  const tm = await page.getByRole('timer').innerText().catch(() => 'no timer');
  console.log(`t+${Math.round((Date.now()-t0)/1000)}s timer=${tm}`);
  if (tm === 'no timer') break;
}
await sleep(2000);
await shot(page, `${P}-73-autosubmitted`, false);
console.log('heading', await page.locator('h1').allInnerTexts());
console.log('result', await page.getByTestId('result-score').innerText().catch(()=>'?'), await page.getByTestId('result-accuracy').innerText().catch(()=>'?'));
await shot(page, `${P}-74-autosubmitted-full`);
console.log('review overflow:', await page.evaluate(() => document.documentElement.scrollWidth));
await browser.close();
