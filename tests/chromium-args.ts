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

/** Meetings: a fake camera (a moving test pattern) and microphone (a beep), allowed without a prompt. */
export const FAKE_MEDIA_ARGS = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'];
