import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['src/server/testing/global-setup.ts'],
    // Creating a database (PGlite clone or PostgreSQL copy) takes a second or two.
    hookTimeout: 60_000,
    testTimeout: 20_000,
    pool: 'forks',
  },
});
