import path from 'node:path';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { isBlankText } from '#shared/fields';
import {
  INLINE_MIME_TYPES,
  LEGACY_OFFICE_BY_EXTENSION,
  RESOURCE_MIME_TYPES_BY_CONTENT,
  TEXT_BY_EXTENSION,
  ZIP_FAMILY_BY_EXTENSION,
} from '#shared/file-types';
import { AppError } from '../../errors.ts';

/** How much of an upload is read before deciding its type (magic bytes, zip entries, text check). */
const SAMPLE_BYTES = 64 * 1024;

const ALLOWED_BY_CONTENT = new Set(RESOURCE_MIME_TYPES_BY_CONTENT);

export const UNSUPPORTED_TYPE_MESSAGE =
  'This type of file cannot be shared. Upload a document (PDF, Office, OpenDocument, text), an image, audio or a video.';

/** True when the bytes are UTF-8 text (a character cut at the end of the sample is fine) with no NUL. */
function isText(sample: Uint8Array): boolean {
  if (sample.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** The content type of an upload from its first bytes (and, where bytes cannot tell, its extension); undefined = refused. */
export async function detectContentType(sample: Uint8Array, fileName: string): Promise<string | undefined> {
  const extension = path.extname(fileName).toLowerCase();
  const detected = await fileTypeFromBuffer(sample);
  // XML (SVG from drawing programs starts with <?xml) is text: typed by extension below.
  if (detected && detected.mime !== 'application/xml') {
    if (detected.mime === 'application/zip' || detected.mime === 'application/x-zip-compressed') {
      // A zip downloads under its name: one called .exe or .js must not pass as a document.
      if (extension === '.zip') return 'application/zip';
      return ZIP_FAMILY_BY_EXTENSION[extension];
    }
    if (detected.mime === 'application/x-cfb') return LEGACY_OFFICE_BY_EXTENSION[extension];
    return ALLOWED_BY_CONTENT.has(detected.mime) ? detected.mime : undefined;
  }
  if (sample.length === 0) return undefined; // an empty file is nothing to share
  return isText(sample) ? (TEXT_BY_EXTENSION[extension] ?? 'text/plain') : undefined;
}

/**
 * Reads the first bytes of an upload, decides its type, and returns a stream of
 * the whole upload (those bytes first) to store. 415 when the type is refused.
 */
export async function sniffUpload(upload: Readable, fileName: string): Promise<{ mimeType: string; body: Readable }> {
  const iterator = upload[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let sampled = 0;
  let isDone = false;
  while (sampled < SAMPLE_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      isDone = true;
      break;
    }
    chunks.push(next.value);
    sampled += next.value.length;
  }
  const head = Buffer.concat(chunks);
  const mimeType = await detectContentType(head.subarray(0, SAMPLE_BYTES), fileName);
  if (!mimeType) {
    upload.destroy();
    throw new AppError('FILE_TYPE_NOT_ALLOWED', UNSUPPORTED_TYPE_MESSAGE);
  }
  async function* wholeUpload() {
    yield head;
    if (isDone) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { mimeType, body: Readable.from(wholeUpload(), { objectMode: false }) };
}

/** Inline only for types a browser shows without running anything of the file's in our origin. */
export const isInlineType = (mimeType: string) => INLINE_MIME_TYPES.includes(mimeType);

/**
 * The user's file name as data only: no folders, no control characters, bounded.
 * (Stored files are named by us; this is what is shown and offered on download.)
 */
export function cleanFileName(name: string | undefined, maxLength: number): string {
  const lastSegment = (name ?? '').split(/[\\/]/).pop() ?? '';
  const characters = [...lastSegment].filter((character) => !isUnprintable(character));
  const cleaned = characters.join('').trim().replace(/^\.+/, '').trim();
  return [...(isBlankText(cleaned) ? 'Untitled' : cleaned)].slice(0, maxLength).join('');
}

/** Control characters and lone UTF-16 surrogates (a code point iterator yields those alone). */
function isUnprintable(character: string): boolean {
  const code = character.codePointAt(0)!;
  return code < 0x20 || code === 0x7f || (code >= 0xd800 && code <= 0xdfff);
}

/** A Content-Disposition header value: an ASCII fallback plus the exact UTF-8 name (RFC 6266). */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7E]|["\\%]/g, '_');
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
