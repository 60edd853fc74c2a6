import type { FastifyInstance, onRequestAsyncHookHandler, RouteOptions } from 'fastify';
import type { UserRole } from '#shared/constants';
import type { EndpointSpec } from '#shared/contract/endpoint';
import { isThrottleHook } from '../throttle/throttle.ts';
import {
  isAuthGuard,
  requireAdministrator,
  requireRole,
  requireUser,
  type GuardOptions,
  type TokenService,
} from './auth.ts';

/**
 * Every /api route says, next to its definition, who may call it and what it may touch
 * (decision 020):
 *
 *   app.get('/api/tasks', { config: { policy: { caller: 'signed-in', touches: ['own-tasks'] } } }, …)
 *
 * The bearer-token check of the route is derived from `caller` here, so the declaration and
 * the check cannot disagree; an /api route without a policy stops the app from starting.
 * `touches` is what the authorization matrix test holds the route to, object by object.
 */

/** Who may call a route: the credential it takes. */
export const CALLERS = {
  anyone: 'no credential: health, the quote, registering and logging in',
  'signed-in': 'a session token of either role',
  teacher: "a teacher's session token",
  administrator: "a teacher's session token, of an administrator of the school (read from the database per call)",
  student: "a student's session token",
  'file-link': 'the signed `access` value of a file address, checked by the route (no header on links and media)',
  'meeting-token': 'a meeting token in the socket address, checked by the socket (no header on a WebSocket)',
  'live-token': "a live game's room token in the socket address, checked by the socket (no header on a WebSocket)",
  'board-token': "a class board's room token in the socket address, checked by the socket (no header on a WebSocket)",
} as const;
export type Caller = keyof typeof CALLERS;

