import type { ValidationIssue } from './api.ts';
import { fieldCodeOf } from './api.ts';
import type { FieldErrorCode, FieldErrorParams } from './field-error-codes.ts';

/**
 * What the GIFT and Aiken readers report (issue 32): a code and its parameters, which the import
 * dialog words in the reader's language (import-problem-texts.ts), next to an English `message`
 * for the readers' tests, the Moodle comparison tool and logs. Each code's parameters are typed
 * here, so the client's words for a new code are a type error until they exist.
 */
export type ImportProblemParams = {
  FORMATTING_SHOWN_AS_PLAIN_TEXT: Record<string, never>;
  ANSWER_NEEDS_PREFIX: Record<string, never>;
  NOT_A_NUMBER: { value: string };
  RANGE_GOES_DOWN: { range: string };
  FEEDBACK_NOT_KEPT: Record<string, never>;
  NUMBER_ANSWER_NEEDS_PREFIX: Record<string, never>;
  NUMBER_WEIGHT_OUT_OF_RANGE: Record<string, never>;
  NO_FULL_NUMBER_ANSWER: Record<string, never>;
  PARTIAL_OVERLAPS_FULL: Record<string, never>;
  NUMBER_ANSWER_SHADOWED: { earlier: string; later: string; laterWeight: string };
  SHORT_WEIGHT_OUT_OF_RANGE: Record<string, never>;
  SHORT_ANSWER_SHADOWED: { earlier: string; earlierWeight: string; later: string; laterWeight: string };
  NO_FULL_SHORT_ANSWER: Record<string, never>;
  EMPTY_ANSWER_DROPPED: Record<string, never>;
  WEIGHT_OUT_OF_RANGE: Record<string, never>;
  RIGHT_ANSWER_EMPTY: Record<string, never>;
  NO_POSITIVE_WEIGHT: Record<string, never>;
  WEIGHTS_NOT_100: { sum: number };
  WRONG_OPTIONS_TAKE_NOTHING: Record<string, never>;
  PAIR_NEEDS_PREFIX: Record<string, never>;
  PAIR_NEEDS_ARROW: Record<string, never>;
  GENERAL_FEEDBACK_NOT_KEPT: Record<string, never>;
  NOT_A_NUMBER_OF_POINTS: { value: string };
  CATEGORIES_IGNORED: Record<string, never>;
  TITLE_NOT_CLOSED: Record<string, never>;
  ANSWER_BLOCK_NOT_CLOSED: Record<string, never>;
  /** The question breaks one of the editor's rules: the shared schema's field code for it. */
  INVALID_QUESTION: { field: string; fieldCode: FieldErrorCode; fieldParams: FieldErrorParams };
  AIKEN_TOO_FEW_OPTIONS: Record<string, never>;
  AIKEN_ANSWER_NOT_AN_OPTION: { answer: string };
  AIKEN_NO_ANSWER_LINE: Record<string, never>;
  AIKEN_ANSWER_BEFORE_QUESTION: Record<string, never>;
  AIKEN_OPTION_OUT_OF_ORDER: { letter: string; expected: string };
};

export type ImportProblemCode = keyof ImportProblemParams;

/** A code with its parameters (a union, so `params` follows `code`). */
export type ImportIssue = { [C in ImportProblemCode]: { code: C; params: ImportProblemParams[C] } }[ImportProblemCode];

export type ImportProblem = ImportIssue & { line: number; message: string; severity: 'error' | 'warning' };

/** An issue from its code and English words; `params` only where the code has some. */
export function importIssue<C extends ImportProblemCode>(
  message: string,
  code: C,
  ...params: Record<string, never> extends ImportProblemParams[C] ? [] : [ImportProblemParams[C]]
): ImportIssue & { message: string } {
  return { code, params: params[0] ?? {}, message } as ImportIssue & { message: string };
}

/** The schema's first reason a question is refused, as a field code the client words. */
export function invalidQuestion(issue: ValidationIssue & { path: PropertyKey[] }) {
  const { code, params = {} } = fieldCodeOf(issue);
  const field = issue.path.map(String).join('.');
  // The schemas carry codes, not words (issue 32 point 3): the message names the field and code.
  return importIssue(`${field || 'question'}: ${code}`, 'INVALID_QUESTION', {
    field,
    fieldCode: code,
    fieldParams: params,
  });
}
