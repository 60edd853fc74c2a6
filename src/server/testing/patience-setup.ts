import { vi } from 'vitest';
import { QUIET_LIMITS, patience } from './patience.ts';

// Every test file: the limits as the load is when the file starts (vitest.config.ts saw the load
// when the run began, which says little about the load an hour later). Decision 042.
vi.setConfig({
  testTimeout: patience(QUIET_LIMITS.testMs),
  hookTimeout: patience(QUIET_LIMITS.hookMs),
  expect: { poll: { timeout: patience(QUIET_LIMITS.pollMs) } },
});
