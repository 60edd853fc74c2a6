import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, FAKE_MEDIA_ARGS } from './tests/chromium-args.ts';
import { patience } from './src/server/testing/patience.ts';
import { TEST_SETUP_CODE } from './src/server/testing/factories.ts';

/**
 * E2E against the built app as `npm start` serves it, on a fresh embedded
 * database, in Debian's Chromium (no browser download). E2E_BASE_URL points
 * the suite at an already running server instead (e.g. a load balancer).
 */
const port = Number(process.env.E2E_PORT ?? 3100);
const externalBaseUrl = process.env.E2E_BASE_URL;
const baseURL = externalBaseUrl ?? `http://127.0.0.1:${port}`;
/**
 * The specs that run at phone size too (decision 067); every spec runs at desktop size. At 390 px:
 * every route's screens in the pseudo-locale and in Arabic and Spanish (axe, no sideways scroll,
 * right to left), what the layout changes there (the header and side menu, cards for tables, the
 * library's filters, the bell, the roster import, the phone-only defects of issue 18), drawing by
 * touch, what students do on their phones (quizzes of every type, hand-ins), and the scenarios
 * issues ask for at both sizes (19: the school's first day; 20: every question type; 33: the
 * assignment loop). The others test the server's behaviour or a teacher's work at a desk.
 */
const PHONE_SPECS = [
  'accounts',
  'assignments-loop',
  'assignments-student',
  'canvas',
  'gradebook',
  'languages',
  'notifications',
  'pseudo-locale',
  'quiz-all-types',
  'quiz-matching',
  'quizzes',
  'resources',
  'roster-import',
  'school-trust',
  'students',
  'ui-defects',
];

const dataDir = process.env.E2E_DATA_DIR ?? path.join(mkdtempSync(path.join(tmpdir(), 'studyhall-e2e-')), 'data');

export default defineConfig({
  testDir: 'tests/e2e',
  // Hang limits, grown with the load when the run starts (decision 042); specs wait for events.
  timeout: patience(60_000),
  expect: { timeout: patience(10_000) },
  fullyParallel: false,
  workers: 1,
  // CI runs once on a fresh machine and lands nothing when one test fails: a test that passes on its
  // second try is reported as flaky in CI's summary (.ci/run) to be fixed, not hidden (decision 067).
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  outputDir: 'tests/e2e/.artifacts',
  use: {
    baseURL,
    // A trace records every action's screenshot and DOM while the test runs, for every test; CI's
    // machine is gone when its log is read, so CI records none (decision 067).
    trace: process.env.CI ? 'off' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'mobile',
      testMatch: new RegExp(`/(${PHONE_SPECS.join('|')})\\.spec\\.ts$`),
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
    },
  ],
  webServer: externalBaseUrl
    ? undefined
    : {
        command: 'node --import tsx src/server/main.ts',
        url: `${baseURL}/api/health`,
        reuseExistingServer: false,
        timeout: patience(90_000),
        env: {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
          LOG_LEVEL: 'warn',
          // The first run's code the scenarios send (decision 050).
          SETUP_CODE: TEST_SETUP_CODE,
          // The quotes service is "down" (nothing listens on port 9): dashboards use bundled quotes.
          QUOTES_API_URL: 'http://127.0.0.1:9/v1/quotes',
        },
      },
});
