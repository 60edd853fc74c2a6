import { and, eq, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { NotificationKind, NotificationParams } from '#shared/notifications';
import type { Database } from '../../db/client.ts';
import { classStudents, classTeachers, notifications } from '../../db/schema.ts';
import type { AccountRef } from '../../plugins/auth.ts';

/** What writes notifications: the database or the producing feature's transaction. */
export type NotificationWriter = Pick<Database, 'insert'>;

/**
 * Who receives a notification: named accounts, every student of a class (but those also in one
 * of the classes `except` names: they heard of it there) or every teacher of a class, at the
 * time of writing.
 */
export type Recipients =
  readonly AccountRef[] | { studentsOfClass: string; except?: readonly string[] } | { teachersOfClass: string };

/**
 * The class a notification is about: its recipient reads it only while they belong to (or
 * teach) that class. Implied by the class recipients. `visibleFrom`: a later time the
 * notification is listed from (its created_at; a scheduled publication, decision 061).
 */
export type NotificationContext = { classId: string | null; visibleFrom?: Date };

/**
 * Tells each recipient that something changed (decision 059). Called by the producing feature
 * inside its own transaction, so the notification exists exactly when the change committed. One
 * statement however many recipients: a class's students or teachers through INSERT … SELECT (no
 * round trip per person, none to read the roster first), named accounts as one multi-row insert.
 */
export async function notify<Kind extends NotificationKind>(
  tx: NotificationWriter,
  recipients: Recipients,
  kind: Kind,
  params: NotificationParams<Kind>,
  context: NotificationContext = { classId: null },
): Promise<void> {
  const createdAt = context.visibleFrom ? sql`${context.visibleFrom.toISOString()}::timestamptz` : sql`now()`;
  const columns = <Recipient extends AnyPgColumn, Class extends AnyPgColumn>(
    role: 'student' | 'teacher',
    recipientId: Recipient,
    classId: Class,
  ) => ({
    id: sql`gen_random_uuid()`.as('id'),
    recipientRole: sql`${role}`.as('recipient_role'),
    recipientId,
    kind: sql`${kind}`.as('kind'),
    params: sql`${JSON.stringify(params)}::jsonb`.as('params'),
    classId,
    createdAt: createdAt.as('created_at'),
    readAt: sql`null`.as('read_at'),
  });
  if ('studentsOfClass' in recipients) {
    const except = recipients.except ?? [];
    await tx.insert(notifications).select((qb) =>
      qb
        .select(columns('student', classStudents.studentId, classStudents.classId))
        .from(classStudents)
        .where(
          and(
            eq(classStudents.classId, recipients.studentsOfClass),
            except.length === 0
              ? undefined
              : sql`not exists (select 1 from ${classStudents} other where other.student_id = ${classStudents.studentId}
                  and other.class_id in ${except})`,
          ),
        ),
    );
    return;
  }
  if ('teachersOfClass' in recipients) {
    await tx.insert(notifications).select((qb) =>
      qb
        .select(columns('teacher', classTeachers.teacherId, classTeachers.classId))
        .from(classTeachers)
        .where(eq(classTeachers.classId, recipients.teachersOfClass)),
    );
    return;
  }
  if (recipients.length === 0) return;
  await tx.insert(notifications).values(
    recipients.map((recipient) => ({
      recipientRole: recipient.role,
      recipientId: recipient.id,
      kind,
      params,
      classId: context.classId,
      ...(context.visibleFrom ? { createdAt: context.visibleFrom } : {}),
    })),
  );
}

/** One notification of a kind per recipient, each with its own params and class: one multi-row insert. */
export async function notifyEach<Kind extends NotificationKind>(
  tx: NotificationWriter,
  kind: Kind,
  entries: readonly { recipient: AccountRef; params: NotificationParams<Kind>; classId: string | null }[],
): Promise<void> {
  if (entries.length === 0) return;
  await tx.insert(notifications).values(
    entries.map((entry) => ({
      recipientRole: entry.recipient.role,
      recipientId: entry.recipient.id,
      kind,
      params: entry.params,
      classId: entry.classId,
    })),
  );
}
