import type { Resource } from '#shared/resources';
import type { ResourceRow } from '../../db/schema.ts';

/** One resource as read for a caller: the row, its uploader's name, and the caller's star. */
export type ResourceViewRow = Pick<
  ResourceRow,
  | 'id'
  | 'kind'
  | 'fileName'
  | 'linkUrl'
  | 'description'
  | 'tags'
  | 'classId'
  | 'subject'
  | 'mimeType'
  | 'sizeBytes'
  | 'uploadedByTeacherId'
  | 'createdAt'
> & { className: string; uploaderName: string; isStarred: boolean; starCount: number };

/**
 * SPEC §3 Resource for one caller. The storage key never leaves the server; the
 * file address is signed for this caller; starredBy tells only about the caller.
 */
export function presentResource(
  row: ResourceViewRow,
  viewerId: string,
  signFileAccess: (resourceId: string, userId: string) => string,
): Resource {
  const fileURL =
    row.kind === 'link' && row.linkUrl
      ? row.linkUrl
      : `/api/resources/${row.id}/file?access=${encodeURIComponent(signFileAccess(row.id, viewerId))}`;
  return {
    _id: row.id,
    kind: row.kind,
    fileName: row.fileName,
    fileURL,
    ...(row.description ? { description: row.description } : {}),
    tags: row.tags,
    class: row.className,
    classId: row.classId,
    subject: row.subject,
    mimeType: row.mimeType,
    size: row.sizeBytes,
    uploadedBy: { _id: row.uploadedByTeacherId, name: row.uploaderName },
    createdAt: row.createdAt.toISOString(),
    starredBy: row.isStarred ? [viewerId] : [],
    isStarred: row.isStarred,
    starCount: row.starCount,
  };
}
