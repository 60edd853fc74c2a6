import type { FastifyPluginAsync } from 'fastify';
import { listClasses, listStudents } from '#shared/contract/students';
import { routeEndpoint } from '../../endpoint-route.ts';
import type { RouteSettings } from '../../endpoint-route.ts';
import type { StudentsService } from './service.ts';

/** The teacher's students screen: the school's students and the classes to filter them by. */
export function studentsRoutes(students: StudentsService): FastifyPluginAsync {
  return async (app) => {
    const schoolStudents: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['school-students'] } } };

    routeEndpoint(app, listStudents, schoolStudents, async (request) => {
      const { offset, limit } = request.query;
      return { message: 'Students found', listed: await students.listStudents(request.query), page: { offset, limit } };
    });

    routeEndpoint(app, listClasses, schoolStudents, async () => ({
      message: 'Classes found',
      data: await students.listClasses(),
    }));
  };
}
