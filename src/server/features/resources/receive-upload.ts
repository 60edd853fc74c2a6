import { Readable } from 'node:stream';
import type { Multipart } from '@fastify/multipart';
import { AppError, badRequest } from '../../errors.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { sniffUpload } from './content-type.ts';
import type { StoredUpload } from './service.ts';

/** The multipart field that carries the file (SPEC §7 upload-resource: `file`). */
export const FILE_FIELD = 'file';

export const tooLarge = (maxBytes: number) =>
  new AppError('PAYLOAD_TOO_LARGE', `The file is too large. The largest upload is ${formatMegabytes(maxBytes)}.`);

const formatMegabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** Passes bytes through, failing with `refusal()` (a 413) as soon as more than `maxBytes` have come. */
function withSizeLimit(body: Readable, maxBytes: number, refusal: () => AppError, onExceeded: () => void): Readable {
  async function* limited() {
    let total = 0;
    for await (const chunk of body as AsyncIterable<Buffer>) {
      total += chunk.length;
      if (total > maxBytes) {
        onExceeded();
        throw refusal();
      }
      yield chunk;
    }
  }
  return Readable.from(limited(), { objectMode: false });
}

/**
 * Reads a multipart upload: text fields into a record, the one file streamed into
 * storage under a generated key (checked by content and size on the way). If
 * anything fails, the stored bytes are removed before the error goes on, so a
 * refused, aborted or oversized upload leaves no file behind.
 */
export async function receiveUpload(
  parts: AsyncIterable<Multipart>,
  storage: FileStorage,
  options: {
    maxBytes: number;
    newKey: () => string;
    /** The 413 for a file over `maxBytes`; "too large" with the limit when omitted. */
    tooLarge?: () => AppError;
  },
): Promise<{ fields: Record<string, unknown>; upload: StoredUpload | undefined }> {
  const refusal = options.tooLarge ?? (() => tooLarge(options.maxBytes));
  const fields: Record<string, unknown> = {};
  let upload: StoredUpload | undefined;
  let keyBeingWritten: string | undefined;
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = part.value;
        continue;
      }
      // A form's empty file input sends a nameless, empty part: that is "no file".
      if (part.fieldname === FILE_FIELD && !part.filename && !upload) {
        const isEmpty = await isEmptyStream(part.file);
        if (isEmpty) continue;
        throw badRequest('The file has no name; choose it again');
      }
      if (part.fieldname !== FILE_FIELD || upload) {
        part.file.resume(); // drain it so the rest of the form can be read
        throw malformedForm(`Send one file, in the form field "${FILE_FIELD}"`);
      }
      const { mimeType, body } = await sniffUpload(part.file, part.filename);
      let isOverLimit = false;
      const storageKey = options.newKey();
      keyBeingWritten = storageKey;
      try {
        const sizeBytes = await storage.write(
          storageKey,
          withSizeLimit(body, options.maxBytes, refusal, () => (isOverLimit = true)),
          mimeType,
        );
        upload = { storageKey, sizeBytes, mimeType, originalName: part.filename };
      } catch (error) {
        // Whatever the storage made of our 413, the person should hear it.
        throw isOverLimit ? refusal() : error;
      }
    }
    return { fields, upload };
  } catch (error) {
    if (keyBeingWritten) await storage.remove(keyBeingWritten).catch(() => undefined);
    throw translateMultipartError(error, refusal);
  }
}

/** Reads a part to its end; true when it held no bytes. */
async function isEmptyStream(stream: Readable): Promise<boolean> {
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) size += chunk.length;
  return size === 0;
}

/** The form itself cannot be read as an upload form (a field, not its value, is wrong). */
const malformedForm = (message: string) => new AppError('MALFORMED_REQUEST', message);

/** busboy's complaints about a malformed body (no boundary, broken part headers, cut short). */
const MALFORMED_MULTIPART =
  /^Multipart: |Malformed part header|Unexpected end of (multipart|form)|Part terminated early/i;

/** @fastify/multipart's own errors, in words a person can act on. */
function translateMultipartError(error: unknown, tooLargeError: () => AppError): unknown {
  const code = (error as { code?: string } | null)?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLargeError();
    case 'FST_FILES_LIMIT':
      return malformedForm(`Send one file, in the form field "${FILE_FIELD}"`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return malformedForm('The form has too many fields');
    case 'FST_PROTO_VIOLATION':
      return malformedForm('The form has a field name that is not allowed');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return malformedForm('A form field is not valid JSON');
    case undefined: // not one of @fastify/multipart's errors
    default:
      if (error instanceof Error && !(error instanceof AppError) && MALFORMED_MULTIPART.test(error.message)) {
        return malformedForm('The upload is not a valid multipart form; choose the file and send it again');
      }
      return error;
  }
}
