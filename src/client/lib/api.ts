import type { ApiEnvelope, ApiFailure, FieldError, PageInfo } from '#shared/api';
import {
  pathOf,
  type EndpointData,
  type EndpointInput,
  type EndpointSpec,
  type EnvelopeEndpoint,
} from '#shared/contract/endpoint';
import { SESSION_ENDED_CODES } from '#shared/error-codes';
import type { ThrottleLimit } from '#shared/throttle';
import { failureText, isWordedLimit, type FailureCode, type FailureFacts } from './error-messages.ts';
import { fieldErrorText } from './field-error-texts.ts';
import { readSession, reportPasswordChangeRequired, reportSessionEnded } from './session.ts';

export type { FailureCode } from './error-messages.ts';

/** A failed API call: its code, the text a person reads (from the client's table), and the field problems. */
export class ApiError extends Error {
  /** The server's own text, for logs: screens show `message`, which the client words (error-messages.ts). */
  readonly serverMessage: string | undefined;
  readonly status: number | undefined;
  readonly retryAfterSeconds: number | undefined;
  /** The budget that refused a THROTTLED request (decision 016), for code to act on. */
  readonly throttleLimit: ThrottleLimit | undefined;
  readonly fieldErrors: FieldError[];
  readonly #facts: FailureFacts;

  constructor(
    readonly code: FailureCode,
    facts: FailureFacts = {},
  ) {
    super(failureText(code, facts));
    this.name = 'ApiError';
    this.serverMessage = facts.serverMessage;
    this.status = facts.status;
    this.retryAfterSeconds = facts.retryAfterSeconds;
    this.throttleLimit = facts.throttleLimit;
    this.fieldErrors = fieldErrorsFor(code, facts.fieldErrors ?? [], this.message);
    this.#facts = facts;
  }

  /** `message` worded again in the locale active now: a form shows it after the reader switched language. */
  wording(): string {
    return failureText(this.code, this.#facts);
  }
}

/** Failures of the input itself, whose field problems the client words from their codes. */
export const isInputFailure = (code: FailureCode) => code === 'VALIDATION_FAILED' || code === 'UNKNOWN_FIELD';

/**
 * The field problems a form shows, with the client's words in `message` (decision 026, second
 * addendum): an input's own problems (VALIDATION_FAILED, UNKNOWN_FIELD) worded from their codes,
 * the words the form itself shows for the same check; a rule's refusal naming a field (an email
 * taken) shows the refusal's own client text there. The server's sentences never show.
 */
function fieldErrorsFor(code: FailureCode, problems: readonly FieldError[], message: string): FieldError[] {
  if (isInputFailure(code)) return problems.map((problem) => ({ ...problem, message: fieldErrorText(problem) }));
  return problems.map((problem) => ({ ...problem, message }));
}

export type ApiResult<T> = { message: string; data: T; page?: PageInfo | undefined };

/** Failures the same request may get past later: no connection, a proxy's page, throttling, trouble on our side. */
const PASSING_FAILURES: readonly FailureCode[] = [
  'UNREACHABLE',
  'UNEXPECTED_ANSWER',
  'REQUEST_INTERRUPTED',
  'REQUEST_REFUSED',
  'THROTTLED',
  'INTERNAL_ERROR',
  'UNAVAILABLE',
  'SERVER_BUSY',
];

export const isPassingFailure = (code: FailureCode) => PASSING_FAILURES.includes(code);

/** Whether sending the same request again may succeed (anything that is not an ApiError is a network failure). */
export const isWorthRetrying = (error: unknown) => !(error instanceof ApiError) || isPassingFailure(error.code);

/** The session the request was made with has ended (expired, signed out, account gone): log in again. */
export const hasSessionEnded = (error: unknown) =>
  error instanceof ApiError && (SESSION_ENDED_CODES as readonly FailureCode[]).includes(error.code);

/** How an answer came back: its status, its Retry-After and id, and the endpoint it answers. */
export type AnswerFacts = Pick<FailureFacts, 'status' | 'retryAfterSeconds' | 'requestId' | 'endpoint'>;

/** The facts of an answer from its status and headers (fetch's Response or an XMLHttpRequest). */
export function answerFacts(
  status: number,
  header: (name: string) => string | null,
  endpoint: EndpointSpec | undefined,
): AnswerFacts & { status: number } {
  // Retry-After may be a date too (RFC 9110); ours and most proxies send seconds.
  const retryAfter = header('retry-after');
  const seconds = Number(retryAfter ?? '');
  return {
    status,
    retryAfterSeconds: retryAfter && Number.isFinite(seconds) && seconds >= 0 ? seconds : undefined,
    requestId: header('x-request-id') ?? undefined,
    endpoint,
  };
}

/** An answer that is not our envelope (a proxy's own page); a proxy's 413 still means too large, its 429 throttled. */
export function unexpectedAnswer(answer: AnswerFacts): ApiError {
  const code = answer.status === 413 ? 'PAYLOAD_TOO_LARGE' : answer.status === 429 ? 'THROTTLED' : 'UNEXPECTED_ANSWER';
  return new ApiError(code, answer);
}

/**
 * An answer in our envelope as a result, or the ApiError a person reads. A refused session
 * (signed out elsewhere, expired) is reported, so whoever listens goes to the login. Both
 * fetch (call) and the upload's XMLHttpRequest end here.
 */
export function resultOf<T>(
  answer: AnswerFacts & { status: number },
  envelope: ApiEnvelope<T>,
  sessionToken: string | undefined,
): ApiResult<T> {
  if (answer.status < 200 || answer.status >= 300 || !envelope.success) {
    const failure = envelope as Partial<ApiFailure>;
    if (!failure.code) throw unexpectedAnswer(answer);
    const error = new ApiError(failure.code, {
      ...answer,
      ...throttledFacts(failure),
      serverMessage: failure.message,
      fieldErrors: failure.errors,
    });
    if (sessionToken && hasSessionEnded(error)) reportSessionEnded(sessionToken, error.message);
    if (sessionToken && error.code === 'PASSWORD_CHANGE_REQUIRED') reportPasswordChangeRequired(sessionToken);
    throw error;
  }
  return { message: envelope.message, data: envelope.data, page: envelope.page };
}

/**
 * What a THROTTLED body names: the budget, and its wait (the header's, which it repeats). A limit
 * this client does not know yet (a newer server) is left out: the general text says it.
 */
function throttledFacts(failure: Partial<ApiFailure>): Pick<FailureFacts, 'throttleLimit' | 'retryAfterSeconds'> {
  if (failure.code !== 'THROTTLED') return {};
  const seconds = failure.retryAfterSeconds;
  return {
    throttleLimit: isWordedLimit(failure.limit) ? failure.limit : undefined,
    ...(typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? { retryAfterSeconds: seconds } : {}),
  };
}

type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal;
  /** Lets the request outlive the page (sent as the page is hidden or closed). */
  keepalive?: boolean;
  /** The session to act for, when it must be the one that made the change (not whoever is stored now). */
  token?: string;
  /** The endpoint called, whose failures some texts name (error-messages.ts). */
  endpoint?: EndpointSpec;
};

