import { launch, watch, shot, sleep, BASE } from './lib.mjs';
const W = Number(process.env.W || 1280), H = Number(process.env.H || 800), P = process.env.P || 'd';
const browser = await launch();
const ctx = await browser.newContext({ viewport: { width: W, height: H }, storageState: `/tmp/qa/teacher-${P}.json` });
const page = await ctx.newPage(); watch(page, 'K'+P);
const focused = () => page.evaluate(() => { const e = document.activeElement; if (!e) return 'none'; const lab = e.labels?.[0]?.innerText || e.getAttribute('aria-label') || e.innerText || e.value || ''; return `${e.tagName.toLowerCase()}${e.type ? '['+e.type+']' : ''} "${lab.replace(/\s+/g,' ').slice(0,50)}"`; });
const tab = async (n = 1, shift = false) => { for (let i = 0; i < n; i++) await page.keyboard.press(shift ? 'Shift+Tab' : 'Tab'); return focused(); };
await page.goto(BASE + '/dashboard/teacher/create-quiz'); await sleep(1200);
const seq = [];
for (let i = 0; i < 22; i++) seq.push(await tab());
console.log('TAB ORDER:\n' + seq.map((s,i)=>`${i+1}. ${s}`).join('\n'));
// Now reload and do the real thing by keyboard
await page.reload(); await sleep(1200);
// tab until Title
for (let i = 0; i < 30; i++) { const f = await tab(); if (f.includes('Title')) break; }
await page.keyboard.type('Keyboard Quiz ✓ 🌍 日本語');
await tab(); await page.keyboard.type('10A');
let f = await tab(); console.log('after class ->', f);
if (f.includes('Subject')) f = await tab();
console.log('deadline field ->', f);
// type a date in datetime-local: month day year hour minute AM/PM
const dl = new Date(Date.now() + 2*24*3600e3);
await page.keyboard.type(String(dl.getMonth()+1).padStart(2,'0') + String(dl.getDate()).padStart(2,'0') + String(dl.getFullYear()));
await page.keyboard.press('ArrowRight'); // next segment? typing moves automatically
await page.keyboard.type('1030AM');
console.log('deadline value', await page.getByLabel('Deadline').inputValue());
f = await tab(); console.log('->', f);
if (!f.includes('Maximum')) { for (let i=0;i<5;i++){ f = await tab(); if (f.includes('Maximum')) break; } }
await page.keyboard.type('3');
f = await tab(); console.log('->', f);
// background button
if (!f.includes('background')) { for (let i=0;i<5;i++){ f = await tab(); if (f.includes('background')) break; } }
await page.keyboard.press('Enter'); await sleep(400);
console.log('in dialog focus:', await focused());
await page.keyboard.press('ArrowRight'); await sleep(100);
console.log('after arrow:', await focused());
await shot(page, `${P}-50-kbd-dialog`, false);
await page.keyboard.press('Escape'); await sleep(300);
console.log('after Esc focus:', await focused(), '| bg:', await page.locator('text=Background:').locator('..').innerText());
await page.keyboard.press('Space'); await sleep(300);
await page.keyboard.press('ArrowRight'); await page.keyboard.press('ArrowRight'); await sleep(100);
// tab to Save in dialog
for (let i = 0; i < 5; i++) { f = await tab(); if (f.includes('Save')) break; }
console.log('dialog save focus:', f);
await page.keyboard.press('Enter'); await sleep(300);
console.log('after dialog save focus:', await focused(), '| bg:', await page.locator('text=Background:').locator('..').innerText());
// to Add question
for (let i = 0; i < 5; i++) { f = await tab(); if (f.includes('Add question')) break; }
console.log('add q focus:', f);
for (let q = 0; q < 2; q++) {
  if (q > 0) { for (let i = 0; i < 30; i++) { f = await tab(); if (f.includes('Add question')) break; } }
  await page.keyboard.press('Enter'); await sleep(200);
  console.log('after add question focus:', await focused());
  await page.keyboard.type(q === 0 ? 'Which is the largest ocean? 🌊' : 'Pick the prime');
  f = await tab(); console.log('->', f); await page.keyboard.type(q === 0 ? 'Pacific' : '4');
  f = await tab(); console.log('->', f); // remove option btn (disabled?)
  if (!f.includes('Add option')) { f = await tab(); console.log('->', f); }
  await page.keyboard.press('Enter'); await sleep(150); console.log('after add option focus:', await focused());
  await page.keyboard.type(q === 0 ? 'Atlantic' : '7');
  await page.keyboard.press('Tab'); await page.keyboard.press('Tab'); // remove btn -> add option
  f = await focused(); console.log('->', f);
  await page.keyboard.press('Space'); await sleep(150);
  await page.keyboard.type(q === 0 ? 'Indian' : '9');
  // remove this 3rd option via keyboard: tab to its remove button and press Enter
  f = await tab(); console.log('->', f); await page.keyboard.press('Enter'); await sleep(150);
  console.log('after remove focus:', await focused());
  // go to Correct answer select
  for (let i = 0; i < 6; i++) { f = await tab(); if (f.startsWith('select')) break; }
  console.log('select focus:', f);
  await page.keyboard.press('ArrowDown'); await sleep(100);
  console.log('answer:', await page.evaluate(() => document.activeElement.selectedOptions[0]?.text));
  if (q === 1) { await page.keyboard.press('ArrowDown'); console.log('answer2:', await page.evaluate(() => document.activeElement.selectedOptions[0]?.text)); }
}
await shot(page, `${P}-51-kbd-editor-filled`);
// tab to Save quiz and press Enter
for (let i = 0; i < 10; i++) { f = await tab(); if (f.includes('Save quiz')) break; }
console.log('save focus', f);
await page.keyboard.press('Enter');
await page.waitForURL(/all-quiz/, { timeout: 5000 }).catch(async () => { console.log('did NOT go to all-quiz'); await shot(page, `${P}-52-kbd-save-fail`); console.log(await page.locator('.text-red-700').allInnerTexts()); });
await sleep(1000);
await shot(page, `${P}-53-kbd-allquiz`);
await browser.close();
