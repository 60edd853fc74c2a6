import { fieldErrorsOf, type FieldError, type ValidationIssue } from '#shared/api';
import { fieldErrorMessage } from './field-error-messages.ts';
import { ERROR_CODES, type ErrorCode } from '#shared/error-codes';
import type { FieldErrorCode, FieldErrorParams } from '#shared/field-error-codes';
import type { ThrottledFields } from '#shared/throttle';

/**
 * An expected failure: its stable code (decision 026), the message a person should see and,
 * from the code, the HTTP status. Anything else that is thrown is a bug and becomes a logged 500.
 */
export class AppError extends Error {
  readonly statusCode: number;
  readonly errors: FieldError[] | undefined;
  /** Sent with the failure (e.g. Retry-After with a 429). */
  readonly headers: Record<string, string> | undefined;
  /** A THROTTLED failure's budget and wait, sent in its body (decision 016). */
  readonly throttled: ThrottledFields | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: {
      errors?: FieldError[];
      headers?: Record<string, string>;
      throttled?: ThrottledFields;
      /** Only for REQUEST_REFUSED, whose status is the HTTP layer's. */
      status?: number;
    } = {},
  ) {
    super(message);
    this.name = 'AppError';
    const status = ERROR_CODES[code].status;
    this.statusCode = status === '4XX' ? (options.status ?? 400) : status;
    this.errors = options.errors;
    this.headers = options.headers;
    this.throttled = options.throttled;
  }
}

export const badRequest = (message: string, errors?: FieldError[]) =>
  new AppError('VALIDATION_FAILED', message, { errors });
export const unauthorized = (message = 'Please log in to continue') => new AppError('NOT_SIGNED_IN', message);
/** The token's account was removed (decision 017's addendum). */
export const accountRemoved = () => new AppError('ACCOUNT_REMOVED', 'Your account no longer exists');
export const forbidden = (message = 'You are not allowed to do that') => new AppError('FORBIDDEN', message);
export const notFound = (message = 'Not found') => new AppError('NOT_FOUND', message);
/**
 * 429 with the seconds to wait in Retry-After (RFC 9110) and in the body beside the budget that
 * refused, which clients word (decision 026's addendum); the message says it for other clients and the logs.
 */
export const tooManyRequests = (message: string, throttled: ThrottledFields) =>
  new AppError('THROTTLED', message, {
    headers: { 'retry-after': String(throttled.retryAfterSeconds) },
    throttled,
  });
/**
 * 400 for inputs that failed their schema, each problem named: UNKNOWN_FIELD when a key is not
 * the endpoint's (decision 025), VALIDATION_FAILED otherwise; the message names the first one.
 */
export function invalidInput(issues: readonly ValidationIssue[]): AppError {
  const errors: FieldError[] = fieldErrorsOf(issues).map((problem) => ({
    ...problem,
    message: fieldErrorMessage(problem),
  }));
  const first = errors[0] ?? { field: '', code: 'INVALID', message: 'The request is not valid' };
  const message = first.field ? `${first.field}: ${first.message}` : first.message;
  const isUnknownField = issues.some((issue) => issue.code === 'unrecognized_keys');
  return new AppError(isUnknownField ? 'UNKNOWN_FIELD' : 'VALIDATION_FAILED', message, { errors });
}

/** A 409 of the endpoint's own rules; naming the field (and what is wrong with it) lets a form mark it. */
export const conflict = (code: ErrorCode, message: string, problem?: Pick<FieldError, 'field' | 'code'>) =>
  new AppError(code, message, problem ? { errors: [{ ...problem, message }] } : {});

/** One field's problem, its message the same as the failure's. */
export const fieldProblem = (field: string, code: FieldErrorCode, message: string, params?: FieldErrorParams) =>
  [{ field, code, ...(params ? { params } : {}), message }] satisfies FieldError[];