/** What a route may read or change, seen from the caller; `roles` are the callers it can apply to. */
export const REACHES = {
  nothing: { roles: ['anonymous', 'teacher', 'student'], meaning: 'no stored data' },
  'new-account': { roles: ['anonymous', 'teacher', 'student'], meaning: 'creates an account; reads none' },
  credentials: {
    roles: ['anonymous', 'teacher', 'student'],
    meaning: 'checks a password and answers a token for the account it belongs to, nothing else',
  },
  'school-setup': {
    roles: ['anonymous', 'teacher', 'student'],
    meaning: 'the school: whether it is set up and its name; setting it up creates it and its first account, once',
  },
  invitation: {
    roles: ['anonymous', 'teacher', 'student'],
    meaning: 'whether the invitation of a code can be used (and using it, to register), nothing else',
  },
  'school-staff': {
    roles: ['teacher'],
    meaning: "the school's name, its teachers and their invitations (administrators only)",
  },
  'untaught-classes': {
    roles: ['teacher'],
    meaning: 'classes no teacher teaches (name, subject, student count) and giving one its owner (administrators only)',
  },
  colleagues: {
    roles: ['teacher'],
    meaning: "the names of the school's active teachers, nothing else (whom to add to a class)",
  },
  'own-account': { roles: ['teacher', 'student'], meaning: "the caller's own profile" },
  'own-tasks': { roles: ['teacher', 'student'], meaning: "the caller's own task list" },
  'own-notifications': {
    roles: ['teacher', 'student'],
    meaning: "the caller's own notifications (the bell): listing them, their unread count, marking them read",
  },
  'own-classes': {
    roles: ['teacher', 'student'],
    meaning:
      'classes the caller teaches (their teachers, join codes, student counts) or, for a student, belongs to (names only); joining one by its code',
  },
  'class-roster': {
    roles: ['teacher'],
    meaning:
      "the students of the classes the caller teaches, contact details included (issue 19 point 8: no other teacher sees them); correcting their details, resetting their password, removing them from a class or moving them between two of the caller's classes",
  },
  'own-imports': {
    roles: ['teacher'],
    meaning: 'a class-list import the caller started: its progress and, once, the passwords it generated',
  },
  'own-quizzes': { roles: ['teacher'], meaning: 'quizzes the calling teacher created, with every attempt at them' },
  'taught-quizzes': {
    roles: ['teacher'],
    meaning:
      "quizzes of the classes the caller teaches: their students' accommodations (extra time, a later deadline; decision 036) and the marking of their essays (decision 046)",
  },
  'class-quizzes': {
    roles: ['student'],
    meaning: "quizzes of the calling student's class, and the student's own attempts at them",
  },
  leaderboards: {
    roles: ['teacher', 'student'],
    meaning: 'ranking fields only: of every class for a teacher, of the own class for a student',
  },
  'own-statistics': { roles: ['student'], meaning: "the calling student's own results" },
  'own-assignments': {
    roles: ['teacher'],
    meaning: 'assignments the calling teacher created (decision 058): creating, editing, duplicating, deleting them',
  },
  'taught-assignments': {
    roles: ['teacher'],
    meaning:
      "assignments of the classes the caller teaches and those classes' students' hand-ins: reading, grading, returning them (decision 058)",
  },
  'class-assignments': {
    roles: ['student'],
    meaning: "published assignments of the calling student's classes, and the student's own hand-ins (decision 058)",
  },
  'class-gradebook': {
    roles: ['teacher'],
    meaning:
      "the gradebook of the classes the caller teaches: their students' names, roll numbers, scores and averages (decision 062)",
  },
  'own-grades': {
    roles: ['student'],
    meaning: "the calling student's own grades and feedback in one of their classes (decision 062)",
  },
  'taught-live-games': {
    roles: ['teacher'],
    meaning:
      'live games of the classes the caller teaches (decision 066): making one of their own quiz, hosting it, its PIN and players, whether it counts toward the class leaderboard',
  },
  'class-live-games': {
    roles: ['student'],
    meaning:
      "live games not over of the calling student's classes: finding one to join, on the dashboard or by its PIN",
  },
  'own-uploads': { roles: ['teacher'], meaning: 'resources the calling teacher shared (files and video links)' },
  'class-resources': {
    roles: ['student'],
    meaning: "resources of the calling student's class, and the student's own stars",
  },
  'linked-file': {
    roles: ['anonymous'],
    meaning: 'the one stored file the link was signed for, while its signer may still see it',
  },
  'linked-hand-in-file': {
    roles: ['anonymous'],
    meaning:
      "the one hand-in file the link was signed for: its student's, or a teacher's of the student's class once handed in (decision 061)",
  },
  'linked-attachment': {
    roles: ['anonymous'],
    meaning:
      "the one attachment of an assignment the link was signed for, while its signer is a student or teacher of one of the assignment's classes (decision 061)",
  },
  'linked-quiz-image': {
    roles: ['anonymous'],
    meaning:
      'the one quiz image the link was signed for (a quiz hands its viewers the links of its images), while the link lasts',
  },
  'live-game-room': {
    roles: ['anonymous', 'teacher', 'student'],
    meaning:
      'a live game of the classes the caller teaches or belongs to: its room token (decision 066); the socket: the game its token names, as its host or as a player',
  },
  'class-board': {
    roles: ['anonymous', 'teacher', 'student'],
    meaning:
      'the board of the classes the caller teaches or belongs to: its room token (decision 069); the socket: the board its token names, drawing only with the pen',
  },
  'taught-class-boards': {
    roles: ['teacher'],
    meaning: 'the pen of the boards of the classes the caller teaches: who draws (decision 069)',
  },
  'meeting-room': {
    roles: ['anonymous', 'teacher', 'student'],
    meaning:
      'meeting rooms of the classes the caller teaches or belongs to (decision 035); the socket: the room its meeting token names',
  },
} as const satisfies Record<string, { roles: readonly ('anonymous' | UserRole)[]; meaning: string }>;
export type Reach = keyof typeof REACHES;

export type RoutePolicy = {
  caller: Caller;
  touches: readonly [Reach, ...Reach[]];
  /**
   * A session that must choose a new password after a teacher's reset (decision 033) may call
   * this route: only what it needs to reach the change (change-password, the profile, sign-out
   * everywhere). Every other signed-in route answers it 403 PASSWORD_CHANGE_REQUIRED.
   */
  allowsPendingPasswordChange?: true;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Required on every /api route: see src/server/plugins/route-policy.ts. */
    policy?: RoutePolicy;
    /** Set when the route is registered: one of its hooks is a throttle (it may answer THROTTLED). */
    isThrottled?: boolean;
  }
}

/** A route as the policy hook saw it being registered. */
export type DeclaredRoute = {
  method: string;
  url: string;
  policy: RoutePolicy | undefined;
  /** The shared description it was registered from (decision 026). */
  endpoint?: EndpointSpec | undefined;
  /** A throttle hook sits on it. */
  isThrottled: boolean;
  /** Its own body limit, when it sets one. */
  bodyLimit?: number | undefined;
};

