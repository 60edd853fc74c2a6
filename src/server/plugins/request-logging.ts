import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Where a request id comes in (from a proxy, or a person retrying) and goes out (to quote it). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * An incoming id is kept only when it is short and plain (UUIDs, nginx's
 * $request_id, trace ids): anything else could forge log lines or smuggle
 * markup into whatever shows the logs, so it is replaced by our own.
 */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Query parameters whose values are credentials in URLs: the meeting socket's
 * `token` (browsers cannot set headers on a WebSocket) and the signed file
 * links' `access`; the others are here so a future one is covered by its name.
 */
const SECRET_QUERY_PARAMETER = /token|access|password|secret|signature|credential|auth|key|code|session/i;

export const REDACTED = '[redacted]';

/** Our request id: the caller's X-Request-Id when it is safe, otherwise a new UUID. */
export function requestIdOf(request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER];
  return typeof incoming === 'string' && SAFE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/** The address with the values of secret query parameters replaced; everything else as it came. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const separator = pair.indexOf('=');
      const rawName = separator === -1 ? pair : pair.slice(0, separator);
      return SECRET_QUERY_PARAMETER.test(decodeName(rawName)) ? `${rawName}=${REDACTED}` : pair;
    });
  return `${url.slice(0, queryStart)}?${query.join('&')}`;
}

function decodeName(rawName: string): string {
  try {
    return decodeURIComponent(rawName.replaceAll('+', ' '));
  } catch {
    return rawName; // a malformed escape: judged as written
  }
}

/**
 * Fastify's logger: pino JSON lines with the request id on every line of a
 * request. The request serializer is Fastify's own but for the address, whose
 * secret query values are redacted. Bodies are never logged, and request
 * headers only by a plugin at trace, with the bearer header and cookies redacted.
 */
export function loggerOptions(options: { level: string; stream?: { write(line: string): void } }) {
  return {
    level: options.level,
    // Should anything log a request's headers (@fastify/multipart does at trace: busboyOptions.headers).
    redact: ['headers.authorization', 'headers.cookie', '*.headers.authorization', '*.headers.cookie'],
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    ...(options.stream ? { stream: options.stream } : {}),
  };
}

/** Every answer names its request, so a person can quote it and we can find its log lines. */
export function addRequestIdHeader(app: FastifyInstance) {
  // onSend: also for errors. (Answers given before routing call applyRequestIdHeader themselves.)
  app.addHook('onSend', async (request, reply) => applyRequestIdHeader(request, reply));
}

export function applyRequestIdHeader(request: FastifyRequest, reply: FastifyReply) {
  reply.header(REQUEST_ID_HEADER, request.id);
}

/**
 * What an unexpected error may put in the log. Drizzle's query errors carry the
 * query's parameters in their message, and those include password hashes and
 * answer keys; the driver's own message can quote a parameter too (`invalid
 * input syntax for type uuid: "…"`, a trigger's RAISE). So a failed query is
 * logged as its statement, the driver's code and message with every parameter
 * value replaced by its placeholder ($1, $2…), and the stack of where we sent
 * it. Other errors are logged whole (with their stack).
 */
export function loggableError(error: Error): Error {
  if (!('query' in error) || !('params' in error) || typeof error.query !== 'string') return error;
  const params = Array.isArray(error.params) ? (error.params as unknown[]) : [];
  const cause = error.cause as { message?: string; code?: string } | undefined;
  const message = withoutParameterValues(cause?.message ?? 'the query failed', params);
  // Only the frames: the first line of Drizzle's stack is its message, parameters and all.
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  return new FailedQuery(message, error.query, cause?.code, frames);
}

/** A failed query as logged (pino names it by its class: "FailedQuery"). */
class FailedQuery extends Error {
  constructor(
    message: string,
    readonly query: string,
    readonly code: string | undefined,
    frames: string[],
  ) {
    super(message);
    this.stack = [`FailedQuery: ${message}`, ...frames].join('\n');
  }
}

/** Shorter values cannot be a hash, token or answer key worth hiding, and would mangle ordinary words. */
const SHORTEST_HIDDEN_PARAMETER = 4;

function withoutParameterValues(text: string, params: unknown[]): string {
  let result = text;
  params.forEach((param, index) => {
    const value = typeof param === 'string' ? param : param instanceof Date ? undefined : JSON.stringify(param);
    if (value && value.length >= SHORTEST_HIDDEN_PARAMETER) result = result.replaceAll(value, () => `$${index + 1}`);
  });
  return result;
}
