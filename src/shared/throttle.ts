import { z } from 'zod/mini';

/**
 * The budgets that can refuse a request with THROTTLED (decision 016), named once: a 429 says
 * which one refused as `limit`, beside `retryAfterSeconds`, and the client words the refusal
 * from them (decision 026's addendum). The meaning of each is the document's
 * (components/schemas/ThrottleLimit).
 */
export const THROTTLE_LIMITS = {
  'sign-in-network': 'Sign-ins per network address from browsers the account does not know (SIGN_IN_LIMIT_PER_IP)',
  'sign-in-account': 'Failed sign-ins on one account from browsers it does not know: its lock-out',
  'sign-in-device': 'Failed sign-ins on one account from one of its known devices: that device’s lock-out',
  'known-devices': 'Sign-ins per account and hour from all its known devices together',
  'password-checks': 'Current-password checks of a password change, per account: its lock-out and hourly budget',
  'registration-network': 'Accounts created, or refused as taken, per network address (REGISTRATION_LIMIT_PER_IP)',
  'registration-account': 'Refused registrations of one account name: its lock-out',
  'setup-code':
    "Set-up code tries per network address: a wrong one counts 5 of the hour's points, then a growing lock-out (decision 050)",
  'class-codes': 'Wrong class codes one signed-in student types: its lock-out (decision 031)',
  'students-added': 'Students one teacher adds per hour',
  'roster-imports': 'Class lists one teacher imports per hour (decision 034)',
  'quiz-bytes': 'Bytes of quizzes one teacher sends per hour',
  'large-requests': 'Large bodies one account has in flight at once (decision 023)',
  'password-work': 'Password checks waiting for their turn on the server, everyone together (decision 040)',
} as const satisfies Record<string, string>;

export type ThrottleLimit = keyof typeof THROTTLE_LIMITS;

export const throttleLimitSchema = z.enum(Object.keys(THROTTLE_LIMITS) as [ThrottleLimit, ...ThrottleLimit[]]);

/** What a THROTTLED failure carries beside its code, for code to act on and the client to word. */
export const throttledFieldsSchema = z.object({
  limit: throttleLimitSchema.check(z.describe('Which budget refused (components/schemas/ThrottleLimit)')),
  retryAfterSeconds: z
    .int()
    .check(z.gte(1), z.describe('Seconds until this budget lets the request through; the same as Retry-After')),
});

export type ThrottledFields = z.infer<typeof throttledFieldsSchema>;
