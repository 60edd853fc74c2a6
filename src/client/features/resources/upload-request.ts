import { t } from '@lingui/core/macro';
import { FALLBACK_UPLOAD_SUBJECT, RESOURCE_LIMITS } from '#shared/resources';
import { ApiError, type FailureCode } from '../../lib/api.ts';
import { formatStorageAmount } from '../../lib/file-sizes.ts';

export { checkUploadFile, formatUploadSize, sendMultipart, uploadPercent } from '../../lib/multipart-upload.ts';

/** What the Upload Resource form holds when it is sent. */
export type UploadFormValues = {
  file: File;
  classId: string;
  subject: string;
  description: string;
  tags: string;
};

/** SPEC §5: the form's subject, else the teacher's subject, else 'info'. */
export function resolveUploadSubject(formSubject: string, teacherSubject: string | undefined): string {
  return formSubject.trim() || teacherSubject?.trim() || FALLBACK_UPLOAD_SUBJECT;
}

/**
 * The multipart body of POST /api/teacher/upload-resource (SPEC §5, §7). The
 * text fields come first and the file last, so the server knows them before
 * the bytes arrive; description and tags are sent only when filled.
 */
export function buildUploadFormData(values: UploadFormValues, teacherSubject: string | undefined): FormData {
  const body = new FormData();
  body.append('classId', values.classId);
  body.append('subject', resolveUploadSubject(values.subject, teacherSubject));
  body.append('fileName', values.file.name);
  const description = values.description.trim();
  if (description) body.append('description', description);
  const tags = values.tags.trim();
  if (tags) body.append('tags', tags);
  body.append('file', values.file, values.file.name);
  return body;
}

/** A teacher's storage space as the server reported it. */
export type StorageUsage = { quotaBytes: number; usedBytes: number; leftBytes: number };

/** The storage space in an upload-limits answer, or undefined while loading or when unusable (an older server). */
export function usableStorageUsage(limits: unknown): StorageUsage | undefined {
  if (!limits || typeof limits !== 'object') return undefined;
  const { storageQuotaBytes, storageUsedBytes, storageLeftBytes } = limits as Record<string, unknown>;
  const isBytes = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;
  if (!isBytes(storageQuotaBytes) || !isBytes(storageUsedBytes) || !isBytes(storageLeftBytes)) return undefined;
  if (storageQuotaBytes === 0) return undefined;
  return { quotaBytes: storageQuotaBytes, usedBytes: storageUsedBytes, leftBytes: storageLeftBytes };
}

/** "1.2 GB of 5 GB used" */
export function describeStorageUsage(usage: StorageUsage): string {
  const used = formatStorageAmount(usage.usedBytes);
  const quota = formatStorageAmount(usage.quotaBytes);
  return t`${used} of ${quota} used`;
}

/** The server's upload limit when it is a usable number of bytes, else the default (while loading, on failure). */
export function usableUploadLimit(uploadMaxBytes: unknown): number {
  return typeof uploadMaxBytes === 'number' && Number.isSafeInteger(uploadMaxBytes) && uploadMaxBytes > 0
    ? uploadMaxBytes
    : RESOURCE_LIMITS.uploadMaxBytesDefault;
}

/** Refusals of the file itself (too large, no space left, a type not allowed). */
const FILE_REFUSALS: readonly FailureCode[] = [
  'PAYLOAD_TOO_LARGE',
  'STORAGE_QUOTA_EXCEEDED',
  'FILE_TYPE_NOT_ALLOWED',
  'UNSUPPORTED_MEDIA_TYPE',
];

/** The server refused the file itself: its message belongs under the file field. */
export function fileRefusal(error: unknown): string | null {
  return error instanceof ApiError && FILE_REFUSALS.includes(error.code) ? error.message : null;
}
