import { and, asc, count, eq, sql } from 'drizzle-orm';
import { ASSIGNMENT_LIMITS, type HandInFile, type UploadedHandInFile } from '#shared/assignments';
import type { Database } from '../../db/client.ts';
import { assignmentAttachments, handIns, handInFiles, resources, students, type HandInRow } from '../../db/schema.ts';
import { AppError, conflict, forbidden, notFound } from '../../errors.ts';
import { cleanFileName } from '../resources/content-type.ts';
import type { FileAccess } from '../resources/file-access.ts';
import type { ResourcesService, ServableFile, StoredUpload } from '../resources/service.ts';
import {
  ensureHandIn,
  refuseArchived,
  requireGradable,
  requireStudentAssignment,
  taughtClassIdsOf,
  teachesStudentOfAssignment,
  type Queryable,
  type SignAttachment,
} from './records.ts';

/**
 * A hand-in's files and the assignment's attachments by signed address (decision 061). The
 * bytes are streamed into the file storage by the resources' receiveUpload before a row exists;
 * this module then records them in one transaction, or the route removes them. A file is a
 * change of the draft: recording one bumps the hand-in's version (decision 058, "Two tabs").
 */

/** What a file address is signed over: its kind and id, so one signature never opens another kind's file. */
const handInFileSubject = (fileId: string) => `hand-in-file:${fileId}`;
const attachmentSubject = (assignmentId: string, resourceId: string) => `attachment:${assignmentId}:${resourceId}`;

/** The signers the assignment modules hand their presenters (the viewer is the token's account). */
export function assignmentFileLinks(fileAccess: FileAccess) {
  return {
    signAttachment:
      (viewerId: string): SignAttachment =>
      (assignmentId, resourceId) =>
        fileAccess.sign(attachmentSubject(assignmentId, resourceId), viewerId),
    handInFileUrl: (fileId: string, viewerId: string) =>
      `/api/hand-in-files/${fileId}?access=${encodeURIComponent(fileAccess.sign(handInFileSubject(fileId), viewerId))}`,
  };
}

const filesFull = () =>
  conflict(
    'HAND_IN_FILES_FULL',
    `A hand-in holds at most ${ASSIGNMENT_LIMITS.handInFilesMax} files: remove one before adding another`,
  );
const locked = () => conflict('HAND_IN_LOCKED', 'This work is handed in: take it back to change its files');

