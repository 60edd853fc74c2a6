import { expect } from 'vitest';
import { CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY } from '../plugins/security-headers.ts';

/** The security headers every response carries over plain HTTP (plugins/security-headers.ts). */
export const EXPECTED_SECURITY_HEADERS = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'permissions-policy': PERMISSIONS_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** All of them, and no HSTS (these test requests are plain HTTP). */
export function expectSecurityHeaders(headers: Record<string, unknown>) {
  expect(headers).toMatchObject(EXPECTED_SECURITY_HEADERS);
  expect(headers['strict-transport-security']).toBeUndefined();
}
