import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changePasswordSchema,
  emptyBodySchema,
  studentLoginSchema,
  studentRegistrationSchema,
  teacherLoginSchema,
  teacherRegistrationSchema,
} from '#shared/accounts';
import type { UserRole } from '#shared/constants';
import { ok } from '../../http.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { RoutePolicy } from '../../plugins/route-policy.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import type { AccountsService } from './service.ts';

/**
 * SPEC §7 account calls: validate, authorize (each route's policy, decision 020), call the
 * service, present. Sign-in and account creation are throttled (decision 016): per network
 * and per account.
 */
export function accountsRoutes(accounts: AccountsService, throttle: Throttle): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/teacher/register',
      {
        schema: { body: teacherRegistrationSchema },
        config: { policy: { caller: 'anyone', touches: ['new-account'] } },
        ...throttle.registration('teacher'),
      },
      async (request, reply) => {
        const teacher = await accounts.registerTeacher(request.body);
        return reply.code(201).send(ok('Registration successful, please log in', teacher));
      },
    );

    app.post(
      '/api/teacher/login',
      {
        schema: { body: teacherLoginSchema },
        config: { policy: { caller: 'anyone', touches: ['credentials'] } },
        ...throttle.signIn('teacher'),
      },
      async (request) => ok('Logged in successfully', await accounts.loginTeacher(request.body)),
    );

    app.post(
      '/api/student/register',
      {
        schema: { body: studentRegistrationSchema },
        config: { policy: { caller: 'anyone', touches: ['new-account'] } },
        ...throttle.registration('student'),
      },
      async (request, reply) => {
        const student = await accounts.registerStudent(request.body);
        return reply.code(201).send(ok('Registration successful, please log in', student));
      },
    );

    app.post(
      '/api/student/login',
      {
        schema: { body: studentLoginSchema },
        config: { policy: { caller: 'anyone', touches: ['credentials'] } },
        ...throttle.signIn('student'),
      },
      async (request) => ok('Logged in successfully', await accounts.loginStudent(request.body)),
    );

    app.post(
      '/api/teacher/get-teacher-by-id',
      { schema: { body: emptyBodySchema }, config: { policy: { caller: 'teacher', touches: ['own-account'] } } },
      async (request) => ok('Teacher found', await accounts.getTeacher(currentUser(request).id)),
    );

    app.post(
      '/api/student/get-student-by-id',
      { schema: { body: emptyBodySchema }, config: { policy: { caller: 'student', touches: ['own-account'] } } },
      async (request) => ok('Student found', await accounts.getStudent(currentUser(request).id)),
    );

    // Sessions (decision 017), one pair per role: the account is the token's, never the body's.
    for (const role of ['teacher', 'student'] as const satisfies readonly UserRole[]) {
      const ownAccountOnly: { policy: RoutePolicy } = { policy: { caller: role, touches: ['own-account'] } };

      app.post(
        `/api/${role}/change-password`,
        { schema: { body: changePasswordSchema }, config: ownAccountOnly, ...throttle.currentPasswordProof() },
        async (request) =>
          ok(
            'Your password was changed. Other devices were signed out; this one stays signed in.',
            await accounts.changePassword(currentUser(request), request.body),
          ),
      );

      app.post(
        `/api/${role}/logout-everywhere`,
        { schema: { body: emptyBodySchema }, config: ownAccountOnly },
        async (request) => {
          await accounts.signOutEverywhere(currentUser(request));
          return ok('You were signed out of all devices, this one included', null);
        },
      );
    }

    app.post(
      '/api/teacher/add-student',
      {
        schema: { body: studentRegistrationSchema },
        config: { policy: { caller: 'teacher', touches: ['new-account', 'school-students'] } },
        ...throttle.studentsAdded(),
      },
      async (request, reply) => {
        const student = await accounts.registerStudent(request.body, currentUser(request).id);
        return reply.code(201).send(ok(`Student ${student.name} added successfully`, student));
      },
    );
  };
}
