import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import { LINGUI_MACROS } from './scripts/lingui-macros.ts';
import { configDefaults, defineConfig, type ViteUserConfig } from 'vitest/config';
import { freePort } from './src/server/testing/server-process.ts';
import { QUIET_LIMITS, patience } from './src/server/testing/patience.ts';

/** Migrates the test database template once for both projects. */
const DATABASE_TEMPLATE = 'src/server/testing/global-setup.ts';
/** Scales each file's limits with the load as the file starts. */
const PATIENCE = 'src/server/testing/patience-setup.ts';

/**
 * Test files that open no test database and no Redis (and the Janus media tests, below): pure
 * code (shared, the client's libraries, scripts) and the embedded-only processes (backup,
 * restore, the DATA_DIR lock, `npm start`, the seed), whose servers run PGlite in a DATA_DIR
 * whatever TEST_DATABASE_URL says. CI runs them once: its PGlite run leaves them out
 * (TEST_SKIP_ENGINE_INDEPENDENT=1) and the PostgreSQL run beside it, the shorter, runs them (the
 * component tests (dom) stay in the PGlite run).
 */
const ENGINE_INDEPENDENT = [
  'src/shared/**',
  'src/client/**',
  'scripts/**',
  'src/server/backup/backup.test.ts',
  'src/server/backup/data-dir-lock.test.ts',
  'src/server/backup/old-backups.test.ts',
  'src/server/config.test.ts',
  'src/server/demo/seed-command.test.ts',
  'src/server/features/class-boards/board-update-fuzz.test.ts',
  'src/server/features/live-games/scoring.test.ts',
  'src/server/features/meetings/janus/janus-gateway.test.ts',
  'src/server/features/resources/content-type.test.ts',
  'src/server/import-graph.test.ts',
  'src/server/main.test.ts',
  'src/server/plugins/auth.test.ts',
  'src/server/plugins/json-body.test.ts',
  'src/server/plugins/route-policy.test.ts',
  'src/server/storage/storage.test.ts',
  'src/server/testing/answer-keys.test.ts',
  // Janus's media paths (decision 067): they open a database only for the accounts that join,
  // and their subject is Janus, so they run once, in the PostgreSQL run with Redis.
  'src/server/features/meetings/janus/several-janus.test.ts',
  'src/server/features/meetings/janus/sfu-signalling.test.ts',
  'src/server/features/meetings/janus/slow-browser.test.ts',
];

/** The PGlite run of CI leaves these to the PostgreSQL run beside it (TEST_SKIP_ENGINE_INDEPENDENT=1). */
const engineIndependentSkipped = process.env.TEST_SKIP_ENGINE_INDEPENDENT === '1' ? ENGINE_INDEPENDENT : [];

export default defineConfig(async (): Promise<ViteUserConfig> => {
  // The component tests' server listens here, and their document lives at this address: jsdom
  // takes its origin (which its XMLHttpRequest and localStorage go by) only when it is created.
  const componentServerPort = await freePort();
  return {
    // The same macro transform and catalog compiler as vite.config.ts (which this file does not extend).
    plugins: [babel(LINGUI_MACROS), lingui()],
    test: {
      // Limits for hangs, grown with the load: each file sets them again as it starts (decision 042).
      hookTimeout: patience(QUIET_LIMITS.hookMs),
      testTimeout: patience(QUIET_LIMITS.testMs),
      expect: { poll: { timeout: patience(QUIET_LIMITS.pollMs) } },
      pool: 'forks',
      projects: [
        {
          // The server's tests (and the processes they start): one process runs file after file
          // with the modules it already loaded (decision 072). Each file opens its own database
          // copy, app and servers and closes them; importing the app again for each file was
          // about 40 % of the database runs' time.
          extends: true,
          test: {
            name: 'node',
            include: ['src/server/**/*.test.ts'],
            exclude: [...configDefaults.exclude, ...engineIndependentSkipped],
            environment: 'node',
            isolate: false,
            globalSetup: [DATABASE_TEMPLATE],
            setupFiles: [PATIENCE],
          },
        },
        {
          // Shared code, the client's libraries and the scripts: a fresh process per file, as
          // before. Some keep state in a module (the client's translations, zod's settings) and
          // test what happens when they are loaded first; none imports the app, so it costs little.
          extends: true,
          test: {
            name: 'units',
            include: ['src/shared/**/*.test.ts', 'src/client/**/*.test.ts', 'scripts/**/*.test.ts'],
            exclude: [...configDefaults.exclude, ...engineIndependentSkipped],
            environment: 'node',
            globalSetup: [DATABASE_TEMPLATE],
            setupFiles: [PATIENCE],
          },
        },
        {
          // Component tests: the client's screens in jsdom, against the real app (decision 028).
          extends: true,
          test: {
            name: 'dom',
            include: ['src/client/**/*.test.tsx'],
            environment: 'jsdom',
            environmentOptions: { jsdom: { url: `http://127.0.0.1:${componentServerPort}/` } },
            provide: { componentServerPort },
            globalSetup: [DATABASE_TEMPLATE, 'src/server/testing/component-server.ts'],
            setupFiles: [PATIENCE, 'src/client/testing/dom-setup.ts'],
          },
        },
      ],
    },
  };
});
