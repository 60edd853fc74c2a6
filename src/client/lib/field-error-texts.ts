import { plural, t } from '@lingui/core/macro';
import type { FieldError } from '#shared/api';
import type { FieldErrorCode, FieldErrorParams } from '#shared/field-error-codes';
import { formatNumber } from './format.ts';

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
 * (`AccountForm` gives its fields' labels; a class's `name` is "Class" on its form). Functions,
 * so a label is worded in the locale active when it is asked for.
 */
export const FIELD_LABELS: Readonly<Record<string, () => string>> = {
  name: () => t`Name`,
  subject: () => t`Subject`,
  email: () => t`Email`,
  password: () => t`Password`,
  rollNumber: () => t`Account username`,
  parentName: () => t`Parent name`,
  parentEmail: () => t`Parent email`,
  currentPassword: () => t`Current password`,
  newPassword: () => t`New password`,
  class: () => t`Class`,
  classCode: () => t`Class code`,
  invitation: () => t`Invitation`,
  schoolName: () => t`School name`,
  setupCode: () => t`Set-up code`,
  title: () => t`Title`,
  fileName: () => t`Title`,
  text: () => t`Task text`,
  question_text: () => t`Question text`,
  alt: () => t`Image description (alt text)`,
  search: () => t`Search`,
};

/** The default label of a dotted path: its last part that is not a list index. */
export const fieldLabelOf = (field: string): string | undefined =>
  FIELD_LABELS[
    field
      .split('.')
      .filter((part) => !/^\d+$/.test(part))
      .at(-1) ?? ''
  ]?.();

type Params = FieldErrorParams | undefined;
const number = (params: Params, key: string) => Number(params?.[key]);
/** A bound in the locale's digits ("1,000", "١٬٠٠٠"). */
const bound = (params: Params, key: string) => formatNumber(number(params, key));

/**
 * Codes said of a field by its name ("Email is required"): worded only where the field's name is
 * known. `{label}` is the field's name as its form shows it.
 */
const NAMED_TEXTS = {
  REQUIRED: (label) => t`${label} is required`,
  TOO_SHORT: (label, params) => {
    const minimum = number(params, 'minimum');
    return plural(minimum, {
      one: `${label} must be at least # character`,
      other: `${label} must be at least # characters`,
    });
  },
  TOO_LONG: (label, params) => {
    const maximum = number(params, 'maximum');
    return plural(maximum, {
      one: `${label} must be at most # character`,
      other: `${label} must be at most # characters`,
    });
  },
  TOO_SMALL: (label, params) => {
    const minimum = bound(params, 'minimum');
    return params?.inclusive === false
      ? t`${label} must be more than ${minimum}`
      : number(params, 'minimum') === 0
        ? t`${label} cannot be negative`
        : t`${label} must be at least ${minimum}`;
  },
  TOO_BIG: (label, params) => {
    const maximum = bound(params, 'maximum');
    return params?.inclusive === false
      ? t`${label} must be less than ${maximum}`
      : t`${label} must be at most ${maximum}`;
  },
  NOT_A_NUMBER: (label) => t`${label} must be a number`,
  // A form sends text: a field that is not is one left out.
  WRONG_TYPE: (label, params) =>
    params?.expected === 'boolean' ? t`${label} must be true or false` : t`${label} is required`,
  NOT_WHOLE_NUMBER: (label) => t`${label} must be a whole number`,
  INVALID_EMAIL: (label) => t`${label} must be a valid email address`,
  FORBIDDEN_CHARACTERS: (label) => t`${label} contains characters that are not allowed`,
  ONLY_SPACES: (label) => t`${label} must not be only spaces`,
  TAKEN: (label) => t`${label} is taken by another student of the school`,
  DUPLICATE_IN_FILE: (label, params) => {
    const firstRow = bound(params, 'firstRow');
    return t`${label} is also on row ${firstRow} of the file`;
  },
} satisfies Partial<Record<FieldErrorCode, (label: string, params: Params) => string>>;

type NamedCode = keyof typeof NAMED_TEXTS;

/** Codes that say it all themselves; functions, worded when asked. */
const OWN_TEXTS = {
  UNKNOWN_FIELD: () => t`This field is not part of the request: check its name and place. Nothing was changed.`,
  USERNAME_CHARACTERS: () => t`Account username may contain only letters, digits, dots, dashes and underscores`,
  PASSWORDS_DIFFER: () => t`The two new passwords do not match`,
  PASSWORD_UNCHANGED: () => t`The new password must be different from the current one`,
  WRONG_CURRENT_PASSWORD: () => t`Your current password is not correct`,
  CLASS_CODE_FORM: () => t`A class code is 8 letters and digits, like ABCD-EFGH`,
  CLASS_CODE_INVALID: () => t`This class code does not work`,
  INVITATION_CODE_FORM: () => t`This is not an invitation code: open the link you were given`,
  TEACHER_NOT_ACTIVE: () => t`Not an active teacher of the school`,
  ALREADY_IN_CLASS: () => t`The student is in this class`,
  DEADLINE_PAST: () => t`Deadline must be in the future`,
  DEADLINE_BEFORE_QUIZ: () => t`The deadline must be later than the quiz’s own`,
  NOT_IN_QUIZ: () => t`This question is not part of the quiz`,
  FILE_MISSING: (params) => (params?.kind === 'image' ? t`Choose an image.` : t`Please select a file.`),
  FILE_TYPE: () => t`Choose an image: PNG, JPEG, GIF or WebP.`,
  IMAGE_DESCRIPTION_MISSING: () => t`Describe the image for people who cannot see it`,
  EXTRA_CELLS: () => t`This row has more cells than the header has columns`,
  CHANGED: () => t`This changed elsewhere meanwhile; it has been reloaded`,
} satisfies Partial<Record<FieldErrorCode, (params: Params) => string>>;

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
  const own: ((params: Params) => string) | undefined = (
    OWN_TEXTS as Partial<Record<FieldErrorCode, (params: Params) => string>>
  )[code];
  return own === undefined ? problem.message : own(params);
}
