/**
 * The types of file the app accepts, kept once for the server's content check, the rule of what
 * opens in the browser and the quiz images (issue 30 point 11). The names are file-type's: a type
 * is decided from the file's bytes (and, where bytes cannot tell, its extension), never from its
 * name alone or the browser's claim.
 */

/** Images every browser shows: a question's or an option's image, and inline resources. */
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Images, PDF, audio and video open in the browser; every other type downloads (SPEC: safe inline types). */
export const INLINE_MIME_TYPES: readonly string[] = [
  'application/pdf',
  ...IMAGE_MIME_TYPES,
  'video/mp4',
  'video/webm',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
];

/** Zip containers whose type the bytes alone cannot tell: the extension chooses among these. */
export const ZIP_FAMILY_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.xlsx': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  '.pptx': 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  '.odt': 'application/vnd.oasis.opendocument.text',
  '.ods': 'application/vnd.oasis.opendocument.spreadsheet',
  '.odp': 'application/vnd.oasis.opendocument.presentation',
};

/** Legacy Office files (one container format for all three): typed by their extension. */
export const LEGACY_OFFICE_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.doc': 'application/msword',
  '.xls': 'application/vnd.ms-excel',
  '.ppt': 'application/vnd.ms-powerpoint',
};

/** Text has no magic bytes: valid UTF-8 without NUL, typed by its extension (plain text otherwise). */
export const TEXT_BY_EXTENSION: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.md': 'text/markdown',
  '.json': 'application/json',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
};

/** Types recognised by their magic bytes that a resource may have: the inline ones and documents. */
export const RESOURCE_MIME_TYPES_BY_CONTENT: readonly string[] = [
  ...INLINE_MIME_TYPES,
  'video/quicktime',
  ...Object.values(ZIP_FAMILY_BY_EXTENSION),
  'application/epub+zip',
];
