import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import { classes, notifications, type AssignmentRow } from '../../db/schema.ts';
import { notify } from '../notifications/notify.ts';
import type { Queryable } from './records.ts';

/**
 * ASSIGNMENT_POSTED (decision 061), written in the transaction that makes the assignment visible
 * to a class. A scheduled one is written now with its publish time as created_at, and the bell
 * lists a notification only from its created_at on: no scheduler, and nothing to undo if the
 * write rolls back. One statement a class; a student in two of its classes hears it once.
 */
export async function announceAssignment(
  tx: Queryable,
  row: AssignmentRow,
  classIds: readonly string[],
  options: { now: Date; alreadyTold?: readonly string[] },
): Promise<void> {
  if (classIds.length === 0) return;
  const names = new Map(
    (
      await tx
        .select({ id: classes.id, name: classes.name })
        .from(classes)
        .where(inArray(classes.id, [...classIds]))
    ).map((entry) => [entry.id, entry.name]),
  );
  const visibleFrom = row.publishAt !== null && row.publishAt > options.now ? row.publishAt : undefined;
  const told = [...(options.alreadyTold ?? [])];
  for (const classId of classIds) {
    await notify(
      tx,
      { studentsOfClass: classId, except: told },
      'ASSIGNMENT_POSTED',
      {
        assignmentId: row.id,
        title: row.title,
        className: names.get(classId) ?? '',
        dueAt: row.dueAt?.toISOString() ?? null,
      },
      { classId, visibleFrom },
    );
    told.push(classId);
  }
}

/**
 * An edit moved the publish time of an assignment not yet visible: its waiting notifications
 * move with it (notifications_assignment_posted_idx). Those already listed stay as they are.
 */
export async function moveAnnouncement(tx: Queryable, row: AssignmentRow, now: Date): Promise<void> {
  const visibleFrom = row.publishAt !== null && row.publishAt > now ? row.publishAt : now;
  await tx
    .update(notifications)
    .set({ createdAt: visibleFrom })
    .where(
      and(
        eq(notifications.kind, 'ASSIGNMENT_POSTED'),
        sql`(${notifications.params}->>'assignmentId') = ${row.id}`,
        gt(notifications.createdAt, now),
      ),
    );
}