/**
 * Browsers refuse a keepalive request once the keepalive bodies in flight pass 64 KiB; a
 * body near that size goes as an ordinary request instead, which may still make it.
 */
const KEEPALIVE_BODY_LIMIT = 48 * 1024;

/**
 * The one way the client talks to the server: attaches the stored token,
 * unwraps the envelope, and turns every failure (HTTP, success:false, network,
 * non-JSON) into an ApiError whose message is the client's text for it.
 */
async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<ApiResult<T>> {
  const headers: Record<string, string> = { accept: 'application/json' };
  const token = options.token ?? readSession()?.token;
  if (token) headers.authorization = `Bearer ${token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const keepalive = options.keepalive && new TextEncoder().encode(body ?? '').length <= KEEPALIVE_BODY_LIMIT;

  let response: Response;
  try {
    response = await fetch(path, { method: options.method ?? 'GET', headers, body, signal: options.signal, keepalive });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError('UNREACHABLE', { status: 0, endpoint: options.endpoint });
  }
  const answer = answerFacts(response.status, (name) => response.headers.get(name), options.endpoint);

  let envelope: ApiEnvelope<T> | undefined;
  try {
    envelope = (await response.json()) as ApiEnvelope<T>;
  } catch {
    envelope = undefined;
  }
  if (!envelope || typeof envelope !== 'object' || !('success' in envelope)) {
    throw unexpectedAnswer(answer);
  }
  return resultOf(answer, envelope, token);
}

/** How a call is sent; what it sends comes from the endpoint and its input. */
export type CallOptions = Omit<RequestOptions, 'method' | 'body' | 'endpoint'>;

type CallArgs<E extends EnvelopeEndpoint> =
  object extends EndpointInput<E>
    ? [input?: EndpointInput<E>, options?: CallOptions]
    : [input: EndpointInput<E>, options?: CallOptions];

/**
 * Calls an endpoint of the shared contract (decision 026): its method and path come from the
 * description, the params fill the path, the query becomes the query string, and the answer's
 * data has the endpoint's response type. A POST without a body sends `{}`.
 */
export function call<E extends EnvelopeEndpoint>(
  endpoint: E,
  ...[input, options]: CallArgs<E>
): Promise<ApiResult<EndpointData<E>>> {
  const hasBody = endpoint.method !== 'GET' && endpoint.method !== 'DELETE';
  const given = input as { params?: object; query?: object; body?: unknown } | undefined;
  return apiRequest<EndpointData<E>>(urlOf(endpoint, given), {
    ...options,
    endpoint,
    method: endpoint.method,
    body: hasBody ? (given?.body ?? {}) : undefined,
  });
}

/** The address of an endpoint for the given params and query (empty query values are left out). */
export function urlOf(endpoint: EndpointSpec, input?: { params?: object; query?: object }): string {
  const path = pathOf(endpoint.path, input?.params as Record<string, unknown> | undefined);
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(input?.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') query.set(key, String(value as string | number));
  }
  const text = query.toString();
  return text ? `${path}?${text}` : path;
}
