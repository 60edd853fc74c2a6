import { eq, sql } from 'drizzle-orm';
import { formatStorageSize } from '#shared/resources';
import type { Database } from '../../db/client.ts';
import { quizImages, resources, teachers } from '../../db/schema.ts';
import { accountRemoved, AppError, fieldProblem } from '../../errors.ts';

/** One teacher's storage space (STORAGE_QUOTA_BYTES): what their files take and what is left. */
export type StorageSpace = { quotaBytes: number; usedBytes: number; leftBytes: number };

export function storageSpace(quotaBytes: number, usedBytes: number): StorageSpace {
  return { quotaBytes, usedBytes, leftBytes: Math.max(0, quotaBytes - usedBytes) };
}

/**
 * 413, as for a file over UPLOAD_MAX_BYTES: the same request with a smaller file would pass,
 * so it is "too large" for this teacher now; a 507 would be a server failure and a 409 says
 * nothing about size (decision 016). Says how much is used and left, and what to do.
 */
export function overQuota(space: StorageSpace, fileBytes?: number): AppError {
  const file = fileBytes === undefined ? 'This file' : `This file (${formatStorageSize(fileBytes)})`;
  const message =
    `${file} does not fit in your storage space: ${formatStorageSize(space.usedBytes)} of ` +
    `${formatStorageSize(space.quotaBytes)} used, ${formatStorageSize(space.leftBytes)} left. ` +
    'Delete files you no longer need, or ask your administrator for more space.';
  return new AppError('STORAGE_QUOTA_EXCEEDED', message, {
    errors: fieldProblem('file', 'STORAGE_QUOTA_EXCEEDED', message, space),
  });
}

/**
 * Bytes the teacher's stored files take, on the database or in a transaction: their uploaded
 * resources (links take none) and their quiz images (decision 036).
 */
export async function usedStorageBytes(executor: Pick<Database, 'select'>, teacherId: string): Promise<number> {
  const [row] = await executor
    .select({
      used: sql<number>`coalesce((select sum(${resources.sizeBytes}) from ${resources}
          where ${resources.uploadedByTeacherId} = ${teacherId} and ${resources.kind} = 'file'), 0)
        + coalesce((select sum(${quizImages.sizeBytes}) from ${quizImages}
          where ${quizImages.uploadedByTeacherId} = ${teacherId}), 0)`.mapWith(Number),
    })
    .from(teachers)
    .where(eq(teachers.id, teacherId));
  return row?.used ?? 0;
}

/**
 * Inside an upload's transaction: locks the teacher's row, so two uploads racing each other are
 * counted one after the other (they cannot both fit in the space only one has), and refuses a
 * file that does not fit (413, overQuota). Resource files and quiz images share the space.
 */
export async function claimStorageSpace(
  tx: Pick<Database, 'select'>,
  teacherId: string,
  quotaBytes: number,
  fileBytes: number,
): Promise<void> {
  const [teacher] = await tx.select({ id: teachers.id }).from(teachers).where(eq(teachers.id, teacherId)).for('update');
  if (!teacher) throw accountRemoved();
  const space = storageSpace(quotaBytes, await usedStorageBytes(tx, teacherId));
  if (fileBytes > space.leftBytes) throw overQuota(space, fileBytes);
}
