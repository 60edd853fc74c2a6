import { z } from 'zod/mini';
import {
  liveGameIdParamsSchema,
  livePinParamsSchema,
  liveTicketSchema,
  studentLiveGameSchema,
} from '../live-game-basics.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * The live game's calls a page makes to find a game and open its socket (issue 34, decision
 * 066): a student's games and PIN, and the room token of host and players alike. Apart from the
 * rest of the game's contract so that the student's dashboard does not download the quiz schemas.
 */

export const listStudentLiveGames = defineEndpoint({
  method: 'GET',
  path: '/api/student/live-games',
  summary: "The live games not over of the calling student's classes (the dashboard's “Join”)",
  response: z.array(studentLiveGameSchema),
});

export const findLiveGameByPin = defineEndpoint({
  method: 'GET',
  path: '/api/student/live-games/pin/:pin',
  summary: "The live game not over with this PIN, if it is of one of the calling student's classes",
  description:
    'Any other PIN, an ended game’s or another class’s, is the same NOT_FOUND: a PIN tells nothing outside its class.',
  params: livePinParamsSchema,
  response: studentLiveGameSchema,
  errors: ['NOT_FOUND'],
});

export const issueLiveGameToken = defineEndpoint({
  method: 'POST',
  path: '/api/live-games/:id/token',
  summary:
    "A short-lived room token for a live game's socket: a host's for a teacher of the game's class, a player's for a student of it",
  description: 'Anyone else, and a game that is over, is NOT_FOUND (a game id tells nothing outside its class).',
  params: liveGameIdParamsSchema,
  response: liveTicketSchema,
  errors: ['NOT_FOUND'],
});