/** The hooks a route brings itself that run before its handler. */
const HOOKS_BEFORE_HANDLER = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;

/** Who a caller kind admits, in the roles REACHES speaks of. */
const ADMITTED: Record<Caller, readonly ('anonymous' | UserRole)[]> = {
  anyone: ['anonymous', 'teacher', 'student'],
  'signed-in': ['teacher', 'student'],
  teacher: ['teacher'],
  administrator: ['teacher'],
  student: ['student'],
  // The link or the meeting token is the credential: whoever holds it, no session needed.
  'file-link': ['anonymous'],
  'meeting-token': ['anonymous'],
  'live-token': ['anonymous'],
  'board-token': ['anonymous'],
};

const declaredByApp = new WeakMap<FastifyInstance, DeclaredRoute[]>();

/** Every route registered on `app` (HEAD twins of GET routes included) with its declared policy. */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  const routes = declaredByApp.get(app);
  if (!routes) throw new Error('declaredRoutes(): this app was not built with enforceRoutePolicies()');
  return routes;
}

export const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/');

/**
 * Call on the root instance before any route is registered. For each route: records it,
 * refuses an /api route with no policy (or a policy whose reach its callers cannot have),
 * refuses a route that brings its own token check, and puts the check its caller needs first
 * among its onRequest hooks (before the body is read).
 */
export function enforceRoutePolicies(
  app: FastifyInstance,
  tokens: TokenService,
  isAdministrator: (teacherId: string) => Promise<boolean> = async () => false,
): void {
  const guardsOf = (options: GuardOptions): Partial<Record<Caller, onRequestAsyncHookHandler>> => ({
    'signed-in': requireUser(tokens, options),
    teacher: requireRole(tokens, 'teacher', options),
    administrator: requireAdministrator(tokens, isAdministrator),
    student: requireRole(tokens, 'student', options),
  });
  const guards = guardsOf({});
  const pendingPasswordChangeGuards = guardsOf({ allowsPendingPasswordChange: true });
  const declared: DeclaredRoute[] = [];
  declaredByApp.set(app, declared);

  app.addHook('onRoute', (route: RouteOptions) => {
    const policy = route.config?.policy;
    const isThrottled = HOOKS_BEFORE_HANDLER.some((kind) => [route[kind] ?? []].flat().some(isThrottleHook));
    // In the route's config too, where the test app's contract check reads it from the request.
    if (isThrottled) route.config = { ...route.config, isThrottled };
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      declared.push({
        method,
        url: route.url,
        policy,
        endpoint: route.config?.endpoint,
        isThrottled,
        bodyLimit: route.bodyLimit,
      });
    }
    const name = `${methods.join(',')} ${route.url}`;
    const ownHooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
    if (ownHooks.some(isAuthGuard)) {
      throw new Error(`${name}: declare who may call it in config.policy instead of an onRequest token check`);
    }
    if (!policy) {
      if (isApiPath(route.url)) {
        throw new Error(`${name} declares no policy: add config: { policy: { caller, touches } } (route-policy.ts)`);
      }
      return;
    }
    checkPolicy(name, policy);
    const guard = (policy.allowsPendingPasswordChange ? pendingPasswordChangeGuards : guards)[policy.caller];
    if (guard) route.onRequest = [guard, ...ownHooks];
  });
}

function checkPolicy(name: string, policy: RoutePolicy) {
  if (!(policy.caller in CALLERS)) throw new Error(`${name}: unknown caller "${policy.caller}"`);
  if (policy.touches.length === 0) throw new Error(`${name}: say what the route touches ('nothing' if nothing)`);
  for (const reach of policy.touches) {
    const roles: readonly string[] = REACHES[reach]?.roles ?? [];
    if (!ADMITTED[policy.caller].some((role) => roles.includes(role))) {
      throw new Error(`${name}: a "${policy.caller}" caller cannot touch "${reach}"`);
    }
  }
  // And every role the caller admits must reach something: a policy loosened with its guard
  // (a teacher's route opened to "signed-in") would otherwise let students in, and the matrix,
  // which takes its expectations from the policy, would expect them to get in.
  for (const role of ADMITTED[policy.caller]) {
    if (!policy.touches.some((reach) => (REACHES[reach].roles as readonly string[]).includes(role))) {
      throw new Error(
        `${name}: a "${policy.caller}" caller lets in ${role} callers, who can touch none of ${policy.touches.join(', ')}`,
      );
    }
  }
}
