import { launch, watch, shot, sleep, BASE } from './lib.mjs';
const W = Number(process.env.W || 1280), H = Number(process.env.H || 800), P = process.env.P || 'd';
const CLASS = process.env.CLASS || '10A';
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: W, height: H }, storageState: `/tmp/qa/teacher-${P}.json` });
const page = await ctx.newPage(); watch(page, 'T'+P);
await page.goto(BASE + '/dashboard/teacher');
const menuQuiz = page.getByRole('link', { name: 'Quiz', exact: true });
if (await menuQuiz.isVisible()) await menuQuiz.click(); else { console.log('Quiz menu not visible'); await page.goto(BASE + '/dashboard/teacher/all-quiz'); }
await page.waitForURL(/all-quiz/); await sleep(800);
await shot(page, `${P}-05-allquiz-empty`);
console.log('allquiz text:', (await page.locator('main').innerText()).slice(0, 400));
// find create link
const create = page.getByRole('link', { name: /create|new quiz/i }).first();
console.log('create link text:', await create.innerText());
await create.click(); await page.waitForURL(/create-quiz/); await sleep(500);
await shot(page, `${P}-06-editor-empty`);
// save empty
await page.getByRole('button', { name: 'Save quiz' }).click(); await sleep(600);
await shot(page, `${P}-07-editor-empty-save`);
console.log('focused after empty save:', await page.evaluate(() => document.activeElement?.outerHTML.slice(0,150)));
console.log('errors:', await page.locator('.text-red-700').allInnerTexts());
// preview without title
await page.getByRole('button', { name: 'Preview quiz' }).click(); await sleep(400);
// whitespace title
await page.getByLabel('Title').fill('   ');
await page.getByRole('button', { name: 'Preview quiz' }).click(); await sleep(400);
// fill
await page.getByLabel('Title').fill('World Capitals');
await page.getByLabel('Class').fill(CLASS);
const dl = new Date(Date.now() + 3*24*3600e3); const pad = (n)=>String(n).padStart(2,'0');
await page.getByLabel('Deadline').fill(`${dl.getFullYear()}-${pad(dl.getMonth()+1)}-${pad(dl.getDate())}T${pad(dl.getHours())}:${pad(dl.getMinutes())}`);
await page.getByLabel('Maximum time (minutes)').fill('5');
const Q = [
  ['What is the capital of France?', ['Paris','Lyon','Marseille'], 'Paris'],
  ['What is the capital of Japan?', ['Osaka','Tokyo','Kyoto'], 'Tokyo'],
  ['What is the capital of Canada?', ['Toronto','Ottawa','Vancouver'], 'Ottawa'],
];
for (let i = 0; i < 3; i++) {
  await page.getByRole('button', { name: 'Add question' }).click(); await sleep(150);
  const sec = page.getByRole('region', { name: `Question ${i+1}` });
  await sec.getByLabel('Question text').fill(Q[i][0]);
  // options: start with one
  for (let k = 0; k < Q[i][1].length; k++) {
    if (k > 0) await sec.getByRole('button', { name: 'Add option' }).click();
    await sec.locator('ol input[type=text]').nth(k).fill(Q[i][1][k]);
  }
  if (i === 0) {
    // add an extra and remove it, plus leave an empty option
    await sec.getByRole('button', { name: 'Add option' }).click();
    await sec.locator('ol input[type=text]').nth(3).fill('Nice');
    await sec.getByRole('button', { name: 'Remove option 4 of question 1' }).click();
    await sec.getByRole('button', { name: 'Add option' }).click(); // empty option left
  }
  await sec.getByLabel('Correct answer').selectOption({ label: Q[i][2] });
}
await shot(page, `${P}-08-editor-filled`);
// background dialog: cancel first
await page.getByRole('button', { name: 'Select quiz background' }).click(); await sleep(400);
await shot(page, `${P}-09-bg-dialog`, false);
await page.locator('dialog label').nth(2).click(); await sleep(200);
await page.getByRole('button', { name: 'Cancel' }).click(); await sleep(300);
console.log('bg after cancel:', await page.locator('text=Background:').locator('..').innerText());
await page.getByRole('button', { name: 'Select quiz background' }).click(); await sleep(300);
await page.locator('dialog label').nth(3).click(); await sleep(200);
await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click(); await sleep(300);
console.log('bg after save:', await page.locator('text=Background:').locator('..').innerText());
await shot(page, `${P}-10-editor-bg-saved`, false);
// preview
const [tab] = await Promise.all([ctx.waitForEvent('page'), page.getByRole('button', { name: 'Preview quiz' }).click()]);
watch(tab, 'PV'+P); await tab.waitForLoadState(); await sleep(1200);
console.log('preview url', tab.url());
await shot(tab, `${P}-11-preview`);
// answer: count options on each question, check empty option dropped
for (let i = 0; i < 3; i++) {
  const qt = await tab.locator('legend span').nth(1).innerText();
  const opts = await tab.locator('fieldset label').allInnerTexts();
  console.log('preview Q', i, qt, opts);
  const right = Q.find(q => q[0] === qt)[2];
  const choice = i === 2 ? opts.find(o => o !== right) : right;
  await tab.getByLabel(choice, { exact: true }).check();
  if (i < 2) await tab.getByRole('button', { name: 'Next question' }).click();
}
await shot(tab, `${P}-12-preview-last`);
await tab.getByRole('button', { name: 'Submit' }).click(); await sleep(800);
await shot(tab, `${P}-13-preview-result`);
console.log('preview result:', await tab.getByTestId('result-score').innerText(), await tab.getByTestId('result-accuracy').innerText());
await tab.close();
// save
await page.getByRole('button', { name: 'Save quiz' }).click();
await page.waitForURL(/all-quiz/, { timeout: 5000 }).catch(() => console.log('did not navigate to all-quiz'));
await sleep(1000);
await shot(page, `${P}-14-allquiz-card`);
console.log('card:', await page.locator('main').innerText());
await browser.close();
