import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { z } from 'zod';
import type { EndpointData, EndpointRequestParts, EndpointSpec } from '#shared/contract/endpoint';
import { ok, okPage } from './http.ts';
import type { RoutePolicy } from './plugins/route-policy.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The shared description the route was registered from (decision 026). */
    endpoint?: EndpointSpec;
  }
}

/** What the server decides about a route, beside its shared description: who may call it, hooks, body limit. */
export type RouteSettings = Omit<RouteShorthandOptions, 'schema' | 'config'> & {
  config: { policy: RoutePolicy };
};

type PageItem<E extends EndpointSpec> = EndpointData<E> extends readonly (infer Item)[] ? Item : never;

/** What a handler answers: the message and data the envelope carries, or one page of the list. */
export type EndpointAnswer<E extends EndpointSpec> = E['response'] extends z.ZodType
  ? E['paged'] extends true
    ? {
        message: string;
        listed: { items: readonly PageItem<E>[]; hasMore: boolean };
        page: { offset: number; limit: number };
      }
    : { message: string; data: EndpointData<E> }
  : // A file, a bare JSON answer or a socket: the handler sends it itself (its reply, or nothing).
    unknown;

export type EndpointRequest<E extends EndpointSpec> = FastifyRequest & EndpointRequestParts<E>;

export type EndpointHandler<E extends EndpointSpec> = (
  request: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<EndpointAnswer<E>>;

const isSchema = (value: unknown): value is z.ZodType => typeof value === 'object' && value !== null && '_zod' in value;

/**
 * Registers the route of a shared endpoint: its method, path and input schemas come from the
 * description, the policy and the hooks from `settings`, and the envelope (with the endpoint's
 * success status, or one page of a list) is written here, so no handler can answer another shape.
 */
export function routeEndpoint<E extends EndpointSpec>(
  app: FastifyInstance,
  endpoint: E,
  settings: RouteSettings,
  handler: EndpointHandler<E>,
): void {
  const isEnvelope = isSchema(endpoint.response);
  app.route({
    method: endpoint.method,
    url: endpoint.path,
    ...settings,
    schema: {
      ...(endpoint.params && { params: endpoint.params }),
      ...(endpoint.query && { querystring: endpoint.query }),
      ...(isSchema(endpoint.body) && { body: endpoint.body }),
    },
    config: { ...settings.config, endpoint },
    handler: async (request, reply) => {
      const answer = await handler(request as EndpointRequest<E>, reply);
      if (!isEnvelope) return answer;
      if (endpoint.paged) {
        const { message, listed, page } = answer as { message: string; listed: PagedList; page: Paging };
        return okPage(reply, message, listed, page);
      }
      const { message, data } = answer as { message: string; data: unknown };
      return reply.code(endpoint.status ?? 200).send(ok(message, data));
    },
  });
}

type PagedList = { items: readonly unknown[]; hasMore: boolean };
type Paging = { offset: number; limit: number };
