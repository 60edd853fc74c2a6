import type { EndpointSpec } from '#shared/contract/endpoint';
import type { ErrorCode } from '#shared/error-codes';
import { DEFAULT_LARGE_BODY_LIMITS } from '../../plugins/large-bodies.ts';
import type { RoutePolicy } from '../../plugins/route-policy.ts';

/** What the server decided about a route, beside its endpoint: who may call it, throttles, its body limit. */
export type RouteFacts = {
  policy: RoutePolicy | undefined;
  isThrottled?: boolean | undefined;
  bodyLimit?: number | undefined;
};

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
 * kind gets from the HTTP layer, its inputs' schemas, the token check its policy puts first and
 * its throttles and body limit. Each code once. The OpenAPI document lists them; the test app
 * holds every failure to them.
 */
export function failureCodesOf(endpoint: EndpointSpec, { policy, isThrottled, bodyLimit }: RouteFacts): ErrorCode[] {
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
  // Only students' passwords are reset (decision 033): their session is refused elsewhere until it chooses one.
  if ((caller === 'signed-in' || caller === 'student') && !policy?.allowsPendingPasswordChange)
    codes.add('PASSWORD_CHANGE_REQUIRED');
  // The signed link is checked by the route: a forged or expired one is refused.
  if (caller === 'file-link') codes.add('FORBIDDEN');
  if (isThrottled) codes.add('THROTTLED');
  // The large-body lane (decision 023): a share per account (429), a turn that never came (503).
  if ((bodyLimit ?? 0) > DEFAULT_LARGE_BODY_LIMITS.thresholdBytes) {
    codes.add('THROTTLED');
    codes.add('SERVER_BUSY');
  }
  for (const code of endpoint.errors ?? []) codes.add(code);
  return [...codes];
}
