import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { studentListQuerySchema } from '#shared/students';
import { ok, okPage } from '../../http.ts';
import type { StudentsService } from './service.ts';

/** The teacher's students screen: the school's students and the classes to filter them by. */
export function studentsRoutes(students: StudentsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/teacher/students',
      {
        schema: { querystring: studentListQuerySchema },
        config: { policy: { caller: 'teacher', touches: ['school-students'] } },
      },
      async (request, reply) => {
        const { offset, limit } = request.query;
        const listed = await students.listStudents(request.query);
        return okPage(reply, 'Students found', listed, { offset, limit });
      },
    );

    app.get(
      '/api/teacher/classes',
      { config: { policy: { caller: 'teacher', touches: ['school-students'] } } },
      async () => ok('Classes found', await students.listClasses()),
    );
  };
}
