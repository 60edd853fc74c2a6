import type { UserRole } from '../constants.ts';
import { taskListSchema, updateTasksSchema } from '../tasks.ts';
import { defineEndpoint } from './endpoint.ts';

/** Task lists (SPEC §7 update-task, decision 008). */

export const getTaskList = defineEndpoint({
  method: 'GET',
  path: '/api/tasks',
  summary: "The caller's task list and its version",
  response: taskListSchema,
});

const updateTaskListOf = <const Role extends UserRole>(role: Role) =>
  defineEndpoint({
    method: 'POST',
    path: `/api/${role}/update-task`,
    summary: `Replaces the ${role}'s whole task list, if it is still at the version sent`,
    description:
      'teacherID and studentID (SPEC §7) are accepted and ignored: the token says whose list it is. ' +
      'A stale version is refused with TASK_LIST_CHANGED; read the list again and reapply the edit.',
    body: updateTasksSchema,
    response: taskListSchema,
    errors: ['TASK_LIST_CHANGED'],
  });

/** update-task, per role. */
export const updateTaskList = { teacher: updateTaskListOf('teacher'), student: updateTaskListOf('student') };
