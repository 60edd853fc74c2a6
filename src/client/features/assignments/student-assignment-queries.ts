import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { getStudentAssignment, listStudentAssignments } from '#shared/contract/assignments';
import { ASSIGNMENT_LIMITS, type StudentAssignment, type StudentAssignmentGroup } from '#shared/assignments';
import { call } from '../../lib/api.ts';
import { pagedListOptions } from '../../lib/paged-list.ts';

/** The student's address of one assignment, and of the four groups. */
export const STUDENT_ASSIGNMENTS_PATH = '/dashboard/student/assignments';
export const studentAssignmentPath = (id: string) => `${STUDENT_ASSIGNMENTS_PATH}/${id}`;

/**
 * The student's assignments (issue 33 point 2, decision 064): each group a list the server
 * pages and sorts; one assignment with the student's own hand-in. A hand-in, a take-back or a
 * draft save puts the answer in `detail` and invalidates `all` (the groups change).
 */
export const studentAssignmentQueries = {
  all: ['assignments', 'student'] as const,
  /** One group, a page at a time; the dashboard's summary reads the same first page. */
  group: (group: StudentAssignmentGroup) =>
    pagedListOptions([...studentAssignmentQueries.all, 'group', group], listStudentAssignments, {
      group,
      limit: ASSIGNMENT_LIMITS.pageSizeDefault,
    }),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...studentAssignmentQueries.all, 'detail', id],
      queryFn: async ({ signal }) => (await call(getStudentAssignment, { params: { id } }, { signal })).data,
      retry: false,
      // The screen says what went wrong itself.
      meta: { errorToast: false },
    }),
};

/** What the server answered for one assignment: the screen shows it, the groups are read again. */
export function storeStudentAssignment(queryClient: QueryClient, assignment: StudentAssignment) {
  queryClient.setQueryData(studentAssignmentQueries.detail(assignment._id).queryKey, assignment);
  void queryClient.invalidateQueries({
    queryKey: [...studentAssignmentQueries.all, 'group'],
  });
}
