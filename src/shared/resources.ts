import { z } from 'zod/mini';
import { fieldCode } from './field-error-codes.ts';
import {
  blankableText,
  bodyObject,
  classIdField,
  hasForbiddenCharacters,
  isBlankText,
  optionalQueryText,
  pagingFields,
  queryFlag,
  requiredText,
} from './fields.ts';
import { FIELD_LIMITS } from './limits.ts';

export { formatSizeInKb, formatStorageSize } from './file-sizes.ts';

/**
 * Resources library contract (SPEC §2 teacher upload and student Resources, §3 Resource,
 * §4 Upload and Starring, §5 upload validation, §7 get-resources, upload-resource, star).
 */

export const RESOURCE_LIMITS = {
  /** The name shown for a resource (the uploaded file's name by default). */
  fileName: 255,
  description: 1000,
  tagCount: 20,
  tag: 40,
  search: 100,
  linkUrl: 2000,
  pageSizeDefault: 20,
  pageSizeMax: 100,
  /** UPLOAD_MAX_BYTES when the environment does not say (100 MB). */
  uploadMaxBytesDefault: 100 * 1024 * 1024,
  /** STORAGE_QUOTA_BYTES when the environment does not say (5 GB per teacher; decision 016). */
  storageQuotaBytesDefault: 5 * 1024 * 1024 * 1024,
} as const;

/**
 * GET /api/teacher/upload-limits: the largest file the server accepts (UPLOAD_MAX_BYTES)
 * and the calling teacher's storage space (STORAGE_QUOTA_BYTES): used by their files, left.
 */
export const uploadLimitsSchema = z.strictObject({
  uploadMaxBytes: z.int(),
  storageQuotaBytes: z.int(),
  storageUsedBytes: z.int(),
  storageLeftBytes: z.int(),
});
export type UploadLimits = z.infer<typeof uploadLimitsSchema>;

/** SPEC §9: the subject sent when the form's subject is empty and the teacher has none. */
export const FALLBACK_UPLOAD_SUBJECT = 'info';

/** SPEC §2 type select: documents (application/*, and text/*), images (image/*), videos (video/*). */
export const RESOURCE_TYPES = ['application', 'image', 'video'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

export const RESOURCE_SORT_FIELDS = ['createdAt', 'fileName'] as const;
export type ResourceSortField = (typeof RESOURCE_SORT_FIELDS)[number];

/**
 * GET /api/get-resources. A student always gets their own class (another class is
 * refused); a teacher gets their own uploads, optionally one class of them.
 * `fileType` is the SPEC's alternative name of `type`.
 */
export const resourceListQuerySchema = z.object({
  /** One of the caller's classes (a student asking for another is refused). */
  classId: z.optional(z.uuid()),
  subject: optionalQueryText(FIELD_LIMITS.subject),
  type: z.optional(z.enum(RESOURCE_TYPES)),
  fileType: z.optional(z.enum(RESOURCE_TYPES)),
  /** Case-insensitive plain text found in the name or the description. */
  search: optionalQueryText(RESOURCE_LIMITS.search),
  sortBy: z._default(z.enum(RESOURCE_SORT_FIELDS), 'createdAt'),
  sortOrder: z._default(z.enum(['asc', 'desc']), 'desc'),
  /** Students: only what the caller has starred (the Starred toggle). */
  starred: queryFlag,
  ...pagingFields(RESOURCE_LIMITS),
});
export type ResourceListQuery = z.infer<typeof resourceListQuerySchema>;

/** Comma-separated tags (SPEC §7) -> a clean list: trimmed, no blanks, no repeats, bounded. */
export const tagsField = z
  .pipe(
    z.string().check(
      z.maxLength(RESOURCE_LIMITS.tagCount * (RESOURCE_LIMITS.tag + 2)),
      z.refine((value) => !hasForbiddenCharacters(value), { params: fieldCode('FORBIDDEN_CHARACTERS') }),
    ),
    z.transform((value) => [
      ...new Set(
        value
          .split(',')
          .map((tag) => tag.trim())
          .filter((tag) => !isBlankText(tag)),
      ),
    ]),
  )
  .check(
    z.refine((tags) => tags.length <= RESOURCE_LIMITS.tagCount, {
      params: fieldCode('TOO_MANY', { maximum: RESOURCE_LIMITS.tagCount }),
    }),
    z.refine((tags) => tags.every((tag) => tag.length <= RESOURCE_LIMITS.tag), {
      params: fieldCode('TAG_TOO_LONG', { maximum: RESOURCE_LIMITS.tag }),
    }),
  );

/** Tags in a JSON body: the comma-separated text of the form, or a list. */
const tagsInput = z.union([
  tagsField,
  z.pipe(
    z.pipe(
      z.array(z.string()),
      z.transform((tags) => tags.join(',')),
    ),
    tagsField,
  ),
]);

/** An optional description: trimmed, bounded, clean; blank (isBlankText) means none. */
export const descriptionField = z.pipe(
  z.string().check(
    z.trim(),
    z.maxLength(RESOURCE_LIMITS.description),
    z.refine((value) => !hasForbiddenCharacters(value), { params: fieldCode('FORBIDDEN_CHARACTERS') }),
  ),
  z.transform((value) => (isBlankText(value) ? null : value)),
);

/** An optional subject: blank means "the teacher's subject, else info" (SPEC §5). */
const optionalSubject = z.pipe(
  z.optional(blankableText(FIELD_LIMITS.subject)),
  z.transform((value) => (value ? value : undefined)),
);

/**
 * The text fields of POST /api/teacher/upload-resource (multipart). `uploadedBy`
 * may be sent (SPEC §7) and is ignored: the uploader is the token's teacher.
 */
export const uploadFieldsSchema = bodyObject(
  {
    classId: classIdField(),
    subject: optionalSubject,
    /** The name to show; the uploaded file's own name when absent. */
    fileName: z.optional(z.string()),
    description: z.optional(descriptionField),
    tags: z.optional(tagsField),
  },
  ['uploadedBy'],
);
export type UploadFields = z.infer<typeof uploadFieldsSchema>;

/** Hosted-video providers a link resource may point at (played in the provider's embed frame: video-embeds.ts). */
export const VIDEO_LINK_PROVIDERS = [
  {
    name: 'YouTube',
    mimeType: 'video/x-youtube',
    hosts: ['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be'],
  },
  { name: 'Vimeo', mimeType: 'video/x-vimeo', hosts: ['vimeo.com', 'www.vimeo.com', 'player.vimeo.com'] },
  { name: 'Wistia', mimeType: 'video/x-wistia', hosts: ['wistia.com', 'fast.wistia.com', 'fast.wistia.net'] },
] as const;

/** The provider of a hosted-video link, or undefined for any other address. */
export function videoLinkProvider(address: string): (typeof VIDEO_LINK_PROVIDERS)[number] | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:') return undefined;
  const host = url.hostname.toLowerCase();
  return VIDEO_LINK_PROVIDERS.find((provider) =>
    provider.hosts.some((known) => host === known || host.endsWith(`.${known}`)),
  );
}

