import type { FastifyPluginAsync } from 'fastify';
import { getGradebookColumns, getStudentGradebook, listGradebookRows } from '#shared/contract/gradebook';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { Gradebook } from './service.ts';

/**
 * The gradebook (issue 33 point 4, decision 062): a class's for every teacher of it (co-teachers
 * too, requireTaughtClass decides), a student's own row of one of their classes.
 */
export function gradebookRoutes(gradebook: Gradebook): FastifyPluginAsync {
  return async (app) => {
    const taught: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['class-gradebook'] } } };

    routeEndpoint(app, getGradebookColumns, taught, async (request) => ({
      message: 'Gradebook columns found',
      data: await gradebook.columns(currentUser(request).id, request.params.id),
    }));
    routeEndpoint(app, listGradebookRows, taught, async (request) => {
      const { offset, limit } = request.query;
      return {
        message: 'Gradebook rows found',
        listed: await gradebook.rows(currentUser(request).id, request.params.id, request.query),
        page: { offset, limit },
      };
    });
    routeEndpoint(
      app,
      getStudentGradebook,
      { config: { policy: { caller: 'student', touches: ['own-grades'] } } },
      async (request) => ({
        message: 'Grades found',
        data: await gradebook.forStudent(currentUser(request).id, request.params.id),
      }),
    );
  };
}
