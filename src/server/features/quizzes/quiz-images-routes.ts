import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import { getQuizImage, uploadQuizImage } from '#shared/contract/quiz-images';
import { QUIZ_IMAGE_LIMITS } from '#shared/quiz-images';
import { routeEndpoint } from '../../endpoint-route.ts';
import { AppError, badRequest, fieldProblem, invalidInput } from '../../errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { FileNotFoundError, type FileStorage } from '../../storage/file-storage.ts';
import { receiveUpload, tooLarge } from '../resources/receive-upload.ts';
import { overQuota } from '../resources/storage-quota.ts';
import type { QuizImagesService } from './quiz-images.ts';

/** Room for the multipart framing on top of the image itself. */
const MULTIPART_OVERHEAD_BYTES = 16 * 1024;

/** POST /api/quizzes/images (upload) and GET /api/quizzes/images/:fileKey (the signed address). */
export function quizImagesRoutes(options: {
  images: QuizImagesService;
  storage: FileStorage;
  /** UPLOAD_MAX_BYTES: an image is at most 5 MB, or this when it is lower. */
  uploadMaxBytes: number;
}): FastifyPluginAsync {
  const { images, storage } = options;
  const maxBytes = Math.min(QUIZ_IMAGE_LIMITS.maxBytes, options.uploadMaxBytes);
  return async (app) => {
    await app.register(multipart, {
      limits: { fileSize: maxBytes + 1, files: 1, fields: 2, parts: 3, fieldSize: 1024, headerPairs: 20 },
    });

    routeEndpoint(
      app,
      uploadQuizImage,
      { config: { policy: { caller: 'teacher', touches: ['own-uploads'] } } },
      async (request) => {
        if (!request.isMultipart())
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the image as multipart/form-data');
        // As resource uploads: a declared size over the limit, or the space left, is refused unread.
        const teacherId = currentUser(request).id;
        const declaredBytes = Number(request.headers['content-length']);
        if (declaredBytes > maxBytes + MULTIPART_OVERHEAD_BYTES) throw tooLarge(maxBytes);
        const space = await images.storageSpace(teacherId);
        if (space.leftBytes === 0 || declaredBytes > space.leftBytes + MULTIPART_OVERHEAD_BYTES) throw overQuota(space);
        const isSpaceTheLimit = space.leftBytes < maxBytes;
        const { fileKey, storageKey } = images.newUpload();
        const { fields, upload } = await receiveUpload(request.parts(), storage, {
          maxBytes: isSpaceTheLimit ? space.leftBytes : maxBytes,
          newKey: () => storageKey,
          tooLarge: isSpaceTheLimit ? () => overQuota(space) : () => tooLarge(maxBytes),
        });
        try {
          if (!upload)
            throw badRequest(
              'Choose an image.',
              fieldProblem('file', 'FILE_MISSING', 'Choose an image.', { kind: 'image' }),
            );
          const parsed = uploadQuizImage.body.fields.safeParse(fields);
          if (!parsed.success) throw invalidInput(parsed.error.issues);
          const created = await images.createImage(teacherId, fileKey, upload);
          return { message: 'Image uploaded', data: created };
        } catch (error) {
          if (upload) await images.removeStoredFile(upload.storageKey);
          throw error;
        }
      },
    );

    // No bearer header on <img>: the signed `access` value is the credential.
    routeEndpoint(
      app,
      getQuizImage,
      { config: { policy: { caller: 'file-link', touches: ['linked-quiz-image'] } } },
      async (request, reply) => {
        const image = await images.findServableImage(request.params.fileKey, request.query.access ?? '');
        let body;
        try {
          body = await storage.read(image.storageKey);
        } catch (error) {
          if (error instanceof FileNotFoundError) throw new AppError('NOT_FOUND', 'This image no longer exists');
          throw error;
        }
        return (
          reply
            .header('content-type', image.mimeType)
            .header('content-length', image.sizeBytes)
            .header('content-disposition', 'inline')
            .header('x-content-type-options', 'nosniff')
            .header('content-security-policy', "default-src 'none'; sandbox")
            // The address changes at most hourly (file-access.ts) and the bytes never: as resource files.
            .header('cache-control', 'private, max-age=3600')
            .send(body)
        );
      },
    );
  };
}
