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
 * node project's component tests stay in the PGlite run).
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
          extends: true,
          test: {
            name: 'node',
            include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
            exclude: [
              ...configDefaults.exclude,
              ...(process.env.TEST_SKIP_ENGINE_INDEPENDENT === '1' ? ENGINE_INDEPENDENT : []),
            ],
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
