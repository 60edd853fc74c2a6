import type { EndpointSpec } from '#shared/contract/endpoint';
import type { ErrorCode } from '#shared/error-codes';
import type { RoutePolicy } from '../../plugins/route-policy.ts';

/** The token checks a caller kind's guard may answer with (plugins/auth.ts). */
const SESSION_FAILURES: readonly ErrorCode[] = [
  'NOT_SIGNED_IN',
  'SESSION_EXPIRED',
  'SIGNED_OUT',
  'ACCOUNT_REMOVED',
  'ACCOUNT_DEACTIVATED',
  'FORBIDDEN',
];

/**
 * Every code a route may answer: its endpoint's own (decision 026) and those any route of its
 * kind gets from the HTTP layer, its inputs' schemas and the token check its policy puts first.
 * The OpenAPI document lists them; the test app holds every failure to them.
 */
export function failureCodesOf(endpoint: EndpointSpec, policy: RoutePolicy | undefined): ErrorCode[] {
  const codes = new Set<ErrorCode>(['MALFORMED_REQUEST', 'INTERNAL_ERROR']);
  if (endpoint.params || endpoint.query || endpoint.body) codes.add('VALIDATION_FAILED');
  if (endpoint.body) codes.add('UNKNOWN_FIELD');
  // Any method but GET has its body read, described or not: a body of another type, or too large, is refused.
  if (endpoint.method !== 'GET') {
    for (const code of ['PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'REQUEST_INTERRUPTED'] as const) codes.add(code);
  }
  const caller = policy?.caller;
  if (caller === 'signed-in' || caller === 'teacher' || caller === 'administrator' || caller === 'student') {
    for (const code of SESSION_FAILURES) codes.add(code);
  }
  // The signed link is checked by the route: a forged or expired one is refused.
  if (caller === 'file-link') codes.add('FORBIDDEN');
  for (const code of endpoint.errors ?? []) codes.add(code);
  return [...codes];
}
