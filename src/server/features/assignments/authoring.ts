import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type {
  DeletedAssignment,
  DuplicateAssignment,
  EditAssignment,
  NewAssignment,
  TeacherAssignment,
} from '#shared/assignments';
import type { Database } from '../../db/client.ts';
import {
  assignmentAttachments,
  assignmentClasses,
  assignments,
  handIns,
  resources,
  type AssignmentRow,
} from '../../db/schema.ts';
import { badRequest, conflict, fieldProblem, forbidden } from '../../errors.ts';
import { requireTaughtClass } from '../classes/records.ts';
import { refuseActiveHtml } from './active-html.ts';
import { announceAssignment, moveAnnouncement } from './announce.ts';
import {
  findAssignment,
  hasHandedInWork,
  lockOwnAssignment,
  presentForTeacher,
  requireTaughtAssignment,
  toPage,
  type ListedPage,
  type Page,
  type Queryable,
  type SignAttachment,
} from './records.ts';

/**
 * A teacher's assignments (decision 058): create for one or more of their classes, edit (what
 * handed-in work locks stays), duplicate, delete or archive; read one, list a class's. Every
 * write is one transaction; an edit and a delete lock the assignment's row for update first.
 */

/** Every class must be one the caller teaches and active (404, 403, CLASS_ARCHIVED), in the order given. */
async function requireActiveClasses(tx: Queryable, teacherId: string, classIds: readonly string[]) {
  for (const classId of classIds) await requireTaughtClass(tx, teacherId, classId, { mustBeActive: true });
}

/**
 * The attachments must be resources the caller uploaded or of one of the assignment's classes:
 * the first that is not is a 400 naming it. Replaces the assignment's list.
 */
async function writeAttachments(
  tx: Queryable,
  teacherId: string,
  assignmentId: string,
  classIds: readonly string[],
  resourceIds: readonly string[],
) {
  if (resourceIds.length > 0) {
    const usable = await tx
      .select({ id: resources.id })
      .from(resources)
      .where(
        and(
          inArray(resources.id, [...resourceIds]),
          or(eq(resources.uploadedByTeacherId, teacherId), inArray(resources.classId, [...classIds])),
        ),
      );
    const found = new Set(usable.map((row) => row.id));
    const missing = resourceIds.findIndex((id) => !found.has(id));
    if (missing >= 0) {
      const message = 'This resource is neither yours nor of the chosen classes';
      throw badRequest(
        `attachments.${missing}: ${message}`,
        fieldProblem(`attachments.${missing}`, 'ATTACHMENT_UNAVAILABLE', message),
      );
    }
  }
  await tx.delete(assignmentAttachments).where(eq(assignmentAttachments.assignmentId, assignmentId));
  if (resourceIds.length > 0)
    await tx
      .insert(assignmentAttachments)
      .values(resourceIds.map((resourceId, position) => ({ assignmentId, resourceId, position })));
}

const dateOrNull = (value: string | null) => (value === null ? null : new Date(value));

async function insertAssignment(
  tx: Queryable,
  teacherId: string,
  values: Omit<typeof assignments.$inferInsert, 'createdByTeacherId'>,
  classIds: readonly string[],
  attachments: readonly string[],
): Promise<AssignmentRow> {
  const [row] = await tx
    .insert(assignments)
    .values({ ...values, createdByTeacherId: teacherId })
    .returning();
  await tx.insert(assignmentClasses).values(classIds.map((classId) => ({ assignmentId: row!.id, classId })));
  await writeAttachments(tx, teacherId, row!.id, classIds, attachments);
  return row!;
}

