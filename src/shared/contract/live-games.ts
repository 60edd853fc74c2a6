import { z } from 'zod/mini';
import {
  finishedGamesQuerySchema,
  finishedLiveGameSchema,
  leaderboardChoiceSchema,
  LIVE_GAME_CLOSE_CODES,
  LIVE_GAME_SOCKET_PATH,
  liveClientMessageSchema,
  liveGameIdParamsSchema,
  liveJoinMessageSchema,
  liveServerMessageSchema,
  liveGameReportSchema,
  liveGameSummarySchema,
  newLiveGameSchema,
  quizLiveGameParamsSchema,
} from '../live-games.ts';
import { quizIdParamsSchema } from '../quizzes.ts';
import { defineEndpoint } from './endpoint.ts';

export * from './live-game-joining.ts';

/**
 * The live game's REST calls (issue 34, decision 066): a teacher makes and finds games, a student
 * finds the one to join, the quiz's author reads finished games' reports. The play itself goes
 * over the room transport's socket.
 */

export const createLiveGame = defineEndpoint({
  method: 'POST',
  path: '/api/live-games',
  summary: "A live game in the lobby for one of the caller's quizzes and an active class they teach, with its PIN",
  description:
    'The game plays the quiz’s questions as they are now (an edit later changes neither the game nor its report), ' +
    'essays and descriptions skipped (NO_LIVE_QUESTIONS when nothing else is left); each question’s options in one shuffled order. ' +
    'questionSeconds: 5 to 240, 20 by default.',
  body: newLiveGameSchema,
  response: liveGameSummarySchema,
  status: 201,
  errors: ['NOT_FOUND', 'FORBIDDEN', 'CLASS_ARCHIVED', 'QUIZ_ARCHIVED', 'NO_LIVE_QUESTIONS'],
});

export const listTeacherLiveGames = defineEndpoint({
  method: 'GET',
  path: '/api/live-games',
  summary: 'The live games not over of the classes the caller teaches, newest first: where a host takes one back',
  response: z.array(liveGameSummarySchema),
});

export const getLiveGame = defineEndpoint({
  method: 'GET',
  path: '/api/live-games/:id',
  summary: 'One live game of a class the caller teaches, with its PIN (the host’s page)',
  params: liveGameIdParamsSchema,
  response: liveGameSummarySchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const setLiveGameLeaderboard = defineEndpoint({
  method: 'PUT',
  path: '/api/live-games/:id/leaderboard',
  summary: 'Whether a live game of a class the caller teaches counts toward the class leaderboard (off by default)',
  params: liveGameIdParamsSchema,
  body: leaderboardChoiceSchema,
  response: liveGameSummarySchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const listFinishedLiveGames = defineEndpoint({
  method: 'GET',
  path: '/api/quizzes/:id/live-games',
  summary: 'The finished live games of a quiz the caller created, newest first (its analytics)',
  params: quizIdParamsSchema,
  query: finishedGamesQuerySchema,
  response: z.array(finishedLiveGameSchema),
  paged: true,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const getLiveGameReport = defineEndpoint({
  method: 'GET',
  path: '/api/quizzes/:id/live-games/:gameId',
  summary:
    'A finished live game of a quiz the caller created: per question its key and the distribution of the answers, per student the score, rank and answers',
  description: 'The analytics build the CSV from it (liveGameReportCsv in src/shared/live-game-report.ts).',
  params: quizLiveGameParamsSchema,
  response: liveGameReportSchema,
  errors: ['NOT_FOUND', 'FORBIDDEN'],
});

export const liveGameSocket = defineEndpoint({
  method: 'GET',
  path: LIVE_GAME_SOCKET_PATH,
  summary: `The live game's WebSocket (protocol version 1) on the room transport`,
  description:
    'Browsers cannot set headers on a WebSocket: the room token goes in the query (and `resume`, a player’s seat id, ' +
    'to take their seat back within a minute). Every refusal is a close code; the first message must be `join`. ' +
    'A refused message is `{ type: "error", code }` and the socket stays. A plain HTTP request is answered 426.',
  query: z.object({
    token: z.string().check(z.describe('The room token from POST /api/live-games/{id}/token')),
    resume: z.optional(z.string()).check(z.describe('The seat id of the welcome, to come back as the same seat')),
  }),
  response: {
    form: 'websocket',
    clientMessages: z.union([liveJoinMessageSchema, liveClientMessageSchema]),
    serverMessages: liveServerMessageSchema,
    closeCodes: LIVE_GAME_CLOSE_CODES,
  },
  errors: ['UPGRADE_REQUIRED'],
});
