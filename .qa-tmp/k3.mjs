import { launch, watch, shot, sleep, BASE } from './lib.mjs';
const W = Number(process.env.W || 1280), H = Number(process.env.H || 800), P = process.env.P || 'd';
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: W, height: H }, storageState: `/tmp/qa/teacher-${P}.json` });
const page = await ctx.newPage(); watch(page, 'K3'+P);
await page.goto(BASE + '/dashboard/teacher/create-quiz'); await sleep(1000);
await page.getByLabel('Title').fill('Three Qs');
for (let i = 0; i < 3; i++) {
  await page.getByRole('button', { name: 'Add question' }).click();
  const sec = page.getByRole('region', { name: `Question ${i+1}` });
  await sec.getByLabel('Question text').fill(`Q number ${i+1}`);
  await sec.locator('ol input').first().fill('A'); await sec.getByRole('button', { name: 'Add option' }).click(); await sec.locator('ol input').nth(1).fill('B');
  await sec.getByLabel('Correct answer').selectOption({ label: 'A' });
}
// keyboard: focus Preview button and press Enter
await page.getByRole('button', { name: 'Preview quiz' }).focus();
const [tab] = await Promise.all([ctx.waitForEvent('page'), page.keyboard.press('Enter')]);
watch(tab, 'PV'); await sleep(1500);
const focused = () => tab.evaluate(() => { const e = document.activeElement; const lab = e.labels?.[0]?.innerText || e.getAttribute('aria-label') || e.innerText || ''; return `${e.tagName.toLowerCase()} "${lab.replace(/\s+/g,' ').slice(0,40)}"`; });
console.log('timer (no maxTime => placeholder):', await tab.getByRole('timer').innerText());
let n = 0; let f;
for (; n < 40; n++) { await tab.keyboard.press('Tab'); f = await focused(); if (f.startsWith('input')) break; }
console.log(`tabs from page load to first option: ${n+1}`);
await tab.keyboard.press('Space');
await tab.keyboard.press('Tab'); console.log('->', await focused()); // Previous disabled? skip
await tab.keyboard.press('Enter'); await sleep(200); console.log('after Next 1->2 focus:', await focused());
await tab.keyboard.press('Shift+Tab'); await tab.keyboard.press('Shift+Tab'); console.log('shift-tab ->', await focused());
await tab.keyboard.press('Enter'); await sleep(200); console.log('after Previous 2->1 focus:', await focused());
await sleep(9000);
console.log('after 10s:', await tab.locator('h1').allInnerTexts());
await shot(tab, `${P}-83-preview-placeholder-timeout`, false);
await tab.close();
await browser.close();
