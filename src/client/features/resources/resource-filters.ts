import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { EndpointInput } from '#shared/contract/endpoint';
import { listResources } from '#shared/contract/resources';
import { z } from 'zod/mini';
import { RESOURCE_LIMITS, RESOURCE_TYPES, type Resource, type ResourceType } from '#shared/resources';
import { textFilter } from '../../lib/url-filters.ts';

/** The two sort choices of the student's sort select (SPEC §2, §9: date newest first by default). */
export const RESOURCE_SORTS = {
  date: {
    label: msg({ comment: 'Sort by: the date a resource was added', message: 'Date' }),
    sortBy: 'createdAt',
    sortOrder: 'desc',
  },
  name: {
    label: msg({ comment: 'Sort by: the name of a resource', message: 'Name' }),
    sortBy: 'fileName',
    sortOrder: 'asc',
  },
} as const satisfies Record<string, { label: MessageDescriptor; sortBy: string; sortOrder: 'asc' | 'desc' }>;

/** The type select's choices (SPEC §2): documents (application/*, text/*), images, videos. */
export const RESOURCE_TYPE_LABELS: Record<ResourceType, MessageDescriptor> = {
  application: msg`Documents`,
  image: msg`Images`,
  video: msg`Videos`,
};
export type ResourceSort = keyof typeof RESOURCE_SORTS;

export type ResourceView = 'all' | 'starred';

/** What the student's list shows, every field in the address; an unknown value means the default. */
export const STUDENT_RESOURCE_FILTERS = z.object({
  view: z.catch(z.enum(['all', 'starred']), 'all'),
  search: textFilter(listResources.query.shape.search),
  subject: textFilter(listResources.query.shape.subject),
  type: z.catch(z.union([z.enum(RESOURCE_TYPES), z.literal('')]), ''),
  sort: z.catch(z.enum(['date', 'name']), 'date'),
});
export type StudentResourceFilters = z.output<typeof STUDENT_RESOURCE_FILTERS>;

/** What the teacher's list shows (their own uploads; the server enforces that). */
export const TEACHER_RESOURCE_FILTERS = z.object({ search: textFilter(listResources.query.shape.search) });
export type TeacherResourceFilters = z.output<typeof TEACHER_RESOURCE_FILTERS>;

/** The query of GET /api/get-resources but the page's offset (empty filters are left out of the address). */
export function resourceListQuery(
  filters: Partial<StudentResourceFilters> & { search: string },
  limit: number = RESOURCE_LIMITS.pageSizeDefault,
) {
  const sort = RESOURCE_SORTS[filters.sort ?? 'date'];
  return {
    sortBy: sort.sortBy,
    sortOrder: sort.sortOrder,
    search: filters.search,
    subject: filters.subject,
    type: filters.type || undefined,
    starred: filters.view === 'starred' ? ('true' as const) : undefined,
    limit,
  } satisfies EndpointInput<typeof listResources>['query'];
}

/** True for what the viewer plays: uploaded videos and hosted-video links. */
export const isVideo = (resource: Pick<Resource, 'mimeType'>) => resource.mimeType.startsWith('video/');

/** True for an uploaded image, previewed inline. */
export const isImage = (resource: Pick<Resource, 'mimeType' | 'kind'>) =>
  resource.kind === 'file' && resource.mimeType.startsWith('image/');

/** Tags as SPEC §2 shows them: comma-joined. */
export const joinTags = (tags: readonly string[]) => tags.join(', ');
