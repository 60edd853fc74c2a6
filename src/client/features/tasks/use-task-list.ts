import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { UserRole } from '#shared/constants';
import { getTaskList, updateTaskList } from '#shared/contract/tasks';
import type { TaskEdit, TaskList } from '#shared/tasks';
import { ApiError, call } from '../../lib/api.ts';

/** A stale list is reloaded and the edit applied again, a few times at most. */
const MAX_CONFLICT_RETRIES = 3;

const fetchList = async () => (await call(getTaskList)).data;

/** The tasks feature's queries. */
export const taskQueries = {
  /** Keyed by owner: another account signing in on this browser never sees this list. */
  list: (role: UserRole, ownerId: string) =>
    queryOptions({ queryKey: ['tasks', role, ownerId], queryFn: fetchList, meta: { errorToast: false } }),
};

/**
 * The caller's task list. Edits are not optimistic: the list on screen is the
 * one the server confirmed, so a task is never shown as saved when it was not.
 * When another tab changed the list first (TASK_LIST_CHANGED), the fresh list is fetched and
 * the same edit applied to it. Failures are only logged (SPEC §8).
 */
export function useTaskList(role: UserRole, ownerId: string) {
  const queryClient = useQueryClient();
  const listQuery = taskQueries.list(role, ownerId);
  const tasksKey = listQuery.queryKey;
  const list = useQuery(listQuery);

  const edit = useMutation({
    mutationFn: async (change: TaskEdit) => {
      let current = queryClient.getQueryData<TaskList>(tasksKey) ?? (await fetchList());
      for (let attempt = 0; ; attempt += 1) {
        try {
          return (
            await call(updateTaskList[role], { body: { tasks: change(current.tasks), version: current.version } })
          ).data;
        } catch (error) {
          if (!(error instanceof ApiError) || error.code !== 'TASK_LIST_CHANGED' || attempt >= MAX_CONFLICT_RETRIES)
            throw error;
          current = await fetchList();
          queryClient.setQueryData(tasksKey, current);
        }
      }
    },
    onSuccess: (saved) => queryClient.setQueryData(tasksKey, saved),
    onError: (error) => console.error('Saving the task list failed:', error.message),
    meta: { errorToast: false },
  });

  return { list, edit };
}
