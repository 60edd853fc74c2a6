import type { FieldProblem } from '#shared/api';
import type { FieldErrorCode, FieldErrorParams } from '#shared/field-error-codes';
import { FIELD_ERROR_MEANINGS } from './features/api-docs/field-error-meanings.ts';

/**
 * The English `message` of a field error, for logs and API users, from its code and parameters.
 * The shared schemas carry codes only (issue 32 point 3): clients word the codes in the reader's
 * language, and these words are the server's alone.
 */

export const UNKNOWN_FIELD_MESSAGE =
  'This field is not part of the request: check its name and place. Nothing was changed.';

type Words = (params: FieldErrorParams) => string;

const exclusive = (params: FieldErrorParams) => params.inclusive === false;

/** "a string", "an array": the kind zod expected. */
const withArticle = (kind: string) => `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;

/** The generic codes say their bounds; the rule codes say what their meaning says. */
const GENERIC_MESSAGES: Partial<Record<FieldErrorCode, Words>> = {
  REQUIRED: () => 'Required',
  TOO_SHORT: ({ minimum }) => `Must be at least ${String(minimum)} characters`,
  TOO_LONG: ({ maximum }) => `Must be at most ${String(maximum)} characters`,
  TOO_SMALL: (params) => `Must be ${exclusive(params) ? 'more than' : 'at least'} ${String(params.minimum)}`,
  TOO_BIG: (params) => `Must be ${exclusive(params) ? 'less than' : 'at most'} ${String(params.maximum)}`,
  TOO_FEW: ({ minimum }) => `Must have at least ${String(minimum)} entries`,
  TOO_MANY: ({ maximum }) => `Must have at most ${String(maximum)} entries`,
  NOT_A_NUMBER: () => 'Must be a number',
  NOT_WHOLE_NUMBER: () => 'Must be a whole number',
  WRONG_TYPE: ({ expected }) => `Missing, or not ${withArticle(String(expected))}`,
  INVALID_EMAIL: () => 'Must be a valid email address',
  INVALID_FORMAT: ({ format }) =>
    format === 'regex' ? 'Not in the form this field needs' : `Must be a valid ${String(format)}`,
  INVALID_CHOICE: ({ values }) =>
    Array.isArray(values) ? `Must be one of: ${values.join(', ')}` : 'Not one of the values this field allows',
  UNKNOWN_FIELD: () => UNKNOWN_FIELD_MESSAGE,
  // A field the server accepts and does not read, over its size (fields.ts, ignoredValue).
  INVALID: ({ maximumBytes }) =>
    maximumBytes === undefined
      ? 'Not valid'
      : `The server does not read this field; it may be sent, but only up to ${String(maximumBytes)} bytes`,
};

/** A meaning's `name` in backquotes becomes the parameter's value, when the problem has it. */
const withParams = (meaning: string, params: FieldErrorParams) =>
  meaning.replace(/`(\w+)`/g, (quoted, name: string) => {
    const value = params[name];
    return value === undefined ? quoted : Array.isArray(value) ? value.join(', ') : String(value);
  });

export function fieldErrorMessage({ code, params = {} }: Pick<FieldProblem, 'code' | 'params'>): string {
  return GENERIC_MESSAGES[code]?.(params) ?? withParams(FIELD_ERROR_MEANINGS[code], params);
}
