import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emptyBodySchema,
  studentLoginSchema,
  studentRegistrationSchema,
  teacherLoginSchema,
  teacherRegistrationSchema,
} from '#shared/accounts';
import { ok } from '../../http.ts';
import { currentUser, requireRole, type TokenService } from '../../plugins/auth.ts';
import type { Throttle } from '../../throttle/throttle.ts';
import type { AccountsService } from './service.ts';

/**
 * SPEC §7 account calls: validate, authorize, call the service, present. Sign-in and
 * account creation are throttled (decision 016): per network and per account.
 */
export function accountsRoutes(
  accounts: AccountsService,
  tokens: TokenService,
  throttle: Throttle,
): FastifyPluginAsyncZod {
  return async (app) => {
    const teacherOnly = requireRole(tokens, 'teacher');
    const studentOnly = requireRole(tokens, 'student');

    app.post(
      '/api/teacher/register',
      { schema: { body: teacherRegistrationSchema }, ...throttle.registration() },
      async (request, reply) => {
        const teacher = await accounts.registerTeacher(request.body);
        return reply.code(201).send(ok('Registration successful, please log in', teacher));
      },
    );

    app.post(
      '/api/teacher/login',
      { schema: { body: teacherLoginSchema }, ...throttle.signIn('teacher') },
      async (request) => ok('Logged in successfully', await accounts.loginTeacher(request.body)),
    );

    app.post(
      '/api/student/register',
      { schema: { body: studentRegistrationSchema }, ...throttle.registration() },
      async (request, reply) => {
        const student = await accounts.registerStudent(request.body);
        return reply.code(201).send(ok('Registration successful, please log in', student));
      },
    );

    app.post(
      '/api/student/login',
      { schema: { body: studentLoginSchema }, ...throttle.signIn('student') },
      async (request) => ok('Logged in successfully', await accounts.loginStudent(request.body)),
    );

    app.post(
      '/api/teacher/get-teacher-by-id',
      { schema: { body: emptyBodySchema }, onRequest: teacherOnly },
      async (request) => ok('Teacher found', await accounts.getTeacher(currentUser(request).id)),
    );

    app.post(
      '/api/student/get-student-by-id',
      { schema: { body: emptyBodySchema }, onRequest: studentOnly },
      async (request) => ok('Student found', await accounts.getStudent(currentUser(request).id)),
    );

    app.post(
      '/api/teacher/add-student',
      { schema: { body: studentRegistrationSchema }, onRequest: teacherOnly, ...throttle.studentsAdded() },
      async (request, reply) => {
        const student = await accounts.registerStudent(request.body, currentUser(request).id);
        return reply.code(201).send(ok(`Student ${student.name} added successfully`, student));
      },
    );
  };
}
