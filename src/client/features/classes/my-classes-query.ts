import { queryOptions } from '@tanstack/react-query';
import { listMyClasses } from '#shared/contract/my-classes';
import { call } from '../../lib/api.ts';

/** The classes cache key every class query starts with: a change to a class invalidates it all. */
export const CLASSES_KEY = ['classes'] as const;

/**
 * The classes the teacher teaches, archived last (one list: a school's teacher has a handful).
 * Apart from `classQueries` so the class picker does not load the whole classes contract.
 */
export const myClassesQuery = () =>
  queryOptions({
    queryKey: [...CLASSES_KEY, 'mine'],
    queryFn: async ({ signal }) => (await call(listMyClasses, {}, { signal })).data,
  });
