import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { studentListQuerySchema } from '#shared/students';
import { ok, okPage } from '../../http.ts';
import { requireRole, type TokenService } from '../../plugins/auth.ts';
import type { StudentsService } from './service.ts';

/** The teacher's students screen: the school's students and the classes to filter them by. */
export function studentsRoutes(students: StudentsService, tokens: TokenService): FastifyPluginAsyncZod {
  return async (app) => {
    const teacherOnly = requireRole(tokens, 'teacher');

    app.get(
      '/api/teacher/students',
      { schema: { querystring: studentListQuerySchema }, onRequest: teacherOnly },
      async (request, reply) => {
        const { offset, limit } = request.query;
        const listed = await students.listStudents(request.query);
        return okPage(reply, 'Students found', listed, { offset, limit });
      },
    );

    app.get('/api/teacher/classes', { onRequest: teacherOnly }, async () =>
      ok('Classes found', await students.listClasses()),
    );
  };
}
