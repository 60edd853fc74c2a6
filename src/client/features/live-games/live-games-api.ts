import { queryOptions } from '@tanstack/react-query';
import {
  createLiveGame as createGame,
  findLiveGameByPin,
  getLiveGame,
  issueLiveGameToken,
  listStudentLiveGames,
  listTeacherLiveGames,
} from '#shared/contract/live-games';
import type { NewLiveGame } from '#shared/live-games';
import { call } from '../../lib/api.ts';

/** A game in the lobby for one of the teacher's quizzes and classes, with its PIN. */
export const createLiveGame = async (input: NewLiveGame) => (await call(createGame, { body: input })).data;

/** A room token for the game's socket: a host's for a teacher of its class, a player's for a student of it. */
export const fetchLiveTicket = async (gameId: string) =>
  (await call(issueLiveGameToken, { params: { id: gameId } })).data;

/** The game of the student's classes with this PIN (anything else: NOT_FOUND). */
export const findGameByPin = async (pin: string) => (await call(findLiveGameByPin, { params: { pin } })).data;

export const liveGameQueries = {
  /** The games not over of the student's classes (the dashboard's "Join"). */
  forStudent: () =>
    queryOptions({
      queryKey: ['live-games', 'student'],
      queryFn: async ({ signal }) => (await call(listStudentLiveGames, {}, { signal })).data,
    }),
  /** The games not over of the teacher's classes (to take one back). */
  forTeacher: () =>
    queryOptions({
      queryKey: ['live-games', 'teacher'],
      queryFn: async ({ signal }) => (await call(listTeacherLiveGames, {}, { signal })).data,
    }),
  game: (gameId: string) =>
    queryOptions({
      queryKey: ['live-games', 'game', gameId],
      queryFn: async ({ signal }) => (await call(getLiveGame, { params: { id: gameId } }, { signal })).data,
    }),
};
