/**
 * What is wrong with one input field, for code to act on and for the client to word in the
 * reader's language (issue 32 point 3, decision 026's second addendum). A field error carries
 * one of these codes and its parameters; its English `message` stays for logs and API users.
 *
 * The generic codes come from the kind of check that refused (fieldErrorsOf reads them from
 * zod's issues); a refinement that is none of them names its code in its `params`
 * (`refine(check, { error, params: fieldCode('PASSWORDS_DIFFER') })`).
 */
export const FIELD_ERROR_CODES = {
  // ---- Generic: from the check's kind ---------------------------------------------------
  REQUIRED: 'Missing, empty or only blank characters',
  TOO_SHORT: 'A text shorter than `minimum` characters',
  TOO_LONG: 'A text longer than `maximum` characters',
  TOO_SMALL: 'A number below `minimum` (`inclusive`: whether `minimum` itself is allowed)',
  TOO_BIG: 'A number above `maximum` (`inclusive`: whether `maximum` itself is allowed)',
  TOO_FEW: 'A list with fewer than `minimum` entries',
  TOO_MANY: 'A list with more than `maximum` entries',
  NOT_A_NUMBER: 'Not a number',
  NOT_WHOLE_NUMBER: 'A number with a fraction where a whole one is needed',
  WRONG_TYPE: 'Missing, or not the kind of value the field holds (`expected`: which)',
  INVALID_EMAIL: 'Not an email address',
  INVALID_FORMAT: 'Not in the form the field needs (`format`: which, e.g. uuid, datetime, regex)',
  INVALID_CHOICE: 'Not one of the values the field allows (`values`, when the list is short)',
  FORBIDDEN_CHARACTERS: 'Holds characters no person types (control characters, broken UTF-16)',
  NOT_UNIQUE: 'Two entries of a list are the same',
  UNKNOWN_FIELD: 'A key the endpoint does not know (decision 025)',
  INVALID: 'Not valid, for a reason the message gives (a check without its own code yet)',
  // ---- Specific: a rule of the endpoint ---------------------------------------------------
  TAKEN: 'Another account or class already has this value (an email, a username, a class name)',
  USERNAME_CHARACTERS: 'A username with characters other than letters, digits, dots, dashes and underscores',
  ONLY_SPACES: 'A password of spaces only',
  PASSWORDS_DIFFER: 'The repeated new password is not the new password',
  PASSWORD_UNCHANGED: 'The new password is the current one',
  WRONG_CURRENT_PASSWORD: 'The current password is not right',
  CLASS_CODE_FORM: 'Not shaped like a class code (8 letters and digits)',
  CLASS_CODE_INVALID: 'No open class has this code',
  INVITATION_CODE_FORM: 'Not shaped like an invitation code',
  TEACHER_NOT_ACTIVE: 'Not an active teacher of the school',
  ALREADY_IN_CLASS: 'The student is already in the class chosen',
  DEADLINE_PAST: 'A deadline that is not in the future',
  NOT_IN_QUIZ: 'A question that is not part of the quiz',
  NOT_ANSWERABLE: 'An answer to a description, which takes none',
  FILE_MISSING: 'No file was chosen',
  IMAGE_DESCRIPTION_MISSING: 'An image without its description (alt text) for people who cannot see it',
  FILE_TYPE: 'The file is not of a type the field accepts (`accepted`: which)',
  NOT_TEXT: 'A file that is not UTF-8 text (a spreadsheet file, UTF-16, binary)',
  EMPTY_FILE: 'A file with nothing in it',
  UNCLOSED_QUOTE: 'A CSV file with a quoted cell never closed; `line`: where it opens',
  DUPLICATE_COLUMN: 'A CSV header naming a column twice (`column`: its header)',
  MISSING_COLUMNS: 'A CSV header without required columns (`missing`, `expected`: header names)',
  NO_STUDENTS: 'A class list with a header but no rows',
  TOO_MANY_ROWS: 'A class list with more rows (`rows`) than one import takes (`max`)',
  STORAGE_QUOTA_EXCEEDED: 'The file does not fit in the storage space',
  DUPLICATE_IN_FILE: 'The same value is on an earlier row (`firstRow`) of the file',
  EXTRA_CELLS: 'A row of a file with more cells than the header has columns',
  CHANGED: 'Changed elsewhere since it was read (a version): reload',
  NOT_ALLOWED: 'This value may not change now (the message says why)',
  DEADLINE_BEFORE_QUIZ: "A student's own deadline that is not later than the quiz's",
  CORRECT_ANSWER_MISSING: 'A question without its correct answer chosen',
  ANSWER_NOT_AN_OPTION: "A correct answer that is none of the question's options",
  OPTION_EMPTY: 'An option with neither text nor an image',
  ONE_CORRECT_OPTION: 'A single-answer question without exactly one option marked correct',
  NO_CORRECT_OPTION: 'A multiple-answer question without any option marked correct',
  POINTS_NOT_HALVES: 'Points that are not a whole or a half number (1, 1.5, 2…)',
  NUMBER_OUT_OF_RANGE: 'A number beyond plus or minus `maximum`, or not finite',
  MATCH_MISSING: 'A matching prompt without its match',
  MATCH_WITH_PROMPT_ID: 'An extra match (no prompt) that carries a prompt id',
  PROMPT_MISSING: 'A matching question without any prompt',
  TOO_FEW_MATCHES: 'A matching question with fewer than `minimum` different matches',
  NO_QUESTIONS: 'A quiz of descriptions only: nothing to answer',
  QUIZ_TOO_LONG: 'A quiz longer than `maximum` characters of questions and options in all',
  TOO_MANY_ESSAYS: 'A quiz with more than `maximum` essay questions',
  PUBLISH_AFTER_DUE: 'A publish time later than the due time: the work would be hidden until after it is due',
  REVIEW_REVEALS_SCORE: 'Correct answers shown right after submitting while the score waits for the deadline',
  NO_ACCOMMODATION: 'An accommodation without extra minutes, extra percent or a later deadline',
  TAG_TOO_LONG: 'A tag longer than `maximum` characters',
  VIDEO_LINK_PROVIDER: 'A video link that is not an https address of a known provider (`providers`: their names)',
  TURN_CREDENTIALS_MISSING: 'A TURN server without its username and credential',
  DATE_OUT_OF_RANGE: 'A date outside the years `minimum` to `maximum`',
  ATTACHMENT_UNAVAILABLE: "A resource that is neither the caller's own nor of the assignment's classes",
  SCRIPT_IN_TEXT: 'Markdown with raw HTML that would run or embed something (`tag`: the first, as typed)',
  NO_CLASS_CHOSEN: 'An assignment for no class: at least one must be chosen',
  NOT_IN_CLASS: 'A class the caller does not teach, or not one of the assignment’s',
} as const;

export type FieldErrorCode = keyof typeof FIELD_ERROR_CODES;

/** A field error's parameters: the numbers and names its wording needs. */
export type FieldErrorParams = Record<string, string | number | boolean | (string | number)[]>;

export const isFieldErrorCode = (code: unknown): code is FieldErrorCode =>
  typeof code === 'string' && Object.hasOwn(FIELD_ERROR_CODES, code);

/**
 * The `params` of a refinement that names its code: zod puts them on the issue, where
 * fieldErrorsOf reads `code` and passes the rest on as the field error's parameters.
 */
export const fieldCode = (code: FieldErrorCode, params: FieldErrorParams = {}) => ({ ...params, code });
