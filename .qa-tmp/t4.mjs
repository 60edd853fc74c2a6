import { launch, watch, shot, sleep, BASE } from './lib.mjs';
const W = Number(process.env.W || 1280), H = Number(process.env.H || 800), P = process.env.P || 'd';
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: W, height: H }, storageState: `/tmp/qa/teacher-${P}.json` });
const page = await ctx.newPage(); watch(page, 'T'+P);
await page.goto(BASE + '/dashboard/teacher/all-quiz'); await sleep(1000);
await page.getByRole('link', { name: 'World Capitals' }).first().click(); await sleep(1200);
await page.getByRole('button', { name: 'Q2', exact: true }).hover(); await sleep(600);
await shot(page, `${P}-43-hover-q2-btn`, false);
await page.mouse.move(5, 5); await sleep(700);
// keyboard: tab to Q3
await page.getByRole('button', { name: 'Q3', exact: true }).focus(); await sleep(600);
await shot(page, `${P}-44-focus-q3`, false);
await browser.close();
