import type { ErrorCode } from './error-codes.ts';
import type { ThrottleLimit } from './throttle.ts';

/** The response envelope every /api endpoint speaks (SPEC §7). */
export type ApiSuccess<T> = { success: true; message: string; data: T; page?: PageInfo };

/** Paged lists keep data a plain list (SPEC §7) and say here whether more follow. */
export type PageInfo = { offset: number; limit: number; hasMore: boolean };

/** One problem with one input field, so forms can show it next to the field. */
export type FieldError = { field: string; message: string };

export type ApiFailure = {
  success: false;
  /** What went wrong, for code to act on (decision 026); the message is for people. */
  code: ErrorCode;
  message: string;
  data: null;
  /** Present on 400 validation failures. */
  errors?: FieldError[];
  /** THROTTLED only, and always there (decision 016): which budget refused. */
  limit?: ThrottleLimit;
  /** THROTTLED only, and always there: the seconds Retry-After says. */
  retryAfterSeconds?: number;
};

export type ApiEnvelope<T> = ApiSuccess<T> | ApiFailure;

/** What a field error is made from: a zod issue, or the same as Fastify's validation reports it. */
export type ValidationIssue = {
  path: readonly PropertyKey[];
  code?: string;
  message: string;
  keys?: readonly string[];
};

export const UNKNOWN_FIELD_MESSAGE =
  'This field is not part of the request: check its name and place. Nothing was changed.';

/**
 * One field error per problem, named by its dotted path. A key the schema does not know
 * (bodyObject) is named itself, so a client that sent its answers under the wrong key
 * learns where, instead of being told the object around it is wrong.
 */
export function fieldErrorsOf(issues: readonly ValidationIssue[]): FieldError[] {
  return issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys' && issue.keys?.length)
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), message: UNKNOWN_FIELD_MESSAGE }));
    return [{ field: path.join('.'), message: issue.message }];
  });
}
