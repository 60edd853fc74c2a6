import { and, asc, eq, sql } from 'drizzle-orm';
import type { TaskList, UpdateTasks } from '#shared/tasks';
import type { Database } from '../../db/client.ts';
import { students, tasks, teachers } from '../../db/schema.ts';
import { accountRemoved, conflict } from '../../errors.ts';
import type { AccountRef } from '../../plugins/auth.ts';

/** The owner table of each role: its row carries the list's version. */
const OWNERS = { teacher: teachers, student: students } as const;

export const STALE_LIST_MESSAGE = 'Your task list changed elsewhere; it has been reloaded';

/**
 * Task lists (SPEC §3, §7 update-task). The list is replaced as a whole, guarded
 * by a version: a write based on an old version (another tab) is refused with
 * 409 rather than silently dropping the other tab's task.
 */
export function createTasksService(db: Database) {
  return {
    async getList(owner: AccountRef): Promise<TaskList> {
      const table = OWNERS[owner.role];
      const [row] = await db.select({ version: table.tasksVersion }).from(table).where(eq(table.id, owner.id)).limit(1);
      if (!row) throw accountRemoved();
      const list = await db
        .select({ id: tasks.id, text: tasks.text, isCompleted: tasks.isCompleted })
        .from(tasks)
        .where(and(eq(tasks.ownerRole, owner.role), eq(tasks.ownerId, owner.id)))
        .orderBy(asc(tasks.position));
      return { tasks: list, version: row.version };
    },

    async replaceList(owner: AccountRef, input: UpdateTasks): Promise<TaskList> {
      const table = OWNERS[owner.role];
      return db.transaction(async (tx) => {
        // The version check and the bump are one statement: two writers cannot both pass it.
        const [bumped] = await tx
          .update(table)
          .set({ tasksVersion: sql`${table.tasksVersion} + 1` })
          .where(and(eq(table.id, owner.id), eq(table.tasksVersion, input.version)))
          .returning({ version: table.tasksVersion });
        if (!bumped) {
          const [exists] = await tx.select({ id: table.id }).from(table).where(eq(table.id, owner.id)).limit(1);
          if (!exists) throw accountRemoved();
          throw conflict('TASK_LIST_CHANGED', STALE_LIST_MESSAGE, { field: 'version', code: 'CHANGED' });
        }
        await tx.delete(tasks).where(and(eq(tasks.ownerRole, owner.role), eq(tasks.ownerId, owner.id)));
        if (input.tasks.length > 0) {
          await tx.insert(tasks).values(
            input.tasks.map((task, position) => ({
              ownerRole: owner.role,
              ownerId: owner.id,
              id: task.id,
              text: task.text,
              isCompleted: task.isCompleted,
              position,
            })),
          );
        }
        return { tasks: input.tasks, version: bumped.version };
      });
    },
  };
}

export type TasksService = ReturnType<typeof createTasksService>;
