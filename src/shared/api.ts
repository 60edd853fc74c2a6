import type { ErrorCode } from './error-codes.ts';
import type { FieldErrorCode, FieldErrorParams } from './field-error-codes.ts';
import type { ThrottleLimit } from './throttle.ts';

/** The response envelope every /api endpoint speaks (SPEC §7). */
export type ApiSuccess<T> = { success: true; message: string; data: T; page?: PageInfo };

/** Paged lists keep data a plain list (SPEC §7) and say here whether more follow. */
export type PageInfo = { offset: number; limit: number; hasMore: boolean };

/**
 * One problem with one input field, so forms can show it next to the field: its code and
 * parameters, which clients word (decision 026, second addendum), and an English message for
 * logs and API users.
 */
export type FieldError = { field: string; code: FieldErrorCode; params?: FieldErrorParams; message: string };

/** A field error as the shared schemas know it: its code and parameters, no words (issue 32 point 3). */
export type FieldProblem = Omit<FieldError, 'message'>;

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
  /** zod's facts of the check that refused: what it was about and its bounds. */
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  expected?: string;
  format?: string;
  values?: readonly unknown[];
  /** A refinement's own code and parameters (fieldCode in field-error-codes.ts). */
  params?: Record<string, unknown>;
};

const LISTS = new Set(['array', 'set', 'record', 'map']);
/** The allowed values a field error names: a short list of plain values, else none. */
const CHOICES_NAMED = 10;

/** The code and parameters of one zod issue: the refinement's own, else the check's kind. */
export function fieldCodeOf(issue: ValidationIssue): Pick<FieldError, 'code' | 'params'> {
  // A refinement names its code through fieldCode(), typed: checked against the catalogue only by
  // its type, so the forms do not carry the codes' descriptions.
  const { code: own, ...params } = issue.params ?? {};
  if (typeof own === 'string') {
    const code = own as FieldErrorCode;
    return Object.keys(params).length ? { code, params: params as FieldErrorParams } : { code };
  }
  const isList = LISTS.has(issue.origin ?? '');
  switch (issue.code ?? '') {
    case 'too_small': {
      const minimum = Number(issue.minimum);
      if (issue.origin === 'string')
        return minimum <= 1 ? { code: 'REQUIRED' } : { code: 'TOO_SHORT', params: { minimum } };
      if (isList) return { code: 'TOO_FEW', params: { minimum } };
      return { code: 'TOO_SMALL', params: { minimum, inclusive: issue.inclusive ?? true } };
    }
    case 'too_big': {
      const maximum = Number(issue.maximum);
      if (issue.origin === 'string') return { code: 'TOO_LONG', params: { maximum } };
      if (isList) return { code: 'TOO_MANY', params: { maximum } };
      return { code: 'TOO_BIG', params: { maximum, inclusive: issue.inclusive ?? true } };
    }
    case 'invalid_type':
      if (issue.expected === 'int') return { code: 'NOT_WHOLE_NUMBER' };
      if (issue.expected === 'number') return { code: 'NOT_A_NUMBER' };
      return { code: 'WRONG_TYPE', params: { expected: issue.expected ?? 'unknown' } };
    case 'invalid_format':
      return issue.format === 'email'
        ? { code: 'INVALID_EMAIL' }
        : { code: 'INVALID_FORMAT', params: { format: issue.format ?? 'unknown' } };
    case 'invalid_value': {
      const values = issue.values ?? [];
      const isNamed =
        values.length <= CHOICES_NAMED &&
        values.every((value) => typeof value === 'string' || typeof value === 'number');
      return isNamed
        ? { code: 'INVALID_CHOICE', params: { values: values as (string | number)[] } }
        : { code: 'INVALID_CHOICE' };
    }
    default:
      return { code: 'INVALID' };
  }
}

/**
 * One field error per problem, named by its dotted path, with its code (fieldCodeOf). A key the
 * schema does not know (bodyObject) is named itself, so a client that sent its answers under the
 * wrong key learns where, instead of being told the object around it is wrong.
 */
export function fieldErrorsOf(issues: readonly ValidationIssue[]): FieldProblem[] {
  return issues.flatMap((issue): FieldProblem[] => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys' && issue.keys?.length)
      return issue.keys.map((key) => ({ field: [...path, key].join('.'), code: 'UNKNOWN_FIELD' }));
    return [{ field: path.join('.'), ...fieldCodeOf(issue) }];
  });
}
