import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { EndpointSpec } from '#shared/contract/endpoint';
import { ERROR_CODES, type ErrorCode } from '#shared/error-codes';
import { FIELD_ERROR_CODES } from '#shared/field-error-codes';
import { throttledFieldsSchema } from '#shared/throttle';
import { failureCodesOf } from '../features/api-docs/failure-codes.ts';
import { isApiPath } from '../plugins/route-policy.ts';

/**
 * Every answer of an /api route in the tests is held to its endpoint's contract (decision 026):
 * the success envelope with `data` of the response schema (and `page` when paged) at the
 * endpoint's status, or a failure envelope whose code is one the endpoint may answer, at that
 * code's status. A presenter that drifts turns the answer into a 500 that says how, so the test
 * that made the call fails there.
 */

const pageSchema = z.strictObject({ offset: z.number().int(), limit: z.number().int(), hasMore: z.boolean() });
const fieldErrorsSchema = z.array(
  z.strictObject({
    field: z.string(),
    code: z.enum(FIELD_ERROR_CODES),
    params: z.record(z.string(), z.unknown()).optional(),
    message: z.string(),
  }),
);

/** The failure envelope with one of `codes`; a THROTTLED one names its budget and wait, no other does. */
function failureSchema(codes: readonly ErrorCode[]) {
  const envelope = {
    success: z.literal(false),
    message: z.string().min(1),
    data: z.null(),
    errors: fieldErrorsSchema.optional(),
  };
  const others = codes.filter((code) => code !== 'THROTTLED');
  const throttled = z.strictObject({ ...envelope, code: z.literal('THROTTLED'), ...throttledFieldsSchema.shape });
  const other = z.strictObject({ ...envelope, code: z.enum(others as [ErrorCode, ...ErrorCode[]]) });
  if (!codes.includes('THROTTLED')) return other;
  return others.length === 0 ? throttled : z.discriminatedUnion('code', [throttled, other]);
}

/** Framework refusals no endpoint lists (an unusual method or header), with their own status. */
const ALWAYS_POSSIBLE: readonly ErrorCode[] = ['REQUEST_REFUSED'];

const describeIssues = (error: z.core.$ZodError) =>
  error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');

/** What is wrong with an answer, or undefined when it keeps the contract. */
export function contractProblem(
  endpoint: EndpointSpec | undefined,
  request: Pick<FastifyRequest, 'routeOptions'>,
  status: number,
  body: unknown,
  /** The Retry-After header sent, which a THROTTLED body's retryAfterSeconds repeats. */
  retryAfter?: string,
): string | undefined {
  const answer = endpoint?.response;
  if (answer && 'form' in answer && answer.form === 'bare-json') {
    const schema = answer.statuses[status];
    if (schema) {
      const parsed = schema.safeParse(body);
      return parsed.success ? undefined : `the ${status} answer: ${describeIssues(parsed.error)}`;
    }
  }
  if (status >= 400) {
    const codes = endpoint
      ? [
          ...failureCodesOf(endpoint, {
            policy: request.routeOptions.config.policy,
            isThrottled: request.routeOptions.config.isThrottled,
            bodyLimit: request.routeOptions.bodyLimit,
          }),
          ...ALWAYS_POSSIBLE,
        ]
      : (Object.keys(ERROR_CODES) as ErrorCode[]);
    const parsed = failureSchema(codes).safeParse(body);
    if (!parsed.success) return `the failure envelope: ${describeIssues(parsed.error)}`;
    const fixed = ERROR_CODES[parsed.data.code].status;
    if (fixed !== '4XX' && fixed !== status) return `${parsed.data.code} is answered with ${fixed}, not ${status}`;
    const { retryAfterSeconds } = parsed.data as { retryAfterSeconds?: number };
    if (retryAfterSeconds !== undefined && String(retryAfterSeconds) !== retryAfter)
      return `retryAfterSeconds ${retryAfterSeconds}, Retry-After ${retryAfter ?? '(none)'}`;
    return undefined;
  }
  if (!answer || 'form' in answer) return undefined; // a file or a socket: not JSON to check
  const expectedStatus = endpoint.status ?? 200;
  if (status !== expectedStatus) return `success status ${status}, the endpoint says ${expectedStatus}`;
  const parsed = z
    .strictObject({
      success: z.literal(true),
      message: z.string(),
      data: answer,
      ...(endpoint.paged ? { page: pageSchema } : {}),
    })
    .safeParse(body);
  return parsed.success ? undefined : `the success envelope: ${describeIssues(parsed.error)}`;
}

function isJson(reply: FastifyReply): boolean {
  const type = reply.getHeader('content-type');
  return typeof type === 'string' && type.startsWith('application/json');
}

/** Adds the check to an app (before it is ready); failures are also printed, with the route. */
export function checkAnswersAgainstContract(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isApiPath(request.url.split('?')[0] ?? '') || request.method === 'HEAD') return payload;
    if (typeof payload !== 'string' || !isJson(reply)) return payload;
    const endpoint = request.routeOptions.config.endpoint;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      body = payload;
    }
    const retryAfter = reply.getHeader('retry-after');
    const problem = contractProblem(endpoint, request, reply.statusCode, body, retryAfter?.toString());
    if (!problem) return payload;
    const route = `${request.method} ${request.routeOptions.url ?? request.url}`;
    const message = `The answer of ${route} does not keep its contract (${problem}). It was: ${payload.slice(0, 500)}`;
    console.error(message);
    void reply.code(500);
    return JSON.stringify({ success: false, code: 'INTERNAL_ERROR', message, data: null });
  });
}
