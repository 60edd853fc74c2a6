import type { ApiEnvelope } from '#shared/api';
import type { EndpointData, MultipartEndpoint } from '#shared/contract/endpoint';
import { FALLBACK_UPLOAD_SUBJECT, formatSizeInKb, formatStorageSize, RESOURCE_LIMITS } from '#shared/resources';
import { answerFacts, ApiError, resultOf, unexpectedAnswer, type ApiResult, type FailureCode } from '../../lib/api.ts';
import { readSession } from '../../lib/session.ts';

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

const MEGABYTE = 1024 * 1024;
/** A size for a message: "105 MB", "1.5 MB", or in KB below a megabyte. */
export const formatUploadSize = (bytes: number) =>
  bytes >= MEGABYTE ? `${Number((bytes / MEGABYTE).toFixed(1))} MB` : formatSizeInKb(bytes);

/**
 * Why a chosen file cannot be sent, or null when it can: checked before any byte
 * leaves. `maxBytes` is the server's limit and `leftBytes` what is left of the
 * teacher's storage space (GET /api/teacher/upload-limits; unknown while loading).
 */
export function checkUploadFile(file: File | null | undefined, maxBytes: number, leftBytes?: number): string | null {
  if (!file) return 'Please select a file.';
  if (file.size === 0) return 'The selected file is empty.';
  if (file.size > maxBytes) {
    return `This file is ${formatUploadSize(file.size)}; files up to ${formatUploadSize(maxBytes)} can be uploaded.`;
  }
  if (leftBytes !== undefined && file.size > leftBytes) {
    return (
      `This file is ${formatStorageSize(file.size)}, but only ${formatStorageSize(leftBytes)} of your storage ` +
      'space is left. Delete files you no longer need to make room.'
    );
  }
  return null;
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
export const describeStorageUsage = (usage: StorageUsage) =>
  `${formatStorageSize(usage.usedBytes)} of ${formatStorageSize(usage.quotaBytes)} used`;

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

/** Whole percent sent, 0 to 100; 100 only once every byte has gone. */
export function uploadPercent(loaded: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(100, Math.max(0, Math.floor((loaded / total) * 100)));
}

type UploadOptions = {
  /** Whole percent of the body sent so far (real upload progress). */
  onProgress?(percent: number): void;
  signal?: AbortSignal;
};

/**
 * A multipart POST with real upload progress, which fetch cannot report:
 * XMLHttpRequest with the stored bearer token. Failures become the same
 * ApiError as call(); an abort rejects with an AbortError DOMException.
 */
export function sendMultipart<E extends MultipartEndpoint>(
  endpoint: E,
  body: FormData,
  options: UploadOptions = {},
): Promise<ApiResult<EndpointData<E>>> {
  type T = EndpointData<E>;
  return new Promise((resolve, reject) => {
    const aborted = () => new DOMException('The upload was cancelled.', 'AbortError');
    if (options.signal?.aborted) {
      reject(aborted());
      return;
    }
    const request = new XMLHttpRequest();
    request.open(endpoint.method, endpoint.path);
    request.setRequestHeader('accept', 'application/json');
    const session = readSession();
    if (session) request.setRequestHeader('authorization', `Bearer ${session.token}`);

    const handleAbort = () => request.abort();
    options.signal?.addEventListener('abort', handleAbort, { once: true });
    const settle = () => options.signal?.removeEventListener('abort', handleAbort);

    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(uploadPercent(event.loaded, event.total));
    };
    request.upload.onload = () => options.onProgress?.(100);
    request.onabort = () => {
      settle();
      reject(aborted());
    };
    request.onerror = () => {
      settle();
      reject(new ApiError('UNREACHABLE', { status: 0, endpoint }));
    };
    request.onload = () => {
      settle();
      const answer = answerFacts(request.status, (name) => request.getResponseHeader(name), endpoint);
      let envelope: ApiEnvelope<T> | undefined;
      try {
        envelope = JSON.parse(request.responseText) as ApiEnvelope<T>;
      } catch {
        envelope = undefined;
      }
      if (!envelope || typeof envelope !== 'object' || !('success' in envelope)) {
        reject(unexpectedAnswer(answer));
        return;
      }
      try {
        resolve(resultOf(answer, envelope, session?.token));
      } catch (error) {
        reject(error);
      }
    };
    request.send(body);
  });
}
