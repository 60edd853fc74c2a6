import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest, preParsingAsyncHookHandler } from 'fastify';
import type { UserRole } from '#shared/constants';
import { formatWait } from '#shared/format-wait';
import { emailKey, identityKey } from '#shared/identity';
import type { ThrottleLimit } from '#shared/throttle';
import { tooManyRequests } from '../errors.ts';
import { currentUser } from '../plugins/auth.ts';
import { refuseUnreadBody } from '../plugins/large-bodies.ts';
import { clientNetwork } from './client-network.ts';
import { createKnownDevices } from './known-devices.ts';
import { admitPasswordWork, passwordWorkAdmitted } from './password-work.ts';
import { DEFAULT_THROTTLE_LIMITS, FAILURE_COST, HOUR_MS, type ThrottleLimits } from './limits.ts';
import type { Bucket, Charge, Refund, ThrottleStore } from './throttle-store.ts';

/**
 * Sign-in and registration throttling (ASVS V2.2.1, decision 016), as hooks the routes put
 * in their options: `...throttle.signIn('student')`. The numbers and why they are what
 * they are: docs/decisions/016-throttling.md.
 */

const perHour = (capacity: number): Bucket => ({ capacity, periodMs: HOUR_MS });

/** The account a sign-in names, whether or not it exists (a lock-out must not tell). Hashed: no address is kept. */
function accountKey(role: UserRole, body: unknown): string {
  const fields = (body ?? {}) as { email?: unknown; rollNumber?: unknown };
  // Keyed as the sign-in looks the account up (decision 024): every spelling of it shares one lock-out.
  const value = role === 'teacher' ? fields.email : fields.rollNumber;
  const named = typeof value === 'string' ? value : ''; // the sign-in schema refuses any other type
  const identifier = role === 'teacher' ? emailKey(named) : identityKey(named);
  return `account:${role}:${createHash('sha256').update(identifier).digest('base64url').slice(0, 22)}`;
}

/** A known device's lock-out, under its account's key: a reset lifts them all by that prefix. */
const deviceLockoutKey = (account: string, deviceId: string) => `known-device:${account}:${deviceId}`;

