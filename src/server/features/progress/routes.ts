import type { FastifyPluginAsync } from 'fastify';
import { getLeaderboard, getStudentStatistics } from '#shared/contract/progress';
import { routeEndpoint } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { ProgressService } from './service.ts';

/** SPEC §7 get-students (leaderboards) and the student's own statistics. */
export function progressRoutes(progress: ProgressService): FastifyPluginAsync {
  return async (app) => {
    routeEndpoint(
      app,
      getLeaderboard,
      { config: { policy: { caller: 'signed-in', touches: ['leaderboards'] } } },
      async (request) => {
        const { classId, search, offset, limit } = request.query;
        const listed = await progress.listLeaderboard(
          currentUser(request),
          { classId, search },
          { offset, limit },
          request.tagVersions,
        );
        return { message: 'Students found', listed, page: { offset, limit } };
      },
    );

    routeEndpoint(
      app,
      getStudentStatistics,
      { config: { policy: { caller: 'student', touches: ['own-statistics'] } } },
      async (request) => ({
        message: 'Statistics found',
        data: await progress.statisticsFor(currentUser(request).id),
      }),
    );
  };
}
