import { z } from 'zod';
import { requiredText } from './fields.ts';

/** Task lists (SPEC §3 Task, §4 Task states, §7 update-task). */

export const TASK_LIMITS = {
  /** SPEC §9: task ids are random 9-character strings. */
  idLength: 9,
  text: 500,
  perList: 200,
} as const;

export const taskSchema = z.object({
  id: z.string({ error: 'A task needs an id' }).regex(new RegExp(`^[A-Za-z0-9_-]{${TASK_LIMITS.idLength}}$`), {
    error: `A task id is ${TASK_LIMITS.idLength} letters or digits`,
  }),
  text: requiredText('Task text', TASK_LIMITS.text),
  isCompleted: z.boolean({ error: 'isCompleted must be true or false' }),
});
export type Task = z.infer<typeof taskSchema>;

/**
 * update-task body: the whole list, replacing the caller's. teacherID /
 * studentID may be sent (SPEC §7) and are ignored: the token says whose list it
 * is. version is the list's version the client last saw; a stale one gets 409.
 */
export const updateTasksSchema = z.object({
  tasks: z
    .array(taskSchema, { error: 'tasks must be a list' })
    .max(TASK_LIMITS.perList, { error: `A list can hold at most ${TASK_LIMITS.perList} tasks` })
    .refine((tasks) => new Set(tasks.map((task) => task.id)).size === tasks.length, {
      error: 'Two tasks have the same id',
    }),
  version: z.number({ error: 'version must be a number' }).int().min(0),
});
export type UpdateTasks = z.infer<typeof updateTasksSchema>;

/** A caller's list as the server presents it. */
export type TaskList = { tasks: Task[]; version: number };
