import { queryOptions } from '@tanstack/react-query';
import { getSchool, listInvitations, listStaff, listUntaughtClasses } from '#shared/contract/school';
import { SCHOOL_LIMITS } from '#shared/school';
import { call } from '../../lib/api.ts';
import { pagedListOptions } from '../../lib/paged-list.ts';

/** The school feature's queries (decision 030); every change of the staff screen invalidates `all`. */
export const schoolQueries = {
  all: ['school'] as const,
  status: () =>
    queryOptions({
      queryKey: [...schoolQueries.all, 'status'],
      queryFn: async ({ signal }) => (await call(getSchool, {}, { signal })).data,
      staleTime: 60_000,
    }),
  invitations: () =>
    pagedListOptions([...schoolQueries.all, 'invitations'], listInvitations, {
      limit: SCHOOL_LIMITS.pageSizeDefault,
    }),
  staff: () => pagedListOptions([...schoolQueries.all, 'staff'], listStaff, { limit: SCHOOL_LIMITS.pageSizeDefault }),
  /** Classes no teacher teaches (decision 031), by name. */
  untaughtClasses: () =>
    pagedListOptions([...schoolQueries.all, 'untaught-classes'], listUntaughtClasses, {
      limit: SCHOOL_LIMITS.pageSizeDefault,
    }),
};
