import { defineConfig, type ViteUserConfig } from 'vitest/config';
import { freePort } from './src/server/testing/server-process.ts';

/** Migrates the test database template once for both projects. */
const DATABASE_TEMPLATE = 'src/server/testing/global-setup.ts';

export default defineConfig(async (): Promise<ViteUserConfig> => {
  // The component tests' server listens here, and their document lives at this address: jsdom
  // takes its origin (which its XMLHttpRequest and localStorage go by) only when it is created.
  const componentServerPort = await freePort();
  return {
    test: {
      // Creating a database (PGlite clone or PostgreSQL copy) takes a second or two.
      hookTimeout: 60_000,
      testTimeout: 20_000,
      pool: 'forks',
      projects: [
        {
          extends: true,
          test: {
            name: 'node',
            include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
            environment: 'node',
            globalSetup: [DATABASE_TEMPLATE],
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
            setupFiles: ['src/client/testing/dom-setup.ts'],
          },
        },
      ],
    },
  };
});
