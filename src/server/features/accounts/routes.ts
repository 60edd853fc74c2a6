import type { FastifyPluginAsync } from 'fastify';
import {
  changePassword,
  chooseLanguage,
  getStudentProfile,
  getTeacherProfile,
  logOutEverywhere,
} from '#shared/contract/accounts';
import { logInStudent, logInTeacher, registerStudent, registerTeacher } from '#shared/contract/sign-in';
import type { UserRole } from '#shared/constants';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import type { AccountsService } from './service.ts';

const REGISTERED = 'Registration successful, please log in';
const LOGGED_IN = 'Logged in successfully';

/**
 * SPEC §7 account calls: validate, authorize (each route's policy, decision 020), call the
 * service, present. Sign-in and account creation are throttled (decision 016): per network
 * and per account.
 */
export function accountsRoutes(accounts: AccountsService, throttle: Throttle): FastifyPluginAsync {
  return async (app) => {
    const newAccount = { policy: { caller: 'anyone', touches: ['new-account'] } } as const;
    const credentials = { policy: { caller: 'anyone', touches: ['credentials'] } } as const;

    // A teacher registers with an invitation, which the registration uses up (decision 030).
    routeEndpoint(
      app,
      registerTeacher,
      {
        config: { policy: { caller: 'anyone', touches: ['new-account', 'invitation'] } },
        ...throttle.registration('teacher'),
      },
      async (request) => ({ message: REGISTERED, data: await accounts.registerTeacher(request.body) }),
    );

    routeEndpoint(app, logInTeacher, { config: credentials, ...throttle.signIn('teacher') }, async (request) => ({
      message: LOGGED_IN,
      data: await accounts.loginTeacher(request.body),
    }));

    routeEndpoint(
      app,
      registerStudent,
      { config: newAccount, ...throttle.registration('student') },
      // A wrong class code is refused (400) and so stays charged as a failure: codes cannot be guessed by trying.
      async (request) => ({ message: REGISTERED, data: await accounts.registerStudent(request.body) }),
    );

    routeEndpoint(app, logInStudent, { config: credentials, ...throttle.signIn('student') }, async (request) => ({
      message: LOGGED_IN,
      data: await accounts.loginStudent(request.body),
    }));

    routeEndpoint(
      app,
      getTeacherProfile,
      { config: { policy: { caller: 'teacher', touches: ['own-account'] } } },
      async (request) => ({ message: 'Teacher found', data: await accounts.getTeacher(currentUser(request).id) }),
    );

    routeEndpoint(
      app,
      getStudentProfile,
      // The choose-a-new-password screen reads it after a reset (decision 033).
      { config: { policy: { caller: 'student', touches: ['own-account'], allowsPendingPasswordChange: true } } },
      async (request) => ({ message: 'Student found', data: await accounts.getStudent(currentUser(request).id) }),
    );

    // Sessions (decision 017), one pair per role: the account is the token's, never the body's.
    for (const role of ['teacher', 'student'] as const satisfies readonly UserRole[]) {
      // A session after a teacher's reset may choose its password or sign out everywhere, nothing else (decision 033).
      const ownAccountOnly: RouteSettings = {
        config: { policy: { caller: role, touches: ['own-account'], allowsPendingPasswordChange: true } },
      };

      routeEndpoint(
        app,
        changePassword[role],
        { ...ownAccountOnly, ...throttle.currentPasswordProof() },
        async (request) => ({
          message: 'Your password was changed. Other devices were signed out; this one stays signed in.',
          data: await accounts.changePassword(currentUser(request), request.body),
        }),
      );

      routeEndpoint(app, logOutEverywhere[role], ownAccountOnly, async (request) => {
        await accounts.signOutEverywhere(currentUser(request));
        return { message: 'You were signed out of all devices, this one included', data: null };
      });

      // A session that must choose its password may still read the screen in its language (decision 033).
      routeEndpoint(app, chooseLanguage[role], ownAccountOnly, async (request) => ({
        message: 'Language kept',
        data: await accounts.chooseLanguage(currentUser(request), request.body),
      }));
    }
  };
}
