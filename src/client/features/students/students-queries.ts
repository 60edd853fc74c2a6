import { queryOptions, useQuery } from '@tanstack/react-query';
import { listClasses, listStudents } from '#shared/contract/students';
import { STUDENT_LIST_LIMITS } from '#shared/students';
import { call } from '../../lib/api.ts';
import { pagedListOptions } from '../../lib/paged-list.ts';

export type StudentFilters = { classId: string; search: string };

/** The students feature's queries; adding a student invalidates `all`. */
export const studentQueries = {
  all: ['students'] as const,
  /** Every class of the school: the filters' choices and the add form's suggestions. */
  classes: () =>
    queryOptions({
      queryKey: [...studentQueries.all, 'classes'],
      queryFn: async ({ signal }) => (await call(listClasses, {}, { signal })).data,
    }),
  /** The school's students matching the filters, page by page (filtered, sorted and paged by the server). */
  list: (filters: StudentFilters) =>
    pagedListOptions([...studentQueries.all, 'list', filters], listStudents, {
      ...filters,
      limit: STUDENT_LIST_LIMITS.pageSizeDefault,
    }),
};

/** The classes (a failure is the cache's toast). */
export const useClasses = () => useQuery(studentQueries.classes());
