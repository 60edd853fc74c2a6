import { launch, watch, shot, sleep, BASE } from './lib.mjs';
const W = Number(process.env.W || 1280), H = Number(process.env.H || 800), P = process.env.P || 'd';
const ROLL = process.env.ROLL || `roll-${P}`, CLASS = process.env.CLASS || '10A';
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: W, height: H } });
let page = await ctx.newPage(); watch(page, 'S'+P);
await page.goto(BASE + '/auth');
await page.getByRole('link', { name: /Student/ }).first().click();
await page.waitForURL(/student\/login/);
await page.getByRole('link', { name: 'Register as a student' }).click();
await page.waitForURL(/register/);
await page.getByLabel(/^Name/).fill('Sam Student');
await page.getByLabel('Account username').fill(ROLL);
await page.getByLabel(/^Email/).fill(`${ROLL}@example.com`);
await page.getByLabel('Class').fill(CLASS);
await page.getByLabel('Parent name').fill('Pat Parent');
await page.getByLabel('Parent email').fill(`parent.${ROLL}@example.com`);
await page.getByLabel('Password').fill('correct-horse-9');
await page.getByRole('button', { name: 'Register' }).click();
await page.waitForURL(/student\/login/); await sleep(500);
await page.getByLabel(/Username/).fill(ROLL);
await page.getByLabel('Password').fill('correct-horse-9');
await page.getByRole('button', { name: 'Log in' }).click();
await page.waitForURL(/dashboard\/student/); await sleep(1000);
await shot(page, `${P}-20-student-dash`, false);
await ctx.storageState({ path: `/tmp/qa/student-${P}.json` });
const menuQuiz = page.getByRole('link', { name: 'Quiz', exact: true });
await menuQuiz.waitFor({ timeout: 3000 }).catch(()=>{});
if (await menuQuiz.isVisible()) await menuQuiz.click(); else { console.log('student Quiz menu not visible'); const t = page.getByRole('button', { name: /menu/i }); console.log('menu btns', await t.count()); if (await t.count()) { await t.first().click(); await sleep(300); await shot(page, `${P}-20b-menu-open`, false); await page.getByRole('link', { name: 'Quiz', exact: true }).click(); } else await page.goto(BASE + '/dashboard/student/quiz'); }
await page.waitForURL(/student\/quiz/); await sleep(1000);
await shot(page, `${P}-21-student-list`);
console.log('list:', await page.locator('main').innerText());
await page.getByRole('link', { name: /Take quiz/ }).first().click();
await page.waitForURL(/quiz\/[^/]+$/); await sleep(800);
const quizUrl = page.url(); console.log('quiz url', quizUrl);
await shot(page, `${P}-22-intro`);
await page.getByRole('button', { name: 'Start quiz' }).click(); await sleep(1200);
await shot(page, `${P}-23-q1`);
const RIGHT = { 'What is the capital of France?': 'Paris', 'What is the capital of Japan?': 'Tokyo', 'What is the capital of Canada?': 'Ottawa' };
const qtext = async () => page.locator('legend span').nth(1).innerText();
const timer = async () => page.getByRole('timer').innerText();
// answer q1 right
let t = await qtext(); await page.getByLabel(RIGHT[t], { exact: true }).check();
await page.getByRole('button', { name: 'Next question' }).click();
t = await qtext(); const q2 = t; await page.getByLabel(RIGHT[t], { exact: true }).check();
await page.getByRole('button', { name: 'Previous question' }).click();
console.log('back at q1, checked:', await page.locator('input[type=radio]:checked').evaluate(e=>e.value));
await page.getByRole('button', { name: 'Next question' }).click();
await sleep(1500); // debounce save
console.log('status:', await page.locator('[aria-live=polite]').innerText(), 'timer', await timer());
await sleep(3000);
const before = await timer();
await page.reload(); await sleep(2000);
const after = await timer();
console.log('timer before reload', before, 'after', after, 'question shown', await qtext());
await shot(page, `${P}-24-after-reload`);
// check answers
const collect = async () => { const out = {}; for (let i=0;i<3;i++){ const q = await qtext(); out[q] = await page.locator('input[type=radio]:checked').evaluate(e=>e.value).catch(()=>null); if (i<2) await page.getByRole('button', { name: 'Next question' }).click(); } for (let i=0;i<2;i++) await page.getByRole('button', { name: 'Previous question' }).click(); return out; };
console.log('answers after reload:', await collect());
// close tab and reopen
await page.close(); await sleep(4000);
page = await ctx.newPage(); watch(page, 'S'+P);
await page.goto(quizUrl); await sleep(2000);
console.log('after reopen timer', await timer());
console.log('answers after reopen:', await collect());
await shot(page, `${P}-25-after-reopen`);
// go to last question, answer wrong
await page.getByRole('button', { name: 'Next question' }).click();
await page.getByRole('button', { name: 'Next question' }).click();
t = await qtext(); const opts = await page.locator('fieldset label').allInnerTexts();
if (!page.locator('input[type=radio]:checked').count) {}
const wrong = opts.find(o => o !== RIGHT[t]); await page.getByLabel(wrong, { exact: true }).check();
await shot(page, `${P}-26-last`);
await page.getByRole('button', { name: 'Submit' }).click(); await sleep(600);
await shot(page, `${P}-27-result`, false);
await sleep(1500);
await shot(page, `${P}-28-review`);
console.log('result', await page.getByTestId('result-score').innerText(), await page.getByTestId('result-accuracy').innerText());
console.log('review marks', await page.locator('[data-review]').evaluateAll(e=>e.map(x=>x.dataset.review+':'+x.innerText.replace(/\n/g,' '))));
await page.getByRole('link', { name: 'Back to quizzes' }).first().click(); await sleep(1200);
await shot(page, `${P}-29-list-after`);
console.log('list after:', await page.locator('main').innerText());
await page.getByRole('link', { name: /Review/ }).first().click(); await sleep(1200);
await shot(page, `${P}-30-review-again`);
// reload review page
await page.reload(); await sleep(1500);
console.log('review reload heading', await page.locator('h1').allInnerTexts());
await browser.close();
