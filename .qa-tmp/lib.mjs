import { chromium } from 'playwright-core';
import fs from 'node:fs';
export const BASE = 'http://127.0.0.1:3500';
export const SHOTS = '/tmp/qa/shots';
export async function launch() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless','--no-sandbox','--disable-gpu','--disable-quic','--no-first-run','--disable-background-networking','--disable-component-update','--disable-sync'] });
}
export const logs = [];
export function watch(page, tag) {
  page.on('console', (m) => { if (['error','warning'].includes(m.type())) { const s = `[${tag}] console.${m.type()} @${page.url()}: ${m.text()}`; logs.push(s); console.log(s); } });
  page.on('pageerror', (e) => { const s = `[${tag}] PAGEERROR @${page.url()}: ${e.message}`; logs.push(s); console.log(s); });
  page.on('dialog', async (d) => { const s = `[${tag}] DIALOG ${d.type()}: ${d.message()}`; logs.push(s); console.log(s); await d.accept().catch(()=>{}); });
  page.on('response', (r) => { if (r.status() >= 400) console.log(`[${tag}] HTTP ${r.status()} ${r.request().method()} ${r.url()}`); });
}
export async function shot(page, name, full = true) {
  const p = `${SHOTS}/${name}.png`;
  await page.screenshot({ path: p, fullPage: full });
  console.log('shot', p);
  return p;
}
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
