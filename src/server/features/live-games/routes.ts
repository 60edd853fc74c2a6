import type { FastifyPluginAsync } from 'fastify';
import {
  createLiveGame,
  findLiveGameByPin,
  getLiveGame,
  getLiveGameReport,
  listFinishedLiveGames,
  listStudentLiveGames,
  listTeacherLiveGames,
  setLiveGameLeaderboard,
} from '#shared/contract/live-games';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { LiveGames } from './service.ts';

/**
 * The live game's REST routes (issue 34, decision 066). Hosting is for every teacher of the
 * game's class (requireTaughtClass decides); making a game and its reports, for the quiz's
 * author (the analytics' rule); students find the games of their own classes only.
 */
export function liveGamesRoutes(liveGames: LiveGames): FastifyPluginAsync {
  return async (app) => {
    const taught: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['taught-live-games'] } } };
    const classGames: RouteSettings = { config: { policy: { caller: 'student', touches: ['class-live-games'] } } };
    const ownQuizzes: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['own-quizzes'] } } };

    routeEndpoint(
      app,
      createLiveGame,
      { config: { policy: { caller: 'teacher', touches: ['own-quizzes', 'taught-live-games'] } } },
      async (request) => ({
        message: 'Live game created',
        data: await liveGames.create(currentUser(request).id, request.body),
      }),
    );
    routeEndpoint(app, listTeacherLiveGames, taught, async (request) => ({
      message: 'Live games found',
      data: await liveGames.listForTeacher(currentUser(request).id),
    }));
    routeEndpoint(app, getLiveGame, taught, async (request) => ({
      message: 'Live game found',
      data: await liveGames.getForTeacher(currentUser(request).id, request.params.id),
    }));
    routeEndpoint(app, setLiveGameLeaderboard, taught, async (request) => ({
      message: 'Leaderboard choice saved',
      data: await liveGames.setLeaderboardChoice(
        currentUser(request).id,
        request.params.id,
        request.body.countsTowardLeaderboard,
      ),
    }));
    routeEndpoint(app, listStudentLiveGames, classGames, async (request) => ({
      message: 'Live games found',
      data: await liveGames.listForStudent(currentUser(request).id),
    }));
    routeEndpoint(app, findLiveGameByPin, classGames, async (request) => ({
      message: 'Live game found',
      data: await liveGames.findByPin(currentUser(request).id, request.params.pin),
    }));
    routeEndpoint(app, listFinishedLiveGames, ownQuizzes, async (request) => {
      const { offset, limit } = request.query;
      return {
        message: 'Finished live games found',
        listed: await liveGames.listFinished(currentUser(request).id, request.params.id, { offset, limit }),
        page: { offset, limit },
      };
    });
    routeEndpoint(app, getLiveGameReport, ownQuizzes, async (request) => ({
      message: 'Live game report found',
      data: await liveGames.report(currentUser(request).id, request.params.id, request.params.gameId),
    }));
  };
}