type RouteHooks = {
  preHandler: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  onSend: (request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>;
};

const THROTTLE_HOOK = Symbol('studyhall.throttle');
const markThrottle = <Hook extends object>(hook: Hook): Hook => Object.assign(hook, { [THROTTLE_HOOK]: true });
/** True for a hook of this module: the route may answer THROTTLED (failureCodesOf). */
export const isThrottleHook = (hook: unknown): boolean =>
  typeof hook === 'function' && (hook as { [THROTTLE_HOOK]?: boolean })[THROTTLE_HOOK] === true;

/**
 * Why a 429 was given: the budget that refused, which clients word (decision 026's addendum),
 * and the server's own words for it, with what else the person can do than wait ("…, or on a device…").
 */
type Refusal = { limit: ThrottleLimit; reason: string; orElse?: string };

/** What one attempt costs and what its success changes. */
type Plan = {
  /** Charged as a failure before the attempt runs. */
  charge: Charge;
  /** Given back by a success. */
  refund?: Refund | undefined;
  /** What else a success does (a known device's cookie). */
  afterSuccess?: ((reply: FastifyReply) => void) | undefined;
  /** The 429's words, by the counter that refused. */
  refusal(refusedBy: number | 'lockout'): Refusal;
  /** In the "throttled" log line beside the rule's name (never the account's name). */
  logFields?: Record<string, unknown>;
};

/** usesPasswordWork: the route checks a password (argon2), and waits for its turn to (decision 040). */
type GuardRule = { name: string; usesPasswordWork?: boolean; plan(request: FastifyRequest): Plan };

/** Seconds a sign-in refused for the waiting password checks is asked to wait: they take about that. */
const PASSWORD_WORK_RETRY_SECONDS = 1;

/** 429 `password-work`: too many sign-ins are checking a password already (decision 040). */
function refusePasswordWork(request: FastifyRequest, throttle: string): never {
  request.log.info({ throttle, admitted: passwordWorkAdmitted() }, 'password checks full');
  throw tooManyRequests(`Many people are signing in right now. Try again ${formatWait(PASSWORD_WORK_RETRY_SECONDS)}.`, {
    limit: 'password-work',
    retryAfterSeconds: PASSWORD_WORK_RETRY_SECONDS,
  });
}

export type Throttle = ReturnType<typeof createThrottle>;

export function createThrottle(options: {
  store: ThrottleStore;
  /** Signs the known-device cookies (the JWT secret: every instance shares it). */
  secret: string;
  limits?: Partial<ThrottleLimits> | undefined;
}) {
  const limits = { ...DEFAULT_THROTTLE_LIMITS, ...options.limits };
  const { store } = options;
  const knownDevices = createKnownDevices(options.secret);
  const pending = new WeakMap<FastifyRequest, Plan>();

  /** preHandler (after validation: the account name is known) + onSend (the outcome is known). */
  function guard(rule: GuardRule): RouteHooks {
    return {
      preHandler: markThrottle(async (request: FastifyRequest, reply: FastifyReply) => {
        // Refused before anything is charged: a busy server is nobody's failed attempt. An
        // admitted one holds its place until its answer has gone (or its client went away).
        if (rule.usesPasswordWork) {
          const release = admitPasswordWork(limits.passwordChecksWaiting);
          if (release) reply.raw.once('close', release);
          else refusePasswordWork(request, rule.name);
        }
        const plan = rule.plan(request);
        let verdict;
        try {
          verdict = await store.take(plan.charge);
        } catch (error) {
          // The stores fall back by themselves; this is a bug's last line: let the person in.
          request.log.warn({ err: error, throttle: rule.name }, 'throttle: counting failed; request let through');
          pending.set(request, { ...plan, refund: undefined }); // nothing was charged: nothing to give back
          return;
        }
        if (!verdict.isAllowed) {
          const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
          request.log.info(
            { throttle: rule.name, ...plan.logFields, refusedBy: verdict.refusedBy, retryAfterSeconds },
            'throttled',
          );
          const { limit, reason, orElse } = plan.refusal(verdict.refusedBy);
          throw tooManyRequests(`${reason} Try again ${formatWait(retryAfterSeconds)}${orElse ? `, ${orElse}` : ''}.`, {
            limit,
            retryAfterSeconds,
          });
        }
        pending.set(request, plan);
      }),
      async onSend(request, reply, payload) {
        const plan = pending.get(request);
        pending.delete(request);
        // Only a success is cheaper than a failure; anything else (401, 409, a 500) stays charged.
        if (plan && reply.statusCode >= 200 && reply.statusCode < 300) {
          plan.afterSuccess?.(reply);
          if (plan.refund) {
            try {
              await store.settle(plan.refund);
            } catch (error) {
              request.log.warn({ err: error, throttle: rule.name }, 'throttle: could not record a success');
            }
          }
        }
        return payload;
      },
    };
  }

  const networkOf = (request: FastifyRequest) => clientNetwork(request.ip);

  /**
   * An attempt (a password check, a registration) charged as a failure to `budget` and to the
   * lock-out `lockout`; a success gives back all but one point and clears that lock-out.
   */
  function chargedAsFailure(budget: { key: string; bucket: Bucket }, lockout: string) {
    return {
      charge: {
        buckets: [{ ...budget, cost: FAILURE_COST }],
        lockout: { key: lockout, policy: limits.accountLockout },
      },
      refund: { buckets: [{ ...budget, amount: FAILURE_COST - 1 }], clearLockout: lockout },
    };
  }

  /** The budget of an account's proven attempts (its known devices, or its own session). */
  const provenBudget = (key: string) => ({ key, bucket: perHour(limits.knownDeviceSignInsPerAccount) });

  return {
    /**
     * Sign-in (decision 016). From a device the account does not know: per network (generous,
     * a failure counts 5) and per account (a few failures, then a growing lock-out). From one
     * of its known devices: per device (the same lock-out rule) and that account's known
     * devices together, whatever the network's budget or the account's lock-out. A success
     * makes (or keeps) the device known.
     */
    signIn(role: UserRole): RouteHooks {
      return guard({
        name: `${role}-sign-in`,
        usesPasswordWork: true,
        plan(request) {
          const account = accountKey(role, request.body);
          const device = knownDevices.recognise(request, account);
          const afterSuccess = (reply: FastifyReply) => knownDevices.remember(request, reply, account, device);
          if (device) {
            return {
              ...chargedAsFailure(provenBudget(`known-devices:${account}`), deviceLockoutKey(account, device.id)),
              afterSuccess,
              refusal: (refusedBy) =>
                refusedBy === 'lockout'
                  ? { limit: 'sign-in-device', reason: 'Too many sign-in attempts on this device.' }
                  : { limit: 'known-devices', reason: 'Too many sign-in attempts for this account.' },
              logFields: { isKnownDevice: true },
            };
          }
          const network = { key: `sign-in:${networkOf(request)}`, bucket: perHour(limits.signInPerNetwork) };
          return {
            ...chargedAsFailure(network, account),
            afterSuccess,
            refusal: (refusedBy) => ({
              ...(refusedBy === 'lockout'
                ? { limit: 'sign-in-account', reason: 'Too many sign-in attempts for this account.' }
                : { limit: 'sign-in-network', reason: 'Too many sign-in attempts from your network.' }),
              orElse: 'or on a device you have signed in on before',
            }),
            logFields: { isKnownDevice: false },
          };
        },
      });
    },

    /**
     * The current password a password change asks for (after the token check: the account is
     * known). A sign-in in all but name: the same lock-out rule, kept per account id, so a
     * stolen session cannot be used to guess the password. The session is the account's own
     * device: a busy network does not refuse it, the account's proven budget counts it.
     */
    currentPasswordProof(): RouteHooks {
      return guard({
        name: 'current-password',
        usesPasswordWork: true,
        plan(request) {
          const { role, id } = currentUser(request);
          return {
            ...chargedAsFailure(
              provenBudget(`session-password-checks:${role}:${id}`),
              `current-password:${role}:${id}`,
            ),
            refusal: () => ({ limit: 'password-checks', reason: 'Too many wrong passwords for this account.' }),
          };
        },
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
        plan(request) {
          const network = {
            key: `registration:${networkOf(request)}`,
            bucket: perHour(limits.registrationsPerNetwork),
          };
          return {
            ...chargedAsFailure(network, `registration-${accountKey(role, request.body)}`),
            refusal: (refusedBy) =>
              refusedBy === 'lockout'
                ? { limit: 'registration-account', reason: 'Too many attempts to create this account.' }
                : { limit: 'registration-network', reason: 'Too many accounts have been created from your network.' },
          };
        },
      });
    },

    /**
     * The first run's set-up code (decision 050): per network, a wrong code costs 5 of the
     * registration budget's points and counts towards that network's lock-out (the sign-in
     * rule: a few tries, then 1, 2, 4… minutes). Per network, not one key for everyone: a
     * guesser elsewhere cannot lock the administrator out of their own server.
     */
    setupCode(): RouteHooks {
      return guard({
        name: 'setup-code',
        plan(request) {
          const network = networkOf(request);
          return {
            ...chargedAsFailure(
              { key: `setup-code:${network}`, bucket: perHour(limits.registrationsPerNetwork) },
              `setup-code-lockout:${network}`,
            ),
            refusal: () => ({ limit: 'setup-code', reason: 'Too many set-up codes tried from your network.' }),
          };
        },
      });
    },

    /**
     * A signed-in student typing a class code (decision 031): per student, a wrong code counts
     * as a failed sign-in does, with the same lock-out; a success gives the points back.
     */
    classCode(): RouteHooks {
      return guard({
        name: 'class-code',
        plan(request) {
          const { id } = currentUser(request);
          return {
            ...chargedAsFailure(provenBudget(`class-codes:${id}`), `class-code:${id}`),
            refusal: () => ({ limit: 'class-codes', reason: 'Too many wrong class codes.' }),
          };
        },
      });
    },

    /** A teacher adding students (after requireRole: the teacher is known). */
    studentsAdded(): RouteHooks {
      return guard({
        name: 'add-student',
        plan(request) {
          const teacher = {
            key: `students-added:${currentUser(request).id}`,
            bucket: perHour(limits.studentsAddedPerTeacher),
          };
          return {
            charge: { buckets: [{ ...teacher, cost: 1 }] },
            refusal: () => ({ limit: 'students-added', reason: 'You have added many students in a short time.' }),
          };
        },
      });
    },

    /** A teacher starting a class-list import (decision 034): every start counts, whatever its outcome. */
    rosterImports(): RouteHooks {
      return guard({
        name: 'roster-import',
        plan(request) {
          const teacher = {
            key: `roster-imports:${currentUser(request).id}`,
            bucket: perHour(limits.rosterImportsPerTeacher),
          };
          return {
            charge: { buckets: [{ ...teacher, cost: 1 }] },
            refusal: () => ({ limit: 'roster-imports', reason: 'You have imported many class lists in a short time.' }),
          };
        },
      });
    },

    /**
     * The bytes of the quizzes a teacher sends (add-quiz, after the token check), charged by
     * the declared Content-Length before a byte is read: a refused body is never parsed. A
     * body of unknown length is charged the route's limit.
     */
    quizBytes(): { preParsing: preParsingAsyncHookHandler } {
      const name = 'quiz-bytes';
      return {
        preParsing: markThrottle<preParsingAsyncHookHandler>(async (request, reply, payload) => {
          const declared = Number(request.headers['content-length']);
          const bytes = Number.isNaN(declared) ? (request.routeOptions.bodyLimit ?? 0) : declared;
          if (bytes <= 0) return payload;
          const teacher = {
            key: `${name}:${currentUser(request).id}`,
            bucket: perHour(limits.quizBytesPerTeacher),
            cost: bytes,
          };
          let verdict;
          try {
            verdict = await store.take({ buckets: [teacher] });
          } catch (error) {
            request.log.warn({ err: error, throttle: name }, 'throttle: counting failed; request let through');
            return payload;
          }
          if (verdict.isAllowed) return payload;
          const retryAfterSeconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
          request.log.info({ throttle: name, bytes, retryAfterSeconds }, 'throttled');
          refuseUnreadBody(reply);
          throw tooManyRequests(
            `You have sent many large quizzes in a short time. Try again ${formatWait(retryAfterSeconds)}.`,
            { limit: 'quiz-bytes', retryAfterSeconds },
          );
        }),
      };
    },

    /**
     * After a teacher's reset (decision 033): the failures counted against the old password
     * no longer guard anything (the new one is drawn at random), and a student locked out by
     * forgetting it is the usual reason for the reset. The account's lock-out, the password
     * change's and those of every known device of the account are lifted (issue 30 point 6):
     * the student is most often locked out on their own device.
     */
    async forgetPasswordFailures(student: { id: string; rollNumber: string }): Promise<void> {
      const account = accountKey('student', { rollNumber: student.rollNumber });
      for (const clearLockout of [account, `current-password:student:${student.id}`]) {
        await store.settle({ buckets: [], clearLockout });
      }
      await store.clearLockouts(deviceLockoutKey(account, ''));
    },

    close: () => store.close(),
  };
}
