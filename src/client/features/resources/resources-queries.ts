import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import { getUploadLimits, listResources, starResource } from '#shared/contract/resources';
import type { Resource } from '#shared/resources';
import { call } from '../../lib/api.ts';
import { pagedListOptions, type ListPage } from '../../lib/paged-list.ts';
import { resourceListQuery, type StudentResourceFilters, type TeacherResourceFilters } from './resource-filters.ts';
import { usableStorageUsage, usableUploadLimit, type StorageUsage } from './upload-request.ts';

type ResourceLists = InfiniteData<ListPage<Resource>, number>;
type ListKey = readonly ['resources', 'teacher' | 'student', string, TeacherResourceFilters | StudentResourceFilters];

/** The resources feature's queries; uploads, edits and stars update or invalidate `all`. */
export const resourceQueries = {
  all: ['resources'] as const,
  /** The teacher's own uploads (the server keeps the list to the token's teacher). */
  teacherList: (ownerId: string, filters: TeacherResourceFilters) =>
    pagedListOptions(
      ['resources', 'teacher', ownerId, filters] satisfies ListKey,
      listResources,
      resourceListQuery(filters),
    ),
  /** The student's class library with the All / Starred view and the filters. */
  studentList: (ownerId: string, filters: StudentResourceFilters) =>
    pagedListOptions(
      ['resources', 'student', ownerId, filters] satisfies ListKey,
      listResources,
      resourceListQuery(filters),
    ),
  /** The upload limits and the teacher's storage space. */
  uploadLimits: () =>
    queryOptions({
      queryKey: ['upload-limits'],
      queryFn: async ({ signal }) => (await call(getUploadLimits, {}, { signal })).data,
      // Changes with a restart, or with this teacher's uploads and deletions (which refresh it).
      staleTime: Number.POSITIVE_INFINITY,
      retry: 1,
      // While they load, or if they cannot be had: the defaults, silently (the server still checks).
      meta: { errorToast: false },
    }),
};

function mapLists(queryClient: QueryClient, change: (resources: Resource[]) => Resource[]) {
  for (const [key, lists] of queryClient.getQueriesData<ResourceLists>({ queryKey: resourceQueries.all })) {
    if (!lists) continue;
    queryClient.setQueryData<ResourceLists>(key, {
      ...lists,
      pages: lists.pages.map((page) => ({ ...page, data: change(page.data) })),
    });
  }
}

/** The returned resource replaces the one in every cached list (SPEC §4 Starring). */
export function replaceResource(queryClient: QueryClient, resource: Resource) {
  mapLists(queryClient, (resources) => resources.map((item) => (item._id === resource._id ? resource : item)));
}

/** A deleted resource leaves every cached list. */
export function removeResource(queryClient: QueryClient, id: string) {
  mapLists(queryClient, (resources) => resources.filter((item) => item._id !== id));
}

/** A new upload shows at the top of the teacher's unfiltered lists at once; the refetch settles the rest. */
export function prependResource(queryClient: QueryClient, resource: Resource) {
  for (const [key, lists] of queryClient.getQueriesData<ResourceLists>({
    queryKey: [...resourceQueries.all, 'teacher'],
  })) {
    const filters = (key as unknown as ListKey)[3];
    if (!lists || filters.search || lists.pages.length === 0) continue;
    const [first, ...rest] = lists.pages;
    if (!first || first.data.some((item) => item._id === resource._id)) continue;
    queryClient.setQueryData<ResourceLists>(key, {
      ...lists,
      pages: [{ ...first, data: [resource, ...first.data] }, ...rest],
    });
  }
}

/** After an upload or a deletion: the storage space is fetched again. */
export const refreshStorageUsage = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: resourceQueries.uploadLimits().queryKey });

/** A new upload or link: shown at once, then every list (and the space used) is fetched again. */
export async function addResourceToLists(queryClient: QueryClient, resource: Resource) {
  prependResource(queryClient, resource);
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: resourceQueries.all }),
    refreshStorageUsage(queryClient),
  ]);
}

/**
 * The largest file the server accepts (its UPLOAD_MAX_BYTES) and the teacher's storage
 * space (STORAGE_QUOTA_BYTES: used, left). While they load, or if they cannot be had, the
 * default limit and no storage figures: silently, since the server still checks.
 */
export function useUploadLimits(): { maxBytes: number; storage: StorageUsage | undefined } {
  const { data } = useQuery(resourceQueries.uploadLimits());
  return { maxBytes: usableUploadLimit(data?.uploadMaxBytes), storage: usableStorageUsage(data) };
}

/** The student's star toggle: the request says what the button showed (SPEC §4). */
export function useStarResource() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ resource }: { resource: Resource }) =>
      call(starResource, { params: { id: resource._id }, body: { action: resource.isStarred ? 'unstar' : 'star' } }),
    onSuccess: ({ data }) => {
      replaceResource(queryClient, data);
      // Other views (Starred, other filters) are fetched again when shown; the list on screen
      // keeps an unstarred item for now, so the button under the keyboard focus stays.
      void queryClient.invalidateQueries({ queryKey: resourceQueries.all, refetchType: 'none' });
    },
  });
}
