import { queryOptions } from '@tanstack/react-query';
import { ASSIGNMENT_LIMITS } from '#shared/assignments';
import { getAssignment, getHandIn, listClassAssignments, listHandIns } from '#shared/contract/assignments';
import { call } from '../../lib/api.ts';
import { pagedListOptions } from '../../lib/paged-list.ts';

/** A whole class's hand-ins in one page (the endpoint's largest): the state filter then works on all of them. */
export const HAND_INS_PAGE_SIZE = 200;

/**
 * The teacher's assignment queries (decision 063). Every change to an assignment or a hand-in
 * invalidates `all`: the lists' counts (handed in, to grade) move with a grade or a return.
 */
export const assignmentQueries = {
  all: ['assignments', 'teacher'] as const,
  /** One class's assignments, newest first, paged by the server. */
  ofClass: (classId: string) =>
    pagedListOptions(
      [...assignmentQueries.all, 'class', classId],
      listClassAssignments,
      { limit: ASSIGNMENT_LIMITS.pageSizeDefault },
      undefined,
      { id: classId },
    ),
  detail: (id: string) =>
    queryOptions({
      queryKey: [...assignmentQueries.all, 'detail', id],
      queryFn: async ({ signal }) => (await call(getAssignment, { params: { id } }, { signal })).data,
    }),
  /** Every student of one class of the assignment, by name, with their hand-in's state. */
  handIns: (id: string, classId: string) =>
    pagedListOptions(
      [...assignmentQueries.all, 'hand-ins', id, classId],
      listHandIns,
      { classId, limit: HAND_INS_PAGE_SIZE },
      undefined,
      { id },
    ),
  handIn: (id: string, studentId: string) =>
    queryOptions({
      queryKey: [...assignmentQueries.all, 'hand-in', id, studentId],
      queryFn: async ({ signal }) => (await call(getHandIn, { params: { id, studentId } }, { signal })).data,
    }),
};
