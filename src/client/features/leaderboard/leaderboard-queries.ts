import { t } from '@lingui/core/macro';
import { getLeaderboard } from '#shared/contract/progress';
import { LEADERBOARD } from '#shared/progress';
import { z } from 'zod/mini';
import { pagedListOptions } from '../../lib/paged-list.ts';
import { textFilter } from '../../lib/url-filters.ts';

/** SPEC §8: the one message a failed leaderboard fetch shows, in the active locale (a render's). */
export const fetchFailedMessage = () => t`Failed to fetch students`;

/** The filters in the address: a class by its id and a name search. */
export const LEADERBOARD_FILTERS = z.object({
  classId: textFilter(getLeaderboard.query.shape.classId),
  search: textFilter(getLeaderboard.query.shape.search),
});
export type LeaderboardFilters = z.output<typeof LEADERBOARD_FILTERS>;

/** The leaderboard feature's queries. */
export const leaderboardQueries = {
  all: ['leaderboard'] as const,
  /** get-students for these filters, page by page; the server filters, sorts, ranks and pages. */
  list: (role: 'teacher' | 'student', filters: LeaderboardFilters) => ({
    ...pagedListOptions([...leaderboardQueries.all, role, filters], getLeaderboard, {
      ...filters,
      limit: LEADERBOARD.pageSizeDefault,
    }),
    meta: { errorToast: fetchFailedMessage() },
  }),
};
