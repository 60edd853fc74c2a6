/**
 * What is wrong with one input field, for code to act on and for the client to word in the
 * reader's language (issue 32 point 3, decision 026's second addendum). A field error carries
 * one of these codes and its parameters; its English `message` stays for logs and API users.
 *
 * The generic codes come from the kind of check that refused (fieldErrorsOf reads them from
 * zod's issues); a refinement that is none of them names its code in its `params`
 * (`refine(check, { error, params: fieldCode('PASSWORDS_DIFFER') })`).
 *
 * What each code means is said once, for the API document, on the server
 * (features/api-docs/field-error-meanings.ts): the browser needs the codes only (decision 073).
 */
export const FIELD_ERROR_CODES = [
  // ---- Generic: from the check's kind ---------------------------------------------------
  'REQUIRED',
  'TOO_SHORT',
  'TOO_LONG',
  'TOO_SMALL',
  'TOO_BIG',
  'TOO_FEW',
  'TOO_MANY',
  'NOT_A_NUMBER',
  'NOT_WHOLE_NUMBER',
  'WRONG_TYPE',
  'INVALID_EMAIL',
  'INVALID_FORMAT',
  'INVALID_CHOICE',
  'FORBIDDEN_CHARACTERS',
  'NOT_UNIQUE',
  'UNKNOWN_FIELD',
  'INVALID',
  // ---- Specific: a rule of the endpoint ---------------------------------------------------
  'TAKEN',
  'USERNAME_CHARACTERS',
  'ONLY_SPACES',
  'PASSWORDS_DIFFER',
  'PASSWORD_UNCHANGED',
  'WRONG_CURRENT_PASSWORD',
  'CLASS_CODE_FORM',
  'CLASS_CODE_INVALID',
  'INVITATION_CODE_FORM',
  'TEACHER_NOT_ACTIVE',
  'ALREADY_IN_CLASS',
  'DEADLINE_PAST',
  'NOT_IN_QUIZ',
  'NOT_ANSWERABLE',
  'FILE_MISSING',
  'IMAGE_DESCRIPTION_MISSING',
  'FILE_TYPE',
  'NOT_TEXT',
  'EMPTY_FILE',
  'UNCLOSED_QUOTE',
  'DUPLICATE_COLUMN',
  'MISSING_COLUMNS',
  'NO_STUDENTS',
  'TOO_MANY_ROWS',
  'STORAGE_QUOTA_EXCEEDED',
  'DUPLICATE_IN_FILE',
  'EXTRA_CELLS',
  'CHANGED',
  'NOT_ALLOWED',
  'DEADLINE_BEFORE_QUIZ',
  'CORRECT_ANSWER_MISSING',
  'ANSWER_NOT_AN_OPTION',
  'OPTION_EMPTY',
  'ONE_CORRECT_OPTION',
  'NO_CORRECT_OPTION',
  'POINTS_NOT_HALVES',
  'NUMBER_OUT_OF_RANGE',
  'MATCH_MISSING',
  'MATCH_WITH_PROMPT_ID',
  'PROMPT_MISSING',
  'TOO_FEW_MATCHES',
  'NO_QUESTIONS',
  'QUIZ_TOO_LONG',
  'TOO_MANY_ESSAYS',
  'PUBLISH_AFTER_DUE',
  'REVIEW_REVEALS_SCORE',
  'NO_ACCOMMODATION',
  'TAG_TOO_LONG',
  'VIDEO_LINK_PROVIDER',
  'TURN_CREDENTIALS_MISSING',
  'DATE_OUT_OF_RANGE',
  'ATTACHMENT_UNAVAILABLE',
  'SCRIPT_IN_TEXT',
  'NO_CLASS_CHOSEN',
  'NOT_IN_CLASS',
] as const;

export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number];

/** A field error's parameters: the numbers and names its wording needs. */
export type FieldErrorParams = Record<string, string | number | boolean | (string | number)[]>;

const KNOWN_CODES: ReadonlySet<string> = new Set(FIELD_ERROR_CODES);

export const isFieldErrorCode = (code: unknown): code is FieldErrorCode =>
  typeof code === 'string' && KNOWN_CODES.has(code);

/**
 * The `params` of a refinement that names its code: zod puts them on the issue, where
 * fieldErrorsOf reads `code` and passes the rest on as the field error's parameters.
 */
export const fieldCode = (code: FieldErrorCode, params: FieldErrorParams = {}) => ({ ...params, code });
