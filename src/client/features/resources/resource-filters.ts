import type { EndpointInput } from '#shared/contract/endpoint';
import type { listResources } from '#shared/contract/resources';
import { RESOURCE_LIMITS, RESOURCE_TYPES, type Resource, type ResourceType } from '#shared/resources';

/** How long typing pauses before a text filter goes to the server. */
export const FILTER_DEBOUNCE_MS = 300;

/** The two sort choices of the student's sort select (SPEC §2, §9: date newest first by default). */
export const RESOURCE_SORTS = {
  date: { label: 'Date', sortBy: 'createdAt', sortOrder: 'desc' },
  name: { label: 'Name', sortBy: 'fileName', sortOrder: 'asc' },
} as const;
export type ResourceSort = keyof typeof RESOURCE_SORTS;

export type ResourceView = 'all' | 'starred';

/** What the student's list shows; every field lives in the address. */
export type StudentResourceFilters = {
  view: ResourceView;
  search: string;
  subject: string;
  type: ResourceType | '';
  sort: ResourceSort;
};

/** What the teacher's list shows (their own uploads; the server enforces that). */
export type TeacherResourceFilters = { search: string };

const isResourceType = (value: string | null): value is ResourceType => RESOURCE_TYPES.some((type) => type === value);

/** The student's filters from the address; an unknown value means the default, never an error. */
export function readStudentFilters(params: URLSearchParams): StudentResourceFilters {
  const type = params.get('type');
  return {
    view: params.get('view') === 'starred' ? 'starred' : 'all',
    search: (params.get('search') ?? '').trim(),
    subject: (params.get('subject') ?? '').trim(),
    type: isResourceType(type) ? type : '',
    sort: params.get('sort') === 'name' ? 'name' : 'date',
  };
}

/** Defaults stay out of the address, so a plain /resources is the default list. */
const ADDRESS_DEFAULTS: Record<string, string> = { view: 'all', sort: 'date' };

/** The address's query with one filter set, or removed when empty or default. */
export function withFilter(current: URLSearchParams, name: string, value: string): URLSearchParams {
  const next = new URLSearchParams(current);
  if (value && value !== ADDRESS_DEFAULTS[name]) next.set(name, value);
  else next.delete(name);
  return next;
}

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
