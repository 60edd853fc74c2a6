import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import {
  deleteHandInFile,
  getAttachmentFile,
  getHandInFile,
  listHandInComments,
  listHandInFiles,
  listOwnHandInComments,
  listOwnHandInFiles,
  postHandInComment,
  postOwnHandInComment,
  uploadHandInFile,
} from '#shared/contract/hand-in-files';
import { COMMENT_BODY_LIMIT_BYTES } from '#shared/assignments';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { AppError, badRequest, fieldProblem, invalidInput } from '../../errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import { receiveUpload, tooLarge } from '../resources/receive-upload.ts';
import { sendStoredFile } from '../resources/send-file.ts';
import type { HandInComments } from './comments.ts';
import type { HandInFiles } from './hand-in-files.ts';

/** Room for the multipart framing on top of the file itself. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

/**
 * A hand-in's files, the assignment's attachments by signed address, and the private thread
 * (decision 061). Uploads stream into the file storage as the library's do (receiveUpload:
 * checked by content, cut off at the size limit, removed when anything fails) and are recorded
 * in one transaction, or their bytes removed.
 */
export function handInFilesRoutes(options: {
  files: HandInFiles;
  comments: HandInComments;
  storage: FileStorage;
  uploadMaxBytes: number;
}): FastifyPluginAsync {
  const { files, comments, storage, uploadMaxBytes } = options;
  return async (app) => {
    await app.register(multipart, {
      limits: { fileSize: uploadMaxBytes + 1, files: 1, fields: 2, parts: 3, fieldSize: 1024, headerPairs: 20 },
    });
    const student: RouteSettings = { config: { policy: { caller: 'student', touches: ['class-assignments'] } } };
    const teacher: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['taught-assignments'] } } };

    routeEndpoint(app, uploadHandInFile, student, async (request) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data');
      const studentId = currentUser(request).id;
      // A declared size over the limit, or work that takes no file now, is refused before a byte is read.
      if (Number(request.headers['content-length']) > uploadMaxBytes + MULTIPART_OVERHEAD_BYTES)
        throw tooLarge(uploadMaxBytes);
      await files.checkUpload(studentId, request.params.id);
      const { fields, upload } = await receiveUpload(request.parts(), storage, {
        maxBytes: uploadMaxBytes,
        newKey: files.newStorageKey,
      });
      try {
        if (!upload)
          throw badRequest('Please select a file.', fieldProblem('file', 'FILE_MISSING', 'Please select a file.'));
        const parsed = uploadHandInFile.body.fields.safeParse(fields);
        if (!parsed.success) throw invalidInput(parsed.error.issues);
        return { message: 'File added', data: await files.recordUpload(studentId, request.params.id, upload) };
      } catch (error) {
        if (upload) await files.removeStoredFile(upload.storageKey);
        throw error;
      }
    });
    routeEndpoint(app, listOwnHandInFiles, student, async (request) => ({
      message: 'Files found',
      data: await files.listOwn(currentUser(request).id, request.params.id),
    }));
    routeEndpoint(app, deleteHandInFile, student, async (request) => ({
      message: 'File removed',
      data: await files.remove(currentUser(request).id, request.params.id, request.params.fileId),
    }));
    routeEndpoint(app, listHandInFiles, teacher, async (request) => ({
      message: 'Files found',
      data: await files.listForTeacher(currentUser(request).id, request.params.id, request.params.studentId),
    }));

    // No bearer header on links, <img>, <video> and <iframe>: the signed `access` value is the credential.
    routeEndpoint(
      app,
      getHandInFile,
      { config: { policy: { caller: 'file-link', touches: ['linked-hand-in-file'] } } },
      async (request, reply) =>
        sendStoredFile(
          request,
          reply,
          storage,
          await files.findServableFile(request.params.id, request.query.access ?? ''),
        ),
    );
    routeEndpoint(
      app,
      getAttachmentFile,
      { config: { policy: { caller: 'file-link', touches: ['linked-attachment'] } } },
      async (request, reply) =>
        sendStoredFile(
          request,
          reply,
          storage,
          await files.findServableAttachment(request.params.id, request.params.resourceId, request.query.access ?? ''),
        ),
    );

    const commentLimit = { bodyLimit: COMMENT_BODY_LIMIT_BYTES };
    routeEndpoint(app, listOwnHandInComments, student, async (request) => {
      const { offset, limit } = request.query;
      return {
        message: 'Comments found',
        listed: await comments.listOwn(currentUser(request).id, request.params.id, { offset, limit }),
        page: { offset, limit },
      };
    });
    routeEndpoint(app, postOwnHandInComment, { ...student, ...commentLimit }, async (request) => ({
      message: 'Comment sent',
      data: await comments.postOwn(currentUser(request).id, request.params.id, request.body),
    }));
    routeEndpoint(app, listHandInComments, teacher, async (request) => {
      const { offset, limit } = request.query;
      return {
        message: 'Comments found',
        listed: await comments.listForTeacher(currentUser(request).id, request.params.id, request.params.studentId, {
          offset,
          limit,
        }),
        page: { offset, limit },
      };
    });
    routeEndpoint(app, postHandInComment, { ...teacher, ...commentLimit }, async (request) => ({
      message: 'Comment sent',
      data: await comments.postForTeacher(
        currentUser(request).id,
        request.params.id,
        request.params.studentId,
        request.body,
      ),
    }));
  };
}
