import type { FastifyPluginAsync } from 'fastify';
import {
  createLiveGame,
  findLiveGameByPin,
  getLiveGame,
  getLiveGameReport,
  issueLiveGameToken,
  listFinishedLiveGames,
  listStudentLiveGames,
  listTeacherLiveGames,
  setLiveGameLeaderboard,
} from '#shared/contract/live-games';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { RoomTransport } from '../../realtime/room-socket.ts';
import { registerLiveGameSocket, type LiveSocketOptions } from './live-socket.ts';
import type { LiveGamePlay } from './play.ts';
import type { LiveGames } from './service.ts';

/** The game's socket: the room transport, the referee, and the token and session checks. */
export type LiveGameSocketSettings = Pick<LiveSocketOptions, 'authenticate' | 'isSessionCurrent'> &
  Partial<Pick<LiveSocketOptions, 'roomSize' | 'resumeGraceMs' | 'joinTimeoutMs' | 'limits'>> & {
    transport: RoomTransport;
    play: LiveGamePlay;
  };

/**
 * The live game's REST routes (issue 34, decision 066). Hosting is for every teacher of the
 * game's class (requireTaughtClass decides); making a game and its reports, for the quiz's
 * author (the analytics' rule); students find the games of their own classes only.
 */
export function liveGamesRoutes(liveGames: LiveGames, socket?: LiveGameSocketSettings): FastifyPluginAsync {
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
    routeEndpoint(
      app,
      issueLiveGameToken,
      { config: { policy: { caller: 'signed-in', touches: ['live-game-room'] } } },
      async (request) => ({
        message: 'Live game token issued',
        data: await liveGames.issueToken(currentUser(request), request.params.id),
      }),
    );
    // The transport adds the socket's route where it registered WebSocket support (the root).
    if (socket) registerLiveGameSocket(socket.transport, { ...socket, log: app.log });
  };
}
