import { t } from '@lingui/core/macro';
import type { ApiEnvelope } from '#shared/api';
import type { EndpointData, MultipartEndpoint } from '#shared/contract/endpoint';
import { formatStorageAmount } from './file-sizes.ts';
import { answerFacts, ApiError, resultOf, unexpectedAnswer, type ApiResult } from './api.ts';
import { readSession } from './session.ts';

/**
 * Sending a file (resources, quiz images): the checks before any byte leaves and the multipart
 * POST with real progress. Apart from the resources feature so the quiz editor does not load
 * the resources contract with it.
 */

/** A size for a message, in the reader's language: "105 MB", "1.5 MB", "512 KB". */
export const formatUploadSize = formatStorageAmount;

/**
 * Why a chosen file cannot be sent, or null when it can: checked before any byte
 * leaves. `maxBytes` is the server's limit and `leftBytes` what is left of the
 * teacher's storage space (GET /api/teacher/upload-limits; unknown while loading).
 */
export function checkUploadFile(file: File | null | undefined, maxBytes: number, leftBytes?: number): string | null {
  if (!file) return t`Please select a file.`;
  if (file.size === 0) return t`The selected file is empty.`;
  if (file.size > maxBytes) {
    const size = formatUploadSize(file.size);
    const limit = formatUploadSize(maxBytes);
    return t`This file is ${size}; files up to ${limit} can be uploaded.`;
  }
  if (leftBytes !== undefined && file.size > leftBytes) {
    const size = formatStorageAmount(file.size);
    const left = formatStorageAmount(leftBytes);
    return t`This file is ${size}, but only ${left} of your storage space is left. Delete files you no longer need to make room.`;
  }
  return null;
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
  /** The endpoint's path with its parameters filled in (urlOf), when it has any. */
  url?: string;
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
    request.open(endpoint.method, options.url ?? endpoint.path);
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
