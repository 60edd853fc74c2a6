import { t } from '@lingui/core/macro';
import { queryOptions, useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast/headless';
import { listRoster, listStudentClasses } from '#shared/contract/classes';
import { listColleagues } from '#shared/contract/school';
import type { TeacherClass } from '#shared/classes';
import { call } from '../../lib/api.ts';
import { CLASSES_KEY, myClassesQuery } from './my-classes-query.ts';

/** The classes feature's queries (decision 031); every change to a class invalidates `all`. */
/**
 * A class's form calls its name "Class" (the shared schema's word): its problems say so. A
 * function, called as the form is shown: the label is worded in the active locale (decision 054).
 */
export const classFormLabels = () => ({ name: t`Class` });

export const classQueries = {
  all: CLASSES_KEY,
  mine: myClassesQuery,
  roster: (classId: string) =>
    queryOptions({
      queryKey: [...classQueries.all, 'roster', classId],
      queryFn: async ({ signal }) => (await call(listRoster, { params: { id: classId } }, { signal })).data,
    }),
  /** The school's active teachers, names only: the co-teacher picker's choices. */
  colleagues: () =>
    queryOptions({
      queryKey: [...classQueries.all, 'colleagues'],
      queryFn: async ({ signal }) => (await call(listColleagues, {}, { signal })).data,
      staleTime: 60_000,
    }),
  /** The student's own classes. */
  ofStudent: () =>
    queryOptions({
      queryKey: [...classQueries.all, 'student'],
      queryFn: async ({ signal }) => (await call(listStudentClasses, {}, { signal })).data,
    }),
};

/** The class as the server answered a change, written into the teacher's list at once. */
export function putClass(queryClient: QueryClient, changed: TeacherClass) {
  queryClient.setQueryData(classQueries.mine().queryKey, (classes) =>
    classes?.map((entry) => (entry._id === changed._id ? changed : entry)),
  );
}

/**
 * A change to one class: the answer replaces the class in the list, then every class query is
 * read again (the student count, the roster). A refusal is the cache's toast unless `meta` says.
 * The success toast is the client's own words (`successText`), never the server's message.
 */
export function useClassMutation<T>(
  send: (input: T) => Promise<{ data: TeacherClass }>,
  successText: (input: T, changed: TeacherClass) => string,
  options: { meta?: { errorToast: false } } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    ...options,
    onSuccess: async ({ data }, input) => {
      toast.success(successText(input, data));
      putClass(queryClient, data);
      await queryClient.invalidateQueries({ queryKey: classQueries.all });
    },
  });
}
