import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRole } from '#shared/constants';
import { emailKey, identityKey } from '#shared/identity';
import { tooManyRequests } from '../errors.ts';
import { currentUser } from '../plugins/auth.ts';
import { clientNetwork } from './client-network.ts';
import { DEFAULT_THROTTLE_LIMITS, FAILURE_COST, HOUR_MS, type ThrottleLimits } from './limits.ts';
import type { Bucket, Charge, Refund, ThrottleStore } from './throttle-store.ts';

/**
 * Sign-in and registration throttling (ASVS V2.2.1, decision 016), as hooks the routes put
 * in their options: `...throttle.signIn('student')`. The numbers and why they are what
 * they are: docs/decisions/016-throttling.md.
 */

const perHour = (capacity: number): Bucket => ({ capacity, periodMs: HOUR_MS });

/** "in 40 seconds", "in 1 minute", "in 4 minutes", "in 2 hours": rounded up, as a person reads a wait. */
export function formatWait(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 60) return `in ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes <= 90) return `in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  const hours = Math.ceil(minutes / 60);
  return `in ${hours} hours`;
}

/** The account a sign-in names, whether or not it exists (a lock-out must not tell). Hashed: no address is kept. */
function accountKey(role: UserRole, body: unknown): string {
  const fields = (body ?? {}) as { email?: unknown; rollNumber?: unknown };
  // Keyed as the sign-in looks the account up (decision 024): every spelling of it shares one lock-out.
  const named = String((role === 'teacher' ? fields.email : fields.rollNumber) ?? '');
  const identifier = role === 'teacher' ? emailKey(named) : identityKey(named);
  return `account:${role}:${createHash('sha256').update(identifier).digest('base64url').slice(0, 22)}`;
}

type RouteHooks = {
  preHandler: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  onSend: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;
};

type GuardRule = {
  name: string;
  /** What one attempt costs (charged as a failure), and what a success gives back. */
  charge(request: FastifyRequest): { charge: Charge; onSuccess: Refund | undefined };
  /** The 429's message, by the counter that refused. */
  refusal(refusedBy: number | 'lockout'): string;
};

export type Throttle = ReturnType<typeof createThrottle>;

export function createThrottle(options: { store: ThrottleStore; limits?: Partial<ThrottleLimits> | undefined }) {
  const limits = { ...DEFAULT_THROTTLE_LIMITS, ...options.limits };
  const { store } = options;
  const pending = new WeakMap<FastifyRequest, Refund>();

  /** preHandler (after validation: the account name is known) + onSend (the outcome is known). */
  function guard(rule: GuardRule): RouteHooks {
    return {
      async preHandler(request) {
        const { charge, onSuccess } = rule.charge(request);
        let verdict;
        try {
          verdict = await store.take(charge);
        } catch (error) {
          // The stores fall back by themselves; this is a bug's last line: let the person in.
          request.log.warn({ err: error, throttle: rule.name }, 'throttle: counting failed; request let through');
          return;
        }
        if (!verdict.isAllowed) {
          const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
          request.log.info({ throttle: rule.name, refusedBy: verdict.refusedBy, retryAfterSeconds }, 'throttled');
          throw tooManyRequests(
            `${rule.refusal(verdict.refusedBy)} Try again ${formatWait(verdict.retryAfterMs)}.`,
            retryAfterSeconds,
          );
        }
        if (onSuccess) pending.set(request, onSuccess);
      },
      async onSend(request, reply, payload) {
        const refund = pending.get(request);
        pending.delete(request);
        // Only a success is cheaper than a failure; anything else (401, 409, a 500) stays charged.
        if (refund && reply.statusCode >= 200 && reply.statusCode < 300) {
          try {
            await store.settle(refund);
          } catch (error) {
            request.log.warn({ err: error, throttle: rule.name }, 'throttle: could not record a success');
          }
        }
        return payload;
      },
    };
  }

  const networkOf = (request: FastifyRequest) => clientNetwork(request.ip);

  /** A password check: charged as a failure to the network and the account; a success gives back all but one point and clears the account's failures. */
  function passwordCheckCharge(request: FastifyRequest, account: string): ReturnType<GuardRule['charge']> {
    const network = { key: `sign-in:${networkOf(request)}`, bucket: perHour(limits.signInPerNetwork) };
    return {
      charge: {
        buckets: [{ ...network, cost: FAILURE_COST }],
        lockout: { key: account, policy: limits.accountLockout },
      },
      onSuccess: { buckets: [{ ...network, amount: FAILURE_COST - 1 }], clearLockout: account },
    };
  }

  return {
    /** Sign-in: per network (generous, a failure counts 5) and per account (a few failures, then a growing lock-out). */
    signIn(role: UserRole): RouteHooks {
      return guard({
        name: `${role}-sign-in`,
        charge: (request) => passwordCheckCharge(request, accountKey(role, request.body)),
        refusal: (refusedBy) =>
          refusedBy === 'lockout'
            ? 'Too many sign-in attempts for this account.'
            : 'Too many sign-in attempts from your network.',
      });
    },

    /**
     * The current password a password change asks for (after the token check: the account is
     * known). A sign-in in all but name: the same network budget and the same lock-out rule,
     * kept per account id, so a stolen session cannot be used to guess the password.
     */
    currentPasswordProof(): RouteHooks {
      return guard({
        name: 'current-password',
        charge(request) {
          const { role, id } = currentUser(request);
          return passwordCheckCharge(request, `current-password:${role}:${id}`);
        },
        refusal: (refusedBy) =>
          refusedBy === 'lockout'
            ? 'Too many wrong passwords for this account.'
            : 'Too many sign-in attempts from your network.',
      });
    },

    /**
     * Self-registration: per network (a refused one, a taken name, counts 5) and per account
     * name (the email or roll number asked for: the sign-in lock-out's rule, so a script
     * retrying one name is stopped after a few refusals; a success clears it).
     */
    registration(role: UserRole): RouteHooks {
      return guard({
        name: `${role}-registration`,
        charge(request) {
          const network = {
            key: `registration:${networkOf(request)}`,
            bucket: perHour(limits.registrationsPerNetwork),
          };
          const account = `registration-${accountKey(role, request.body)}`;
          return {
            charge: {
              buckets: [{ ...network, cost: FAILURE_COST }],
              lockout: { key: account, policy: limits.accountLockout },
            },
            onSuccess: { buckets: [{ ...network, amount: FAILURE_COST - 1 }], clearLockout: account },
          };
        },
        refusal: (refusedBy) =>
          refusedBy === 'lockout'
            ? 'Too many attempts to create this account.'
            : 'Too many accounts have been created from your network.',
      });
    },

    /** A teacher adding students (after requireRole: the teacher is known). */
    studentsAdded(): RouteHooks {
      return guard({
        name: 'add-student',
        charge(request) {
          const teacher = {
            key: `students-added:${currentUser(request).id}`,
            bucket: perHour(limits.studentsAddedPerTeacher),
          };
          return { charge: { buckets: [{ ...teacher, cost: 1 }] }, onSuccess: undefined };
        },
        refusal: () => 'You have added many students in a short time.',
      });
    },

    close: () => store.close(),
  };
}
