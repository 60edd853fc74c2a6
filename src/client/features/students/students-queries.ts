import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { listClasses, listStudents } from '#shared/contract/students';
import { STUDENT_LIST_LIMITS } from '#shared/students';
import { call } from '../../lib/api.ts';

/** TanStack Query key of everything on the students screen; adding a student invalidates it. */
export const studentsKey = ['students'] as const;

export type StudentFilters = { className: string; search: string };

/** The classes for the filter (and the add form's suggestions); a failure is a toast. */
export function useClasses() {
  return useQuery({
    queryKey: [...studentsKey, 'classes'],
    queryFn: async () => (await call(listClasses)).data,
  });
}

/** The school's students matching the filters, page by page (filtered, sorted and paged by the server). */
export function useStudentList(filters: StudentFilters) {
  const query = useInfiniteQuery({
    queryKey: [...studentsKey, 'list', filters],
    queryFn: ({ pageParam, signal }) =>
      call(
        listStudents,
        {
          query: {
            offset: pageParam,
            limit: STUDENT_LIST_LIMITS.pageSizeDefault,
            class: filters.className,
            search: filters.search,
          },
        },
        { signal },
      ),
    initialPageParam: 0,
    getNextPageParam: (last) => (last.page?.hasMore ? last.page.offset + last.page.limit : undefined),
    // While a new search loads, the previous rows stay instead of a flash of "Loading".
    placeholderData: keepPreviousData,
  });
  return { ...query, students: query.data?.pages.flatMap((page) => page.data) ?? [] };
}
