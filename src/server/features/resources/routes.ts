import multipart from '@fastify/multipart';
import type { FastifyPluginAsync } from 'fastify';
import {
  addResourceLink,
  deleteResource,
  getResourceFile,
  getUploadLimits,
  listResources,
  starResource,
  updateResource,
  uploadResource,
} from '#shared/contract/resources';
import { uploadFieldsSchema } from '#shared/resources';
import { routeEndpoint, type RouteSettings } from '../../endpoint-route.ts';
import { AppError, badRequest, fieldProblem, invalidInput } from '../../errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import type { FileStorage } from '../../storage/file-storage.ts';
import type { FileAccess } from './file-access.ts';
import { receiveUpload, tooLarge } from './receive-upload.ts';
import { sendStoredFile } from './send-file.ts';
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
export function resourcesRoutes(options: ResourcesRoutesOptions): FastifyPluginAsync {
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

    routeEndpoint(
      app,
      listResources,
      { config: { policy: { caller: 'signed-in', touches: ['own-uploads', 'class-resources'] } } },
      async (request) => {
        const { offset, limit } = request.query;
        const listed = await resources.listResources(currentUser(request), request.query, request.tagVersions);
        return { message: 'Resources found', listed, page: { offset, limit } };
      },
    );

    const uploads: RouteSettings = { config: { policy: { caller: 'teacher', touches: ['own-uploads'] } } };
    // Shared into, or moved to, one of the caller's own classes (decision 031).
    const intoOwnClass: RouteSettings = {
      config: { policy: { caller: 'teacher', touches: ['own-uploads', 'own-classes'] } },
    };
    routeEndpoint(app, uploadResource, intoOwnClass, async (request) => {
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
        if (!upload)
          throw badRequest('Please select a file.', fieldProblem('file', 'FILE_MISSING', 'Please select a file.'));
        const parsed = uploadFieldsSchema.safeParse(fields);
        if (!parsed.success) throw invalidInput(parsed.error.issues);
        return {
          message: 'Resource uploaded',
          data: await resources.createUpload(currentUser(request).id, parsed.data, upload),
        };
      } catch (error) {
        if (upload) await resources.removeStoredFile(upload.storageKey);
        throw error;
      }
    });

    // The upload form checks sizes before sending (a 413 after minutes of uploading helps no one)
    // and shows the teacher's storage space ("1.2 GB of 5 GB used").
    routeEndpoint(app, getUploadLimits, uploads, async (request) => {
      const space = await resources.storageSpace(currentUser(request).id);
      return {
        message: 'Upload limits',
        data: {
          uploadMaxBytes,
          storageQuotaBytes: space.quotaBytes,
          storageUsedBytes: space.usedBytes,
          storageLeftBytes: space.leftBytes,
        },
      };
    });

    routeEndpoint(app, addResourceLink, intoOwnClass, async (request) => ({
      message: 'Video link shared',
      data: await resources.createVideoLink(currentUser(request).id, request.body),
    }));

    routeEndpoint(app, updateResource, intoOwnClass, async (request) => ({
      message: 'Resource updated',
      data: await resources.updateResource(currentUser(request).id, request.params.id, request.body),
    }));

    routeEndpoint(app, deleteResource, uploads, async (request) => {
      await resources.deleteResource(currentUser(request).id, request.params.id);
      return { message: 'Resource deleted', data: null };
    });

    // studentId in the body is ignored: the token says who is starring.
    routeEndpoint(
      app,
      starResource,
      { config: { policy: { caller: 'student', touches: ['class-resources'] } } },
      async (request) => {
        const starred = await resources.setStar(currentUser(request).id, request.params.id, request.body.action);
        return { message: request.body.action === 'star' ? 'Resource starred' : 'Resource unstarred', data: starred };
      },
    );

    // No bearer header here (links, <img>, <video>): the signed `access` value is the credential.
    routeEndpoint(
      app,
      getResourceFile,
      { config: { policy: { caller: 'file-link', touches: ['linked-file'] } } },
      async (request, reply) => {
        const userId = fileAccess.verify(request.params.id, request.query.access ?? '');
        const file = await resources.findServableFile(request.params.id, userId);
        return sendStoredFile(request, reply, storage, file);
      },
    );
  };
}