/** POST /api/teacher/add-resource-link: a hosted video shared as a resource. */
export const videoLinkSchema = bodyObject(
  {
    url: z.string().check(
      z.trim(),
      z.minLength(1),
      z.maxLength(RESOURCE_LIMITS.linkUrl),
      // The URL parser accepts (and encodes) control characters the link is stored with; PostgreSQL refuses a NUL.
      z.refine((value) => !hasForbiddenCharacters(value), { params: fieldCode('FORBIDDEN_CHARACTERS') }),
      z.refine((value) => videoLinkProvider(value) !== undefined, {
        params: fieldCode('VIDEO_LINK_PROVIDER', { providers: VIDEO_LINK_PROVIDERS.map((provider) => provider.name) }),
      }),
    ),
    fileName: requiredText(RESOURCE_LIMITS.fileName),
    classId: classIdField(),
    subject: optionalSubject,
    description: z.optional(descriptionField),
    tags: z.optional(tagsInput),
  },
  // As in upload-resource (SPEC §7): the token decides the uploader.
  ['uploadedBy'],
);
export type VideoLinkInput = z.infer<typeof videoLinkSchema>;

/** PATCH /api/teacher/resources/{id}: what an uploader may change afterwards. */
export const resourceUpdateSchema = z.strictObject({
  fileName: z.optional(requiredText(RESOURCE_LIMITS.fileName)),
  description: z.optional(descriptionField),
  tags: z.optional(tagsInput),
  classId: z.optional(classIdField()),
});
export type ResourceUpdate = z.infer<typeof resourceUpdateSchema>;

/** POST /api/resources/{id}/star. `studentId` may be sent (SPEC §7) and is ignored. */
export const starSchema = bodyObject({ action: z.enum(['star', 'unstar']) }, ['studentId']);

export const resourceIdParamsSchema = z.object({ id: z.uuid() });

/** GET /api/resources/{id}/file: the signed `access` value is the credential (optional: a link without it gets 403). */
export const fileAccessQuerySchema = z.object({
  access: z.optional(z.string().check(z.maxLength(300))),
});

/** SPEC §3 Resource, as presented to the caller. */
export const resourceSchema = z.strictObject({
  _id: z.string(),
  /** 'file' is an upload served by us; 'link' is a hosted video (fileURL is its address). */
  kind: z.enum(['file', 'link']),
  fileName: z.string(),
  /** Uploads: a signed address of ours, valid for the caller only, for a limited time. */
  fileURL: z.string(),
  description: z.optional(z.string()),
  tags: z.array(z.string()),
  /** The class's name (SPEC §3), and its id. */
  class: z.string(),
  classId: z.string(),
  subject: z.string(),
  mimeType: z.string(),
  /** Bytes (0 for links). */
  size: z.int(),
  uploadedBy: z.strictObject({ _id: z.string(), name: z.string() }),
  createdAt: z.iso.datetime(),
  /** SPEC §3 shape: holds the caller's own id when they starred it, nothing about other students. */
  starredBy: z.array(z.string()),
  isStarred: z.boolean(),
  starCount: z.int(),
});
export type Resource = z.infer<typeof resourceSchema>;
