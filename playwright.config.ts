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
const dataDir = process.env.E2E_DATA_DIR ?? path.join(mkdtempSync(path.join(tmpdir(), 'studyhall-e2e-')), 'data');

export default defineConfig({
  testDir: 'tests/e2e',
  // Hang limits, grown with the load when the run starts (decision 042); specs wait for events.
  timeout: patience(60_000),
  expect: { timeout: patience(10_000) },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  reporter: [['list']],
  outputDir: 'tests/e2e/.artifacts',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...CHROMIUM_ARGS, ...FAKE_MEDIA_ARGS],
    },
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    { name: 'mobile', use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
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
