import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  emptyBodySchema,
  studentLoginSchema,
  studentRegistrationSchema,
  teacherLoginSchema,
  teacherRegistrationSchema,
} from '#shared/accounts';
import { ok } from '../../http.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { AccountsService } from './service.ts';

/** SPEC §7 account calls: validate, authorize (each route's policy), call the service, present. */
export function accountsRoutes(accounts: AccountsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/teacher/register',
      {
        schema: { body: teacherRegistrationSchema },
        config: { policy: { caller: 'anyone', touches: ['new-account'] } },
      },
      async (request, reply) => {
        const teacher = await accounts.registerTeacher(request.body);
        return reply.code(201).send(ok('Registration successful, please log in', teacher));
      },
    );

    app.post(
      '/api/teacher/login',
      { schema: { body: teacherLoginSchema }, config: { policy: { caller: 'anyone', touches: ['credentials'] } } },
      async (request) => ok('Logged in successfully', await accounts.loginTeacher(request.body)),
    );

    app.post(
      '/api/student/register',
      {
        schema: { body: studentRegistrationSchema },
        config: { policy: { caller: 'anyone', touches: ['new-account'] } },
      },
      async (request, reply) => {
        const student = await accounts.registerStudent(request.body);
        return reply.code(201).send(ok('Registration successful, please log in', student));
      },
    );

    app.post(
      '/api/student/login',
      { schema: { body: studentLoginSchema }, config: { policy: { caller: 'anyone', touches: ['credentials'] } } },
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

    app.post(
      '/api/teacher/add-student',
      {
        schema: { body: studentRegistrationSchema },
        config: { policy: { caller: 'teacher', touches: ['new-account', 'school-students'] } },
      },
      async (request, reply) => {
        const student = await accounts.registerStudent(request.body, currentUser(request).id);
        return reply.code(201).send(ok(`Student ${student.name} added successfully`, student));
      },
    );
  };
}
