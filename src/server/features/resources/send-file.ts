import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../errors.ts';
import { FileNotFoundError, type ByteRange, type FileStorage } from '../../storage/file-storage.ts';
import { contentDisposition, isInlineType } from './content-type.ts';

const PDF_POLICY = "default-src 'none'; object-src 'self'; frame-ancestors 'self'";

/**
 * Serves a stored file with headers that keep it from acting in our origin: the
 * type we detected (never sniffed again), inline only for types browsers merely
 * display, a sandboxing CSP, and single byte ranges for video seeking.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  file: { storageKey: string; fileName: string; mimeType: string; sizeBytes: number },
) {
  const isInline = isInlineType(file.mimeType);
  const isPdf = file.mimeType === 'application/pdf';
  if (isPdf) reply.header('x-frame-options', 'SAMEORIGIN');
  const range = parseRange(request.headers.range, file.sizeBytes);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${file.sizeBytes}`).send({
      success: false,
      code: 'RANGE_NOT_SATISFIABLE',
      message: 'The requested range is outside the file',
      data: null,
    });
  }
  let body;
  try {
    body = await storage.read(file.storageKey, range);
  } catch (error) {
    if (error instanceof FileNotFoundError) throw new AppError('NOT_FOUND', 'This file no longer exists');
    throw error;
  }
  const isText = file.mimeType.startsWith('text/') || file.mimeType.endsWith('+xml') || file.mimeType.endsWith('/json');
  reply
    .header('content-type', isText ? `${file.mimeType}; charset=utf-8` : file.mimeType)
    .header('content-disposition', contentDisposition(isInline ? 'inline' : 'attachment', file.fileName))
    // PDFs open in the browser's viewer, which a sandbox would block; everything else gets one.
    // A PDF may be framed by our own pages (the grading view reads a hand-in in the page), by
    // nobody else; every other answer keeps the baseline's DENY.
    .header('content-security-policy', isPdf ? PDF_POLICY : "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=3600')
    .header('accept-ranges', 'bytes');
  if (range) {
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`)
      .header('content-length', range.end - range.start + 1)
      .send(body);
  }
  return reply.header('content-length', file.sizeBytes).send(body);
}

/** One `bytes=` range (what media elements send); several ranges get the whole file. */
export function parseRange(header: string | undefined, size: number): ByteRange | undefined | 'unsatisfiable' {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (size === 0) return 'unsatisfiable';
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}
