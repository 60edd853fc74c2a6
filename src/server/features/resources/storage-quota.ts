import { formatStorageSize } from '#shared/resources';
import { AppError } from '../../errors.ts';

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
  return new AppError('STORAGE_QUOTA_EXCEEDED', message, { errors: [{ field: 'file', message }] });
}
