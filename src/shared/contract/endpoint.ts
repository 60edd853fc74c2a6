import type { z } from 'zod/mini';
import type { ErrorCode } from '../error-codes.ts';

/**
 * One typed description per /api endpoint (decision 026): method, path, inputs and the data
 * of its answer as zod, and the failure codes of its own. The server registers its route from
 * it (src/server/endpoint-route.ts, with the route's policy beside it); the client calls it by
 * this object (`call(endpoint, input)` in src/client/lib/api.ts); the OpenAPI document at
 * /api/openapi.json is generated from it; the test app checks every answer against it.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A multipart/form-data body: its text fields as a schema, its files described; read by the route itself. */
export type MultipartBody = {
  form: 'multipart';
  /** The text fields, as the route checks them once the file has been stored. */
  fields: z.ZodMiniType;
  files: readonly { name: string; description: string }[];
};

/** An answer that is not the JSON envelope: a file or page of the given type, or a bare JSON object per status. */
export type FileAnswer = { form: 'file'; mediaType: string; description: string };
export type BareJsonAnswer = { form: 'bare-json'; statuses: Readonly<Record<number, z.ZodMiniType>> };
/**
 * A WebSocket upgrade: the messages each side sends, and the close codes that end it. The
 * upgrade itself is always accepted; refusals are close codes (decision 013).
 */
export type WebSocketAnswer = {
  form: 'websocket';
  clientMessages: z.ZodMiniType;
  serverMessages: z.ZodMiniType;
  closeCodes: Readonly<Record<string, number>>;
};

export type EndpointSpec = {
  method: HttpMethod;
  /** Fastify's syntax: `/api/quiz/:id`. */
  path: `/api/${string}`;
  /** One line for the reference page. */
  summary: string;
  description?: string;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType | MultipartBody;
  /** The `data` of the success envelope, or another form of answer. */
  response: z.ZodMiniType | FileAnswer | BareJsonAnswer | WebSocketAnswer;
  /** The success status (200 when omitted). */
  status?: 200 | 201 | 202;
  /** `data` is one page of a list, and the envelope carries `page` (offset, limit, hasMore). */
  paged?: true;
  /**
   * Codes of this endpoint's own rules. Those the server adds from the route (validation, the
   * token check its policy puts first, sizes, a fault, and THROTTLED / SERVER_BUSY where a
   * throttle sits or the body may be large: failureCodesOf in src/server) are not repeated here.
   */
  errors?: readonly ErrorCode[];
};

/** Gives an endpoint its precise type (literal path, its own schemas). */
export const defineEndpoint = <const E extends EndpointSpec>(endpoint: E): E => endpoint;

/** An endpoint that answers the JSON envelope: what `call()` can call. */
export type EnvelopeEndpoint = EndpointSpec & { response: z.ZodMiniType; body?: z.ZodMiniType };

/** An endpoint that takes a multipart form and answers the envelope: what an upload sends. */
export type MultipartEndpoint = EndpointSpec & { response: z.ZodMiniType; body: MultipartBody };

type InputOf<S> = S extends z.ZodMiniType ? z.input<S> : never;
type OutputOf<S> = S extends z.ZodMiniType ? z.output<S> : unknown;

/** What a caller gives: the path's params, the query and the body, each when the endpoint has one. */
export type EndpointInput<E extends EndpointSpec> = (E['params'] extends z.ZodMiniType
  ? { params: InputOf<E['params']> }
  : { params?: never }) &
  (E['query'] extends z.ZodMiniType ? { query?: InputOf<E['query']> } : { query?: never }) &
  (E['body'] extends z.ZodMiniType
    ? undefined extends InputOf<E['body']>
      ? { body?: InputOf<E['body']> }
      : { body: InputOf<E['body']> }
    : { body?: never });

/** The `data` of the endpoint's success envelope. */
export type EndpointData<E extends EndpointSpec> = E['response'] extends z.ZodMiniType
  ? z.output<E['response']>
  : never;

/** What the route's handler reads once its inputs passed their schemas. */
export type EndpointRequestParts<E extends EndpointSpec> = {
  params: OutputOf<E['params']>;
  query: OutputOf<E['query']>;
  body: E['body'] extends z.ZodMiniType ? z.output<E['body']> : unknown;
};

/** `/api/quiz/:id` with `{ id }` filled in (each value URL-encoded). */
export function pathOf(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, (_match, name: string) => {
    const value = params?.[name];
    if (typeof value !== 'string' && typeof value !== 'number') {
      throw new Error(`${path}: the path parameter "${name}" is missing`);
    }
    return encodeURIComponent(String(value));
  });
}
