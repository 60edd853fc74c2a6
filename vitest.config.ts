import { lingui } from '@lingui/vite-plugin';
import babel from '@rolldown/plugin-babel';
import { LINGUI_MACROS } from './scripts/lingui-macros.ts';
import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { freePort } from './src/server/testing/server-process.ts';
import { QUIET_LIMITS, patience } from './src/server/testing/patience.ts';

/** Migrates the test database template once for both projects. */
const DATABASE_TEMPLATE = 'src/server/testing/global-setup.ts';
/** Scales each file's limits with the load as the file starts. */
const PATIENCE = 'src/server/testing/patience-setup.ts';

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
