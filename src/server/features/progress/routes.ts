import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { leaderboardQuerySchema } from '#shared/progress';
import { ok, okPage } from '../../http.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { ProgressService } from './service.ts';

/** SPEC §7 get-students (leaderboards) and the student's own statistics. */
export function progressRoutes(progress: ProgressService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/get-students',
      {
        schema: { querystring: leaderboardQuerySchema },
        config: { policy: { caller: 'signed-in', touches: ['leaderboards'] } },
      },
      async (request, reply) => {
        const { class: className, search, offset, limit } = request.query;
        const listed = await progress.listLeaderboard(currentUser(request), { className, search }, { offset, limit });
        return okPage(reply, 'Students found', listed, { offset, limit });
      },
    );

    app.get(
      '/api/student/statistics',
      { config: { policy: { caller: 'student', touches: ['own-statistics'] } } },
      async (request) => ok('Statistics found', await progress.statisticsFor(currentUser(request).id)),
    );
  };
}
