import { fieldErrorsOf } from '#shared/api';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  resourceIdParamsSchema,
  resourceListQuerySchema,
  resourceUpdateSchema,
  starSchema,
  uploadFieldsSchema,
  videoLinkSchema,
  type UploadLimits,
} from '#shared/resources';
import { AppError, badRequest } from '../../errors.ts';
import { ok, okPage } from '../../http.ts';
import { currentUser } from '../../plugins/auth.ts';
import { FileNotFoundError, type ByteRange, type FileStorage } from '../../storage/file-storage.ts';
import { contentDisposition, isInlineType } from './content-type.ts';
import type { FileAccess } from './file-access.ts';
import { receiveUpload, tooLarge } from './receive-upload.ts';
import type { ResourcesService } from './service.ts';
import { overQuota } from './storage-quota.ts';

/** Room for the form's text fields and the multipart framing on top of the file itself. */
const MULTIPART_OVERHEAD_BYTES = 256 * 1024;
const MAX_FIELD_BYTES = 8 * 1024;

export type ResourcesRoutesOptions = {
  resources: ResourcesService;
  storage: FileStorage;
  fileAccess: FileAccess;
  uploadMaxBytes: number;
};

/** SPEC §7 get-resources, upload-resource and star; editing and deleting uploads; serving the files. */
export function resourcesRoutes(options: ResourcesRoutesOptions): FastifyPluginAsyncZod {
  const { resources, storage, fileAccess, uploadMaxBytes } = options;
  return async (app) => {
    await app.register(multipart, {
      limits: {
        // Our own counter answers 413 first; busboy's limit is the backstop.
        fileSize: uploadMaxBytes + 1,
        files: 1,
        fields: 10,
        parts: 12,
        fieldSize: MAX_FIELD_BYTES,
        headerPairs: 20,
      },
    });

    app.get(
      '/api/get-resources',
      {
        schema: { querystring: resourceListQuerySchema },
        config: { policy: { caller: 'signed-in', touches: ['own-uploads', 'class-resources'] } },
      },
      async (request, reply) => {
        const { offset, limit } = request.query;
        const listed = await resources.listResources(currentUser(request), request.query);
        return okPage(reply, 'Resources found', listed, { offset, limit });
      },
    );

    const uploads = { policy: { caller: 'teacher', touches: ['own-uploads'] } } as const;
    app.post('/api/teacher/upload-resource', { config: uploads }, async (request, reply) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data');
      // A declared size over the limit, or over the space left, is refused before a byte of it is read.
      const declaredBytes = Number(request.headers['content-length']);
      if (declaredBytes > uploadMaxBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(uploadMaxBytes);
      const space = await resources.storageSpace(currentUser(request).id);
      if (space.leftBytes === 0 || declaredBytes > space.leftBytes + MULTIPART_OVERHEAD_BYTES) throw overQuota(space);
      // Streamed uploads stop as soon as they pass the space left; createUpload has the last word.
      const isSpaceTheLimit = space.leftBytes < uploadMaxBytes;
      const { fields, upload } = await receiveUpload(request.parts(), storage, {
        maxBytes: isSpaceTheLimit ? space.leftBytes : uploadMaxBytes,
        newKey: resources.newStorageKey,
        tooLarge: isSpaceTheLimit ? () => overQuota(space) : () => tooLarge(uploadMaxBytes),
      });
      try {
        if (!upload) throw badRequest('Please select a file.', [{ field: 'file', message: 'Please select a file.' }]);
        const parsed = uploadFieldsSchema.safeParse(fields);
        if (!parsed.success) {
          const errors = fieldErrorsOf(parsed.error.issues);
          throw badRequest(`${errors[0]!.field}: ${errors[0]!.message}`, errors);
        }
        const created = await resources.createUpload(currentUser(request).id, parsed.data, upload);
        return reply.code(201).send(ok('Resource uploaded', created));
      } catch (error) {
        if (upload) await resources.removeStoredFile(upload.storageKey);
        throw error;
      }
    });

    // The upload form checks sizes before sending (a 413 after minutes of uploading helps no one)
    // and shows the teacher's storage space ("1.2 GB of 5 GB used").
    app.get('/api/teacher/upload-limits', { config: uploads }, async (request) => {
      const space = await resources.storageSpace(currentUser(request).id);
      const limits: UploadLimits = {
        uploadMaxBytes,
        storageQuotaBytes: space.quotaBytes,
        storageUsedBytes: space.usedBytes,
        storageLeftBytes: space.leftBytes,
      };
      return ok('Upload limits', limits);
    });

    app.post(
      '/api/teacher/add-resource-link',
      { schema: { body: videoLinkSchema }, config: uploads },
      async (request, reply) =>
        reply
          .code(201)
          .send(ok('Video link shared', await resources.createVideoLink(currentUser(request).id, request.body))),
    );

    app.patch(
      '/api/teacher/resources/:id',
      { schema: { params: resourceIdParamsSchema, body: resourceUpdateSchema }, config: uploads },
      async (request) =>
        ok(
          'Resource updated',
          await resources.updateResource(currentUser(request).id, request.params.id, request.body),
        ),
    );

    app.delete(
      '/api/teacher/resources/:id',
      { schema: { params: resourceIdParamsSchema }, config: uploads },
      async (request) => {
        await resources.deleteResource(currentUser(request).id, request.params.id);
        return ok('Resource deleted', null);
      },
    );

    // studentId in the body is ignored: the token says who is starring.
    app.post(
      '/api/resources/:id/star',
      {
        schema: { params: resourceIdParamsSchema, body: starSchema },
        config: { policy: { caller: 'student', touches: ['class-resources'] } },
      },
      async (request) => {
        const starred = await resources.setStar(currentUser(request).id, request.params.id, request.body.action);
        return ok(request.body.action === 'star' ? 'Resource starred' : 'Resource unstarred', starred);
      },
    );

    // No bearer header here (links, <img>, <video>): the signed `access` value is the credential.
    app.get(
      '/api/resources/:id/file',
      {
        schema: {
          params: resourceIdParamsSchema,
          // Optional, so a link without its access value is refused like a forged one: 403.
          querystring: z.object({ access: z.string({ error: 'This file link is not valid' }).max(300).optional() }),
        },
        config: { policy: { caller: 'file-link', touches: ['linked-file'] } },
      },
      async (request, reply) => {
        const userId = fileAccess.verify(request.params.id, request.query.access ?? '');
        const file = await resources.findServableFile(request.params.id, userId);
        return sendStoredFile(request, reply, storage, file);
      },
    );
  };
}

/**
 * Serves a stored file with headers that keep it from acting in our origin: the
 * type we detected (never sniffed again), inline only for types browsers merely
 * display, a sandboxing CSP, and single byte ranges for video seeking.
 */
async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  file: { storageKey: string; fileName: string; mimeType: string; sizeBytes: number },
) {
  const isInline = isInlineType(file.mimeType);
  const range = parseRange(request.headers.range, file.sizeBytes);
  if (range === 'unsatisfiable') {
    return reply
      .code(416)
      .header('content-range', `bytes */${file.sizeBytes}`)
      .send({ success: false, message: 'The requested range is outside the file', data: null });
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
    .header(
      'content-security-policy',
      file.mimeType === 'application/pdf' ? "default-src 'none'; object-src 'self'" : "default-src 'none'; sandbox",
    )
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
