import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import { bodyObject, requiredText } from './fields.ts';
import { JSON_BYTES_PER_CHARACTER } from './limits.ts';

/** Task lists (SPEC §3 Task, §4 Task states, §7 update-task). */

export const TASK_LIMITS = {
  /** SPEC §9: task ids are random 9-character strings. */
  idLength: 9,
  text: 500,
  perList: 200,
} as const;

/**
 * update-task sends the whole list, so the largest valid one (200 tasks of 500 characters,
 * up to 3 UTF-8 bytes each in JSON, about 310 kB) is far over the 16 kB of other JSON calls:
 * room for it, and 256 bytes of JSON around each task (decision 023).
 */
export const UPDATE_TASKS_BODY_LIMIT_BYTES = TASK_LIMITS.perList * (TASK_LIMITS.text * JSON_BYTES_PER_CHARACTER + 256);

export const taskSchema = bodyObject({
  id: z.string().check(z.regex(new RegExp(`^[A-Za-z0-9_-]{${TASK_LIMITS.idLength}}$`))),
  text: requiredText(TASK_LIMITS.text),
  isCompleted: z.boolean(),
});
export type Task = z.infer<typeof taskSchema>;

/**
 * update-task body: the whole list, replacing the caller's. teacherID /
 * studentID may be sent (SPEC §7) and are ignored: the token says whose list it
 * is. version is the list's version the client last saw; a stale one gets 409.
 */
export const updateTasksSchema = bodyObject(
  {
    tasks: z.array(taskSchema).check(
      z.maxLength(TASK_LIMITS.perList),
      z.refine((tasks) => new Set(tasks.map((task) => task.id)).size === tasks.length, {
        params: fieldCode('NOT_UNIQUE'),
      }),
    ),
    version: z.number().check(
      z.int(),
      z.gte(0),
      // The column is a 32-bit integer: a larger number can only be a forged version.
      z.lte(2_147_483_647),
    ),
  },
  ['teacherID', 'studentID'],
);
export type UpdateTasks = z.infer<typeof updateTasksSchema>;

/** A caller's list as the server presents it. */
export const taskListSchema = z.strictObject({
  tasks: z.array(z.strictObject({ id: z.string(), text: z.string(), isCompleted: z.boolean() })),
  /** What the next update-task sends back, so a change made elsewhere meanwhile is not overwritten. */
  version: z.int().check(z.gte(0)),
});
export type TaskList = z.infer<typeof taskListSchema>;

const ID_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A random 9-character task id (SPEC §3), from the platform's CSPRNG (browser or Node). */
export function newTaskId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(TASK_LIMITS.idLength));
  // 256 is not a multiple of 36: the slight bias is harmless for ids that only need to differ.
  return Array.from(bytes, (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join('');
}

/** The three things a person does to a list (SPEC §4 Task states), as pure functions. */
export const taskEdits = {
  add: (text: string) => (tasks: Task[]) => [...tasks, { id: newTaskId(), text, isCompleted: false }],
  complete: (id: string) => (tasks: Task[]) =>
    tasks.map((task) => (task.id === id ? { ...task, isCompleted: true } : task)),
  remove: (id: string) => (tasks: Task[]) => tasks.filter((task) => task.id !== id),
};
export type TaskEdit = (tasks: Task[]) => Task[];
