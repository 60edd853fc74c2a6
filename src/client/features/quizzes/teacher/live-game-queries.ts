import { queryOptions } from '@tanstack/react-query';
import { getLiveGameReport, listFinishedLiveGames } from '#shared/contract/live-games';
import { LIVE_GAME_LIMITS } from '#shared/live-game-basics';
import { call } from '../../../lib/api.ts';
import { pagedListOptions } from '../../../lib/paged-list.ts';

/**
 * A quiz's finished live games on its analytics (issue 34 point 6, decision 066): the paged list
 * and one game's report. The leaderboard choice changes both, so it invalidates `all`.
 */
export const liveGameQueries = {
  all: ['live-games', 'finished'] as const,
  list: (quizId: string) =>
    pagedListOptions(
      [...liveGameQueries.all, quizId, 'list'],
      listFinishedLiveGames,
      { limit: LIVE_GAME_LIMITS.pageSizeDefault },
      undefined,
      { id: quizId },
    ),
  report: (quizId: string, gameId: string) =>
    queryOptions({
      queryKey: [...liveGameQueries.all, quizId, 'report', gameId],
      queryFn: async ({ signal }) =>
        (await call(getLiveGameReport, { params: { id: quizId, gameId } }, { signal })).data,
      // A finished game does not change, but for its leaderboard choice, which this page makes.
      staleTime: 60_000,
      // A game not found or not the caller's is said on the page; a refusal is not retried.
      retry: false,
      meta: { errorToast: false },
    }),
};
