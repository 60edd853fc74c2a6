// The time to switch language (issue 32's figures): from the switcher's change until the page
// shows the new language, <html lang dir> included, measured inside the page (performance.now()
// around the change event, polled every animation frame). "First" is a language not shown
// before in that tab: its catalogs for the screens shown come over the network (decision 057);
// "again" is one already loaded. Each round opens a fresh browser context (empty cache) on a
// signed-out page (the login page's switcher) and on a signed-in one (a student's account
// page, whose setting also tells the server). Runs the built app as `npm start` would.
//
//   npm run bench:language   (node --import tsx bench/language-switch.mjs)   BENCH_PORT=3197 ROUNDS=10
import os from 'node:os';
import { chromium } from 'playwright-core';
import { benchAccounts, setUpBenchSchool, startBenchApp } from './bench-app.mjs';
import { CHROMIUM_ARGS } from '../tests/chromium-args.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 10);
const VIEWPORT = { width: 1280, height: 800 };

/** What each language's page shows once switched: <html lang dir> and the page's heading. */
const SWITCHES = [
  { to: 'ar', dir: 'rtl', kind: 'first' },
  { to: 'es', dir: 'ltr', kind: 'first' },
  { to: 'ar', dir: 'rtl', kind: 'again' },
  { to: 'en', dir: 'ltr', kind: 'again' },
];

/** Chooses `to` in the page's language select and answers the milliseconds until it shows. */
function switchInPage({ to, dir, before }) {
  return new Promise((resolve, reject) => {
    const select = [...document.querySelectorAll('select')].find((element) =>
      [...element.options].some((option) => option.value === to),
    );
    if (!select) return reject(new Error('no language select on the page'));
    const heading = () => document.querySelector('main h1, h1')?.textContent ?? '';
    const start = performance.now();
    select.value = to;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    const deadline = start + 10_000;
    const poll = () => {
      const html = document.documentElement;
      if (html.lang === to && html.dir === dir && heading() !== '' && heading() !== before) {
        return resolve(performance.now() - start);
      }
      if (performance.now() > deadline) return reject(new Error(`still "${heading()}" in ${html.lang}`));
      requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  });
}

async function measureRound(browser, url, session) {
  const context = await browser.newContext({
    viewport: VIEWPORT,
    locale: 'en-GB',
    storageState: session && {
      cookies: [],
      origins: [
        {
          origin: new URL(url).origin,
          localStorage: [
            { name: 'token', value: session.token },
            { name: 'userType', value: session.role },
          ],
        },
      ],
    },
  });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.locator('select').first().waitFor();
    const times = [];
    for (const step of SWITCHES) {
      const before = await page.evaluate(() => document.querySelector('main h1, h1')?.textContent ?? '');
      times.push(await page.evaluate(switchInPage, { ...step, before }));
      await page.waitForLoadState('networkidle');
    }
    return times;
  } finally {
    await context.close();
  }
}

const percentile = (values, share) => [...values].sort((a, b) => a - b)[Math.ceil(share * values.length) - 1];

const app = await startBenchApp({ defaultPort: 3197 });
let browser;
try {
  const { teacher, student } = benchAccounts();
  await setUpBenchSchool(app.post, { teacher, student });
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  console.log(
    `Time to switch language, ${ROUNDS} rounds per page, Chromium ${browser.version()} headless, ` +
      `load average ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')} on ${os.cpus().length} cores`,
  );
  const pages = [
    ['signed out: the login page', `${app.baseUrl}/auth/student/login`, undefined],
    [
      'signed in: a student’s account page',
      `${app.baseUrl}/dashboard/student/account`,
      { role: 'student', token: student.token },
    ],
  ];
  for (const [label, url, session] of pages) {
    const bySwitch = SWITCHES.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      const times = await measureRound(browser, url, session);
      times.forEach((time, index) => bySwitch[index].push(time));
    }
    console.log(`\n${label}`);
    SWITCHES.forEach(({ to, kind }, index) => {
      const times = bySwitch[index];
      console.log(
        `  to ${to} (${kind === 'first' ? 'first time, catalogs downloaded' : 'again, catalogs loaded'}): ` +
          `median ${percentile(times, 0.5).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
      );
    });
  }
  console.log(
    `\nload average after: ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await browser?.close();
  await app.stop();
}
