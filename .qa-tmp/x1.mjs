import { launch, watch, shot, sleep, BASE } from './lib.mjs';
const W = Number(process.env.W || 1280), H = Number(process.env.H || 800), P = process.env.P || 'd';
const browser = await launch();
// teacher: analytics url for World Capitals, from all-quiz
const tctx = await browser.newContext({ viewport: { width: W, height: H }, storageState: `/tmp/qa/teacher-${P}.json` });
const tp = await tctx.newPage(); watch(tp, 'T');
await tp.goto(BASE + '/dashboard/teacher/all-quiz'); await sleep(1200);
const href = await tp.getByRole('link', { name: 'World Capitals' }).getAttribute('href');
const quizId = href.split('/').pop(); console.log('quizId', quizId);
// odd quiz analytics
await tp.getByRole('link', { name: /Supercal/ }).click(); await sleep(1500);
await shot(tp, `${P}-45-odd-analytics`);
console.log('odd analytics scrollWidth', await tp.evaluate(() => document.documentElement.scrollWidth));
// preview no stored data: fresh teacher context without localStorage preview
const fresh = await browser.newContext({ viewport: { width: W, height: H }, storageState: `/tmp/qa/teacher-${P}.json` });
const fp = await fresh.newPage(); watch(fp, 'PV0');
await fp.evaluate?.call; 
await fp.goto(BASE + '/dashboard/teacher/preview/Anything%20Here'); await sleep(1500);
await shot(fp, `${P}-90-preview-nodata`, false);
console.log('preview nodata:', await fp.locator('main').innerText().catch(async()=>await fp.locator('body').innerText()));
// bogus preview data
await fp.evaluate(() => { for (const k of Object.keys(localStorage)) console.log('LSKEY', k); });
// student of another class
const sctx = await browser.newContext({ viewport: { width: W, height: H } });
const sp = await sctx.newPage(); watch(sp, 'S9B');
await sp.goto(BASE + '/auth/student/register'); await sleep(800);
await sp.getByLabel(/^Name/).fill('Olly Other');
await sp.getByLabel('Account username').fill(`other-${P}`);
await sp.getByLabel(/^Email/).fill(`other-${P}@example.com`);
await sp.getByLabel('Class').fill('9B');
await sp.getByLabel('Parent name').fill('Pam');
await sp.getByLabel('Parent email').fill(`pam-${P}@example.com`);
await sp.getByLabel('Password').fill('correct-horse-9');
await sp.getByRole('button', { name: 'Register' }).click(); await sp.waitForURL(/login/);
await sp.getByLabel(/Username/).fill(`other-${P}`); await sp.getByLabel('Password').fill('correct-horse-9');
await sp.getByRole('button', { name: 'Log in' }).click(); await sp.waitForURL(/dashboard\/student/); await sleep(800);
await sp.goto(BASE + '/dashboard/student/quiz'); await sleep(1200);
console.log('other list:', (await sp.locator('main').innerText()).replace(/\n+/g,' | '));
await sp.goto(BASE + `/dashboard/student/quiz/${quizId}`); await sleep(1500);
await shot(sp, `${P}-91-other-class`, false);
console.log('other-class quiz page:', (await sp.locator('main').innerText()).replace(/\n+/g,' | '));
await sp.goto(BASE + `/dashboard/student/quiz/not-a-real-id`); await sleep(1500);
console.log('bogus id page:', (await sp.locator('main').innerText()).replace(/\n+/g,' | '));
await sp.goto(BASE + `/dashboard/student/quiz/00000000-0000-0000-0000-000000000000`); await sleep(1500);
console.log('unknown uuid page:', (await sp.locator('main').innerText()).replace(/\n+/g,' | '));
// student opens teacher analytics URL
await sp.goto(BASE + `/dashboard/teacher/quiz-analytics/${quizId}`); await sleep(1500);
console.log('student->teacher analytics:', sp.url());
await browser.close();
