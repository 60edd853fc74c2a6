import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery, type QueryKey } from '@tanstack/react-query';
import type { z } from 'zod/mini';
import type { EndpointData, EnvelopeEndpoint } from '#shared/contract/endpoint';
import { call, type ApiResult, type CallOptions } from './api.ts';

/** An endpoint that answers one page of a list (`paged: true`): its envelope says where the next starts. */
export type PagedEndpoint = EnvelopeEndpoint & { paged: true; query: z.ZodMiniType; response: z.ZodMiniArray };

type ItemOf<E extends PagedEndpoint> = EndpointData<E>[number];

/** What a list asks for besides the offset: its filters and page size. */
export type PageInput<E extends PagedEndpoint> = Omit<z.input<E['query']>, 'offset'>;

/** One page as the cache holds it: the items (mapped for the screen) and the envelope's page. */
export type ListPage<T> = ApiResult<T[]>;

const callPage = call as (
  endpoint: PagedEndpoint,
  input: { query: object; params?: object | undefined },
  options: CallOptions,
) => Promise<ApiResult<unknown[]>>;

/**
 * The options of a server-paged list under `queryKey`: page after page of `endpoint` for
 * `query`, the next offset from the envelope's page (offset + limit while hasMore), the
 * previous items kept while new filters load. `toItems` turns a page's data into what the
 * screen shows; `params` fills the path of an endpoint that has some (a class's list).
 */
export function pagedListOptions<E extends PagedEndpoint, T = ItemOf<E>>(
  queryKey: QueryKey,
  endpoint: E,
  query: PageInput<E>,
  toItems: (data: ItemOf<E>[]) => T[] = (data) => data as T[],
  params?: Record<string, string>,
) {
  return infiniteQueryOptions({
    queryKey,
    queryFn: async ({ pageParam, signal }): Promise<ListPage<T>> => {
      const answer = await callPage(endpoint, { query: { ...query, offset: pageParam }, params }, { signal });
      return { ...answer, data: toItems(answer.data) };
    },
    initialPageParam: 0,
    getNextPageParam: ({ page }) => (page?.hasMore ? page.offset + page.limit : undefined),
    // While new filters load, the previous items stay instead of a flash of "Loading".
    placeholderData: keepPreviousData,
  });
}

/** A paged list on screen: the infinite query, and its pages' items in order. */
export function usePagedList<T>(options: ReturnType<typeof pagedListOptions<PagedEndpoint, T>>) {
  const query = useInfiniteQuery(options);
  return { ...query, items: query.data?.pages.flatMap((page) => page.data) ?? [] };
}

export type PagedList<T> = ReturnType<typeof usePagedList<T>>;