export function createHandInFiles(
  db: Database,
  fileAccess: FileAccess,
  /** The resources' keys and best-effort removal: one file storage, one way to name and drop its files. */
  storedFiles: Pick<ResourcesService, 'newStorageKey' | 'removeStoredFile'>,
) {
  const now = () => new Date();
  const links = assignmentFileLinks(fileAccess);

  async function filesOf(tx: Queryable, handInId: string) {
    return tx
      .select()
      .from(handInFiles)
      .where(eq(handInFiles.handInId, handInId))
      .orderBy(asc(handInFiles.createdAt), asc(handInFiles.id));
  }

  const present = (row: typeof handInFiles.$inferSelect, viewerId: string): HandInFile => ({
    _id: row.id,
    fileName: row.fileName,
    mimeType: row.mimeType,
    size: row.sizeBytes,
    createdAt: row.createdAt.toISOString(),
    url: links.handInFileUrl(row.id, viewerId),
  });

  async function fileCount(tx: Queryable, handInId: string) {
    const [row] = await tx.select({ files: count() }).from(handInFiles).where(eq(handInFiles.handInId, handInId));
    return row?.files ?? 0;
  }

  /** One conditional statement: the draft's version + 1, or nothing when it is not a draft. */
  async function bumpDraft(tx: Queryable, handIn: HandInRow): Promise<HandInRow> {
    const [bumped] = await tx
      .update(handIns)
      .set({ version: sql`${handIns.version} + 1`, updatedAt: now() })
      .where(and(eq(handIns.id, handIn.id), eq(handIns.state, 'draft')))
      .returning();
    if (!bumped) throw locked();
    return bumped;
  }

  return {
    /**
     * Before a byte is read: the student may add a file now (their assignment, not archived,
     * not handed in, room for one more). The transaction that records it checks all again.
     */
    async checkUpload(studentId: string, assignmentId: string): Promise<void> {
      const { row, handIn } = await requireStudentAssignment(db, studentId, assignmentId, { lock: false, now: now() });
      refuseArchived(row);
      if (handIn === null) return;
      if (handIn.state !== 'draft') throw locked();
      if ((await fileCount(db, handIn.id)) >= ASSIGNMENT_LIMITS.handInFilesMax) throw filesFull();
    },

    /**
     * Records a stored upload on the student's draft (made at version 0 if none): the draft's row
     * is updated first, so its row lock orders racing uploads, take-backs and hand-ins; the count
     * is then read under it. Throws (the caller removes the stored bytes) when refused.
     */
    async recordUpload(studentId: string, assignmentId: string, upload: StoredUpload): Promise<UploadedHandInFile> {
      return db.transaction(async (tx) => {
        const { row } = await requireStudentAssignment(tx, studentId, assignmentId, { lock: true, now: now() });
        refuseArchived(row);
        const handIn = await bumpDraft(tx, await ensureHandIn(tx, assignmentId, studentId));
        if ((await fileCount(tx, handIn.id)) >= ASSIGNMENT_LIMITS.handInFilesMax) throw filesFull();
        const [file] = await tx
          .insert(handInFiles)
          .values({
            handInId: handIn.id,
            storageKey: upload.storageKey,
            fileName: cleanFileName(upload.originalName, 255),
            mimeType: upload.mimeType,
            sizeBytes: upload.sizeBytes,
          })
          .returning();
        return { file: present(file!, studentId), version: handIn.version };
      });
    },

    /** Removes a file of the student's draft (its row in the transaction, its bytes after it). */
    async remove(studentId: string, assignmentId: string, fileId: string): Promise<{ version: number }> {
      const { version, storageKey } = await db.transaction(async (tx) => {
        const { row, handIn } = await requireStudentAssignment(tx, studentId, assignmentId, { lock: true, now: now() });
        refuseArchived(row);
        const [file] = handIn
          ? await tx
              .select({ storageKey: handInFiles.storageKey })
              .from(handInFiles)
              .where(and(eq(handInFiles.id, fileId), eq(handInFiles.handInId, handIn.id)))
          : [];
        if (!handIn || !file) throw notFound('This file is not part of your work');
        const bumped = await bumpDraft(tx, handIn);
        await tx.delete(handInFiles).where(eq(handInFiles.id, fileId));
        return { version: bumped.version, storageKey: file.storageKey };
      });
      await storedFiles.removeStoredFile(storageKey);
      return { version };
    },

    /** The student's own files, oldest first (at most handInFilesMax: not paged). */
    async listOwn(studentId: string, assignmentId: string): Promise<HandInFile[]> {
      const { handIn } = await requireStudentAssignment(db, studentId, assignmentId, { lock: false, now: now() });
      if (!handIn) return [];
      return (await filesOf(db, handIn.id)).map((row) => present(row, studentId));
    },

    /** A student's files for a teacher of their class: none while a draft (the student's own). */
    async listForTeacher(teacherId: string, assignmentId: string, studentId: string): Promise<HandInFile[]> {
      const { handIn } = await requireGradable(db, teacherId, assignmentId, studentId, false);
      if (!handIn || handIn.state === 'draft') return [];
      return (await filesOf(db, handIn.id)).map((row) => present(row, teacherId));
    },

    /**
     * A hand-in's file for the account its address was signed for, checked again now: the
     * student who made it, or a teacher of their class once it is handed in.
     */
    async findServableFile(fileId: string, access: string): Promise<ServableFile> {
      const userId = fileAccess.verify(handInFileSubject(fileId), access);
      const [row] = await db
        .select({ file: handInFiles, handIn: handIns })
        .from(handInFiles)
        .innerJoin(handIns, eq(handIns.id, handInFiles.handInId))
        .where(eq(handInFiles.id, fileId));
      if (!row) throw notFound('This file no longer exists');
      const { file, handIn } = row;
      const mayOpen =
        handIn.studentId === userId ||
        (handIn.state !== 'draft' &&
          (await teachesStudentOfAssignment(db, userId, handIn.assignmentId, handIn.studentId, handIn)));
      if (!mayOpen) throw forbidden('This file is not shared with you any more');
      return {
        storageKey: file.storageKey,
        fileName: file.fileName,
        mimeType: file.mimeType,
        sizeBytes: file.sizeBytes,
      };
    },

    /**
     * An attachment's file for the account its address was signed for, checked again now: a
     * student who may open the assignment (any of its classes, published), or a teacher of one
     * of its classes — whatever class's library the resource belongs to (decision 061).
     */
    async findServableAttachment(assignmentId: string, resourceId: string, access: string): Promise<ServableFile> {
      const userId = fileAccess.verify(attachmentSubject(assignmentId, resourceId), access);
      const [row] = await db
        .select({
          storageKey: resources.storageKey,
          fileName: resources.fileName,
          mimeType: resources.mimeType,
          sizeBytes: resources.sizeBytes,
        })
        .from(assignmentAttachments)
        .innerJoin(resources, eq(resources.id, assignmentAttachments.resourceId))
        .where(
          and(eq(assignmentAttachments.assignmentId, assignmentId), eq(assignmentAttachments.resourceId, resourceId)),
        );
      if (!row?.storageKey) throw notFound('This file no longer exists');
      const [student] = await db.select({ id: students.id }).from(students).where(eq(students.id, userId));
      const mayOpen = student
        ? await requireStudentAssignment(db, userId, assignmentId, { lock: false, now: now() }).then(
            () => true,
            (error: unknown) => {
              if (error instanceof AppError) return false;
              throw error;
            },
          )
        : (await taughtClassIdsOf(db, userId, assignmentId)).length > 0;
      if (!mayOpen) throw forbidden('This file is not shared with you any more');
      return { storageKey: row.storageKey, fileName: row.fileName, mimeType: row.mimeType, sizeBytes: row.sizeBytes };
    },

    newStorageKey: storedFiles.newStorageKey,
    removeStoredFile: storedFiles.removeStoredFile,
  };
}

export type HandInFiles = ReturnType<typeof createHandInFiles>;
