import { queryOptions } from '@tanstack/react-query';
import { findLiveGameByPin, issueLiveGameToken, listStudentLiveGames } from '#shared/contract/live-game-joining';
import { call } from '../../lib/api.ts';

/**
 * The calls that find a live game and open its socket, apart from the teacher's (live-games-api.ts)
 * so that the student's dashboard and the socket's session stay small.
 */

/** A room token for the game's socket: a host's for a teacher of its class, a player's for a student of it. */
export const fetchLiveTicket = async (gameId: string) =>
  (await call(issueLiveGameToken, { params: { id: gameId } })).data;

/** The game of the student's classes with this PIN (anything else: NOT_FOUND). */
export const findGameByPin = async (pin: string) => (await call(findLiveGameByPin, { params: { pin } })).data;

export const studentLiveGameQueries = {
  /** The games not over of the student's classes (the dashboard's "Join"). */
  forStudent: () =>
    queryOptions({
      queryKey: ['live-games', 'student'],
      queryFn: async ({ signal }) => (await call(listStudentLiveGames, {}, { signal })).data,
    }),
};
