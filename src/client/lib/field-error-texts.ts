import { UNKNOWN_FIELD_MESSAGE, type FieldError } from '#shared/api';
import type { FieldErrorCode, FieldErrorParams } from '#shared/field-error-codes';

/**
 * What a person reads for a field's problem (issue 32 point 3, decision 026's second addendum):
 * the client words the code and parameters the schema or the server gave, never the server's
 * sentence, so the words can follow the reader's language. Where a screen or its test pins a
 * text, it is this one.
 */

/** A problem to word: a field error, from the server or from the shared schema on the client. */
export type FieldProblem = Pick<FieldError, 'field' | 'code' | 'params' | 'message'>;

/**
 * The name a form gives a field, by the last named part of its path, where no form says its own
 * (`AccountForm` gives its fields' labels; a class's `name` is "Class" on its form).
 */
export const FIELD_LABELS: Readonly<Record<string, string>> = {
  name: 'Name',
  subject: 'Subject',
  email: 'Email',
  password: 'Password',
  rollNumber: 'Account username',
  parentName: 'Parent name',
  parentEmail: 'Parent email',
  currentPassword: 'Current password',
  newPassword: 'New password',
  class: 'Class',
  classCode: 'Class code',
  invitation: 'Invitation',
  schoolName: 'School name',
  setupCode: 'Set-up code',
  title: 'Title',
  fileName: 'Title',
  text: 'Task text',
  question_text: 'Question text',
  alt: 'Image description (alt text)',
  search: 'Search',
};

/** The default label of a dotted path: its last part that is not a list index. */
export const fieldLabelOf = (field: string) =>
  FIELD_LABELS[
    field
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .at(-1) ?? ''
  ];

type Params = FieldErrorParams | undefined;
const number = (params: Params, key: string) => Number(params?.[key]);

/** Codes said of a field by its name ("Email is required"): worded only where the field's name is known. */
const NAMED_TEXTS = {
  REQUIRED: (label) => `${label} is required`,
  TOO_SHORT: (label, params) => `${label} must be at least ${number(params, 'minimum')} characters`,
  TOO_LONG: (label, params) => `${label} must be at most ${number(params, 'maximum')} characters`,
  TOO_SMALL: (label, params) =>
    params?.inclusive === false
      ? `${label} must be more than ${number(params, 'minimum')}`
      : number(params, 'minimum') === 0
        ? `${label} cannot be negative`
        : `${label} must be at least ${number(params, 'minimum')}`,
  TOO_BIG: (label, params) =>
    params?.inclusive === false
      ? `${label} must be less than ${number(params, 'maximum')}`
      : `${label} must be at most ${number(params, 'maximum')}`,
  NOT_A_NUMBER: (label) => `${label} must be a number`,
  // A form sends text: a field that is not is one left out.
  WRONG_TYPE: (label, params) =>
    params?.expected === 'boolean' ? `${label} must be true or false` : `${label} is required`,
  NOT_WHOLE_NUMBER: (label) => `${label} must be a whole number`,
  INVALID_EMAIL: (label) => `${label} must be a valid email address`,
  FORBIDDEN_CHARACTERS: (label) => `${label} contains characters that are not allowed`,
  ONLY_SPACES: (label) => `${label} must not be only spaces`,
  TAKEN: (label) => `${label} is taken by another student of the school`,
  DUPLICATE_IN_FILE: (label, params) => `${label} is also on row ${number(params, 'firstRow')} of the file`,
} satisfies Partial<Record<FieldErrorCode, (label: string, params: Params) => string>>;

type NamedCode = keyof typeof NAMED_TEXTS;

/** Codes that say it all themselves. */
const OWN_TEXTS = {
  UNKNOWN_FIELD: UNKNOWN_FIELD_MESSAGE,
  USERNAME_CHARACTERS: 'Account username may contain only letters, digits, dots, dashes and underscores',
  PASSWORDS_DIFFER: 'The two new passwords do not match',
  PASSWORD_UNCHANGED: 'The new password must be different from the current one',
  WRONG_CURRENT_PASSWORD: 'Your current password is not correct',
  CLASS_CODE_FORM: 'A class code is 8 letters and digits, like ABCD-EFGH',
  CLASS_CODE_INVALID: 'This class code does not work',
  INVITATION_CODE_FORM: 'This is not an invitation code: open the link you were given',
  TEACHER_NOT_ACTIVE: 'Not an active teacher of the school',
  ALREADY_IN_CLASS: 'The student is in this class',
  DEADLINE_PAST: 'Deadline must be in the future',
  DEADLINE_BEFORE_QUIZ: 'The deadline must be later than the quiz’s own',
  NOT_IN_QUIZ: 'This question is not part of the quiz',
  FILE_MISSING: (params) => (params?.kind === 'image' ? 'Choose an image.' : 'Please select a file.'),
  FILE_TYPE: 'Choose an image: PNG, JPEG, GIF or WebP.',
  IMAGE_DESCRIPTION_MISSING: 'Describe the image for people who cannot see it',
  EXTRA_CELLS: 'This row has more cells than the header has columns',
  CHANGED: 'This changed elsewhere meanwhile; it has been reloaded',
} satisfies Partial<Record<FieldErrorCode, string | ((params: Params) => string)>>;

const isNamed = (code: FieldErrorCode): code is NamedCode => Object.hasOwn(NAMED_TEXTS, code);

/** Whether a code's words name the field (so a form's own label for it changes them). */
export const isSaidByName = (code: FieldErrorCode) => isNamed(code);

/**
 * The words for one field problem. `label` is the field's name on the form (else FIELD_LABELS').
 * A problem the client cannot word yet (a refinement without its own code, a bound of a field
 * without a known name) keeps the shared schema's English (issue 32's remaining work).
 */
export function fieldErrorText(problem: FieldProblem, label = fieldLabelOf(problem.field)): string {
  const { code, params } = problem;
  if (isNamed(code)) return label ? NAMED_TEXTS[code](label, params) : problem.message;
  const own: string | ((params: Params) => string) | undefined = (
    OWN_TEXTS as Partial<Record<FieldErrorCode, string | ((params: Params) => string)>>
  )[code];
  if (own === undefined) return problem.message;
  return typeof own === 'string' ? own : own(params);
}
