import { queryOptions } from '@tanstack/react-query';
import { createLiveGame as createGame, getLiveGame, listTeacherLiveGames } from '#shared/contract/live-games';
import type { NewLiveGame } from '#shared/live-games';
import { call } from '../../lib/api.ts';

/** A game in the lobby for one of the teacher's quizzes and classes, with its PIN. */
export const createLiveGame = async (input: NewLiveGame) => (await call(createGame, { body: input })).data;

export const liveGameQueries = {
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