export function createAssignmentAuthoring(db: Database, signAttachment: (viewerId: string) => SignAttachment) {
  const now = () => new Date();
  const presentOne = async (tx: Queryable, teacherId: string, row: AssignmentRow) =>
    (await presentForTeacher(tx, teacherId, [row], signAttachment(teacherId)))[0]!;

  return {
    /** POST /api/assignments. */
    async create(teacherId: string, input: NewAssignment): Promise<TeacherAssignment> {
      refuseActiveHtml('instructions', input.instructions);
      return db.transaction(async (tx) => {
        await requireActiveClasses(tx, teacherId, input.classIds);
        const row = await insertAssignment(
          tx,
          teacherId,
          {
            title: input.title,
            instructions: input.instructions,
            points: input.points,
            dueAt: dateOrNull(input.dueAt),
            acceptLate: input.acceptLate,
            publishAt: dateOrNull(input.publishAt),
          },
          input.classIds,
          input.attachments,
        );
        await announceAssignment(tx, row, input.classIds, { now: now() });
        return presentOne(tx, teacherId, row);
      });
    },

    /**
     * PUT /api/assignments/{id}: the whole assignment at the version it was read. Once work was
     * handed in, removing a class, the points and a publish time in the future are refused (409).
     */
    async edit(teacherId: string, id: string, input: EditAssignment): Promise<TeacherAssignment> {
      refuseActiveHtml('instructions', input.instructions);
      return db.transaction(async (tx) => {
        const current = await lockOwnAssignment(tx, teacherId, id);
        if (current.archivedAt)
          throw conflict('ASSIGNMENT_ARCHIVED', 'This assignment is archived: it can no longer be changed');
        // Read under the row lock: of two edits made on one version, the second is refused.
        if (input.version !== current.version)
          throw conflict('ASSIGNMENT_CHANGED', 'This assignment was changed elsewhere since you opened it', {
            field: 'version',
            code: 'CHANGED',
          });
        const before = (
          await tx
            .select({ classId: assignmentClasses.classId })
            .from(assignmentClasses)
            .where(eq(assignmentClasses.assignmentId, id))
        ).map((row) => row.classId);
        const removed = before.filter((classId) => !input.classIds.includes(classId));
        const added = input.classIds.filter((classId) => !before.includes(classId));
        const publishAt = dateOrNull(input.publishAt);
        if (await hasHandedInWork(tx, id)) {
          const locked = (field: string, message: string) =>
            conflict('ASSIGNMENT_HAS_HAND_INS', message, { field, code: 'NOT_ALLOWED' });
          if (removed.length > 0) throw locked('classIds', 'Work has been handed in: no class can be removed');
          if (input.points !== current.points) throw locked('points', 'Work has been handed in: the points stay');
          const publishMoved = (publishAt?.getTime() ?? null) !== (current.publishAt?.getTime() ?? null);
          if (publishMoved && publishAt !== null && publishAt > now())
            throw locked('publishAt', 'Work has been handed in: the assignment cannot be hidden again');
        }
        await requireActiveClasses(tx, teacherId, added);
        if (removed.length > 0) {
          // Only drafts can be of a removed class here (handed-in work refuses the removal above).
          await tx.delete(handIns).where(and(eq(handIns.assignmentId, id), inArray(handIns.classId, removed)));
          await tx
            .delete(assignmentClasses)
            .where(and(eq(assignmentClasses.assignmentId, id), inArray(assignmentClasses.classId, removed)));
        }
        if (added.length > 0)
          await tx.insert(assignmentClasses).values(added.map((classId) => ({ assignmentId: id, classId })));
        await writeAttachments(tx, teacherId, id, input.classIds, input.attachments);
        const [row] = await tx
          .update(assignments)
          .set({
            title: input.title,
            instructions: input.instructions,
            points: input.points,
            dueAt: dateOrNull(input.dueAt),
            acceptLate: input.acceptLate,
            publishAt,
            version: sql`${assignments.version} + 1`,
            updatedAt: now(),
          })
          .where(eq(assignments.id, id))
          .returning();
        const at = now();
        if (
          current.publishAt !== null &&
          current.publishAt > at &&
          row!.publishAt?.getTime() !== current.publishAt.getTime()
        )
          await moveAnnouncement(tx, row!, at);
        const kept = before.filter((classId) => !removed.includes(classId));
        await announceAssignment(tx, row!, added, { now: at, alreadyTold: kept });
        return presentOne(tx, teacherId, row!);
      });
    },

    /**
     * POST /api/assignments/{id}/duplicate: the same work for other classes of the caller, without
     * hand-ins. Attachments the copy's students could not open (another class's) are left out.
     */
    async duplicate(teacherId: string, id: string, input: DuplicateAssignment): Promise<TeacherAssignment> {
      return db.transaction(async (tx) => {
        const source = await findAssignment(tx, id);
        if (source.createdByTeacherId !== teacherId)
          throw forbidden('Only the teacher who created this assignment can duplicate it');
        await requireActiveClasses(tx, teacherId, input.classIds);
        const kept = await tx
          .select({ resourceId: assignmentAttachments.resourceId })
          .from(assignmentAttachments)
          .innerJoin(resources, eq(resources.id, assignmentAttachments.resourceId))
          .where(
            and(
              eq(assignmentAttachments.assignmentId, id),
              or(eq(resources.uploadedByTeacherId, teacherId), inArray(resources.classId, input.classIds)),
            ),
          )
          .orderBy(assignmentAttachments.position);
        const row = await insertAssignment(
          tx,
          teacherId,
          {
            title: input.title ?? source.title,
            instructions: source.instructions,
            points: source.points,
            dueAt: input.dueAt === undefined ? source.dueAt : dateOrNull(input.dueAt),
            acceptLate: source.acceptLate,
            publishAt: input.publishAt === undefined ? source.publishAt : dateOrNull(input.publishAt),
          },
          input.classIds,
          kept.map((attachment) => attachment.resourceId),
        );
        await announceAssignment(tx, row, input.classIds, { now: now() });
        return presentOne(tx, teacherId, row);
      });
    },

    /** DELETE /api/assignments/{id}: removed with its drafts, or archived once work was handed in. */
    async remove(teacherId: string, id: string): Promise<DeletedAssignment> {
      return db.transaction(async (tx) => {
        const row = await lockOwnAssignment(tx, teacherId, id);
        if (await hasHandedInWork(tx, id)) {
          if (!row.archivedAt) await tx.update(assignments).set({ archivedAt: now() }).where(eq(assignments.id, id));
          return { outcome: 'archived' as const };
        }
        await tx.delete(assignments).where(eq(assignments.id, id));
        return { outcome: 'deleted' as const };
      });
    },

    /** GET /api/assignments/{id}: for a teacher of one of its classes. */
    async get(teacherId: string, id: string): Promise<TeacherAssignment> {
      const { row } = await requireTaughtAssignment(db, teacherId, id);
      return presentOne(db, teacherId, row);
    },

    /** GET /api/classes/{id}/assignments: a class the caller teaches; newest first, archived left out. */
    async listForClass(teacherId: string, classId: string, page: Page): Promise<ListedPage<TeacherAssignment>> {
      await requireTaughtClass(db, teacherId, classId);
      const rows = await db
        .select({ assignment: assignments })
        .from(assignmentClasses)
        .innerJoin(assignments, eq(assignments.id, assignmentClasses.assignmentId))
        .where(and(eq(assignmentClasses.classId, classId), isNull(assignments.archivedAt)))
        .orderBy(desc(assignments.createdAt), desc(assignments.id))
        .offset(page.offset)
        .limit(page.limit + 1);
      const listed = toPage(
        rows.map((row) => row.assignment),
        page.limit,
      );
      return {
        items: await presentForTeacher(db, teacherId, listed.items, signAttachment(teacherId)),
        hasMore: listed.hasMore,
      };
    },
  };
}

export type AssignmentAuthoring = ReturnType<typeof createAssignmentAuthoring>;
