/**
 * Flags for Debian's Chromium in tests and benchmarks: headless, and no calls to
 * Google's services (this machine's network refuses them, many at a time).
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
