import { queryOptions } from '@tanstack/react-query';
import { getGradebookColumns, getStudentGradebook, listGradebookRows } from '#shared/contract/gradebook';
import { GRADEBOOK_LIMITS, type GradebookSort } from '#shared/gradebook';
import { call } from '../../lib/api.ts';
import { pagedListOptions } from '../../lib/paged-list.ts';

/** What the gradebook's address holds: the sort, its order, the search and the missing-work filter. */
export type GradebookFilters = { sort: GradebookSort; order: 'asc' | 'desc'; search: string; missing: string };

/** The gradebook's queries (decision 062); a grade or a new item anywhere invalidates `all`. */
export const gradebookQueries = {
  all: ['gradebook'] as const,
  columns: (classId: string) =>
    queryOptions({
      queryKey: [...gradebookQueries.all, 'columns', classId],
      queryFn: async ({ signal }) => (await call(getGradebookColumns, { params: { id: classId } }, { signal })).data,
    }),
  /** The rows under the columns of `columnsKey`: other columns are another list (GRADEBOOK_CHANGED refuses a mix). */
  rows: (classId: string, columnsKey: string, filters: GradebookFilters) =>
    pagedListOptions(
      [...gradebookQueries.all, 'rows', classId, columnsKey, filters],
      listGradebookRows,
      {
        sort: filters.sort,
        order: filters.order,
        ...(filters.search ? { search: filters.search } : {}),
        ...(filters.missing === 'true' ? { missing: 'true' as const } : {}),
        columns: columnsKey,
        limit: GRADEBOOK_LIMITS.pageSizeDefault,
      },
      undefined,
      { id: classId },
    ),
  ofStudent: (classId: string) =>
    queryOptions({
      queryKey: [...gradebookQueries.all, 'student', classId],
      queryFn: async ({ signal }) => (await call(getStudentGradebook, { params: { id: classId } }, { signal })).data,
    }),
};
