import { plural, t } from '@lingui/core/macro';
import type { FieldProblem } from '#shared/api';
import type { FieldErrorCode, FieldErrorParams } from '#shared/field-error-codes';
import { formatNumber } from './format.ts';

/**
 * What a person reads for a field's problem (issue 32 point 3, decision 026's second addendum):
 * the client words the code and parameters the schema or the server gave, never the server's
 * sentence, so the words can follow the reader's language. Where a screen or its test pins a
 * text, it is this one.
 */

/** A problem to word: a field error, from the server or from the shared schema on the client. */
export type { FieldProblem };

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
  question_text: () => t`Question text`,
  alt: () => t`Image description (alt text)`,
  search: () => t`Search`,
  deadline: () => t`Deadline`,
  tolerance: () => t`Tolerance`,
  points: () => t`Points`,
  maxTime: () => t`Maximum time`,
};

/** A dotted path's named parts, list indexes left out: `tasks.3.text` is tasks, text. */
const namesOf = (field: string) => field.split('.').filter((part) => !/^\d+$/.test(part));

/** A dotted path's last named part: the field's own name. */
const lastNameOf = (field: string) => namesOf(field).at(-1) ?? '';

/**
 * Labels of a name that means different things in different lists, by the list: a task's `text`
 * is its text, a question option's is the option (`quiz.questions.0.options.2.text`).
 */
const LABELS_IN_LIST: Readonly<Record<string, Readonly<Record<string, () => string>>>> = {
  tasks: { text: () => t`Task text` },
  options: { text: () => t`Option` },
};

/** The default label of a dotted path: by its list and its name, else by its name. */
export const fieldLabelOf = (field: string): string | undefined => {
  const names = namesOf(field);
  const name = names.at(-1) ?? '';
  return (LABELS_IN_LIST[names.at(-2) ?? '']?.[name] ?? FIELD_LABELS[name])?.();
};

type Params = FieldErrorParams | undefined;
const number = (params: Params, key: string) => Number(params?.[key]);
/** A bound in the locale's digits ("1,000", "١٬٠٠٠"). */
const bound = (params: Params, key: string) => formatNumber(number(params, key));
/** A list parameter (column headers, video sites' names): names, not words, joined as the schema's English joins them. */
const names = (params: Params, key: string) => {
  const value = params?.[key];
  return Array.isArray(value) ? value.join(', ') : String(value ?? '');
};

const chooseClass = () => t`Choose one of your classes`;

/**
 * A field's own words for a code, where they say more than the code's (by the field's last named
 * part): the schemas carry codes only (issue 32 point 3), and "Choose one of your classes" says
 * what to do where "not in the form it needs" does not.
 */
const FIELD_TEXTS: Readonly<Record<string, Partial<Record<FieldErrorCode, (params: Params) => string>>>> = {
  classId: { REQUIRED: chooseClass, WRONG_TYPE: chooseClass, INVALID_FORMAT: chooseClass },
  correct: { WRONG_TYPE: () => t`Choose whether the statement is true or false` },
  accepted: { TOO_FEW: () => t`Add at least one accepted answer` },
  options: {
    NOT_UNIQUE: () => t`Options of a question must differ`,
    TOO_FEW: (params) => {
      const minimum = number(params, 'minimum');
      return plural(minimum, {
        one: 'A question needs at least # option',
        other: 'A question needs at least # options',
      });
    },
    TOO_MANY: (params) => {
      const maximum = number(params, 'maximum');
      return plural(maximum, {
        one: 'A question can have at most # option',
        other: 'A question can have at most # options',
      });
    },
  },
  pairs: {
    TOO_FEW: (params) => {
      const minimum = number(params, 'minimum');
      return plural(minimum, {
        one: 'A matching question needs at least # pair',
        other: 'A matching question needs at least # pairs',
      });
    },
    TOO_MANY: (params) => {
      const maximum = number(params, 'maximum');
      return plural(maximum, {
        one: 'A matching question can have at most # pair',
        other: 'A matching question can have at most # pairs',
      });
    },
  },
  // In minutes, which the bound alone does not say.
  maxTime: {
    TOO_SMALL: (params) => {
      const minimum = number(params, 'minimum');
      return plural(minimum, {
        one: 'Maximum time must be at least # minute',
        other: 'Maximum time must be at least # minutes',
      });
    },
    TOO_BIG: (params) => {
      const maximum = number(params, 'maximum');
      return plural(maximum, {
        one: 'Maximum time must be at most # minute',
        other: 'Maximum time must be at most # minutes',
      });
    },
  },
};

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
  NOT_ANSWERABLE: () => t`A description takes no answer`,
  FILE_MISSING: (params) => (params?.kind === 'image' ? t`Choose an image.` : t`Please select a file.`),
  FILE_TYPE: () => t`Choose an image: PNG, JPEG, GIF or WebP.`,
  IMAGE_DESCRIPTION_MISSING: () => t`Describe the image for people who cannot see it`,
  EXTRA_CELLS: () => t`This row has more cells than the header has columns`,
  CHANGED: () => t`This changed elsewhere meanwhile; it has been reloaded`,
  // A class list's file (src/shared/roster-import.ts), worded as the roster import dialog words it.
  NOT_TEXT: () =>
    t`This file is not a text CSV file. In your spreadsheet choose "Save as" or "Download" as CSV (UTF-8) and choose that file.`,
  EMPTY_FILE: () => t`The file is empty.`,
  UNCLOSED_QUOTE: (params) => {
    const line = bound(params, 'line');
    return t({
      comment: '{line} is a line number of the file',
      message: `A quoted cell that starts on line ${line} is never closed: check the quotes (") there.`,
    });
  },
  DUPLICATE_COLUMN: (params) => {
    const column = String(params?.column ?? '');
    return t({
      comment: '{column} is a column header of the file, in English as the file writes it',
      message: `The header names the column "${column}" twice.`,
    });
  },
  MISSING_COLUMNS: (params) => {
    const missing = names(params, 'missing');
    const expected = names(params, 'expected');
    return t({
      comment: '{missing} and {expected} are lists of column headers of the file, in English as the file writes them',
      message: `The first line must name the columns. Missing: ${missing}. Expected: ${expected} (Password is optional).`,
    });
  },
  NO_STUDENTS: () => t`The file has a header but no students.`,
  TOO_MANY_ROWS: (params) => {
    const rows = number(params, 'rows');
    const max = bound(params, 'max');
    return plural(rows, {
      one: `The file has # student: at most ${max} can be imported at once. Split it into smaller files.`,
      other: `The file has # students: at most ${max} can be imported at once. Split it into smaller files.`,
    });
  },
  // The quiz editor's rules (src/shared/quizzes.ts, question-types.ts).
  CORRECT_ANSWER_MISSING: () => t`Choose the correct answer`,
  ANSWER_NOT_AN_OPTION: () => t`The correct answer must be one of the options`,
  OPTION_EMPTY: () => t`An option needs text or an image`,
  ONE_CORRECT_OPTION: () => t`Mark exactly one option as correct`,
  NO_CORRECT_OPTION: () => t`Mark at least one option as correct`,
  POINTS_NOT_HALVES: () => t`Points go in halves: 1, 1.5, 2…`,
  NUMBER_OUT_OF_RANGE: (params) => {
    const maximum = bound(params, 'maximum');
    return t`The number must be between -${maximum} and ${maximum}`;
  },
  MATCH_MISSING: () => t`Each prompt needs its match`,
  MATCH_WITH_PROMPT_ID: () => t`An extra match has no prompt id`,
  PROMPT_MISSING: () => t`Write at least one prompt`,
  TOO_FEW_MATCHES: (params) => {
    const minimum = number(params, 'minimum');
    return plural(minimum, {
      one: 'Give at least one match to choose from',
      2: 'Give at least two different matches to choose from',
      other: 'Give at least # different matches to choose from',
    });
  },
  NO_QUESTIONS: () => t`Add at least one question: descriptions alone have nothing to answer`,
  QUIZ_TOO_LONG: (params) => {
    const maximum = bound(params, 'maximum');
    return t`The quiz is too long: at most ${maximum} characters of questions and options in all`;
  },
  TOO_MANY_ESSAYS: (params) => {
    const maximum = number(params, 'maximum');
    return plural(maximum, {
      one: 'A quiz can have at most # essay question',
      other: 'A quiz can have at most # essay questions',
    });
  },
  REVIEW_REVEALS_SCORE: () =>
    t`Correct answers shown right after submitting reveal the score: show the score then too, or the answers later`,
  NO_ACCOMMODATION: () => t`Give extra minutes, extra time in percent or a later deadline`,
  // Resources and meetings (src/shared/resources.ts, meetings.ts).
  TAG_TOO_LONG: (params) => {
    const maximum = number(params, 'maximum');
    return plural(maximum, {
      one: 'Each tag must be at most # character',
      other: 'Each tag must be at most # characters',
    });
  },
  VIDEO_LINK_PROVIDER: (params) => {
    const providers = names(params, 'providers');
    return t({
      comment: '{providers} are the names of video sites: YouTube, Vimeo, Wistia',
      message: `Link must be an https address of ${providers}`,
    });
  },
  TURN_CREDENTIALS_MISSING: () => t`A TURN server needs a username and a credential`,
  // Assignments (src/shared/assignments.ts).
  PUBLISH_AFTER_DUE: () => t`The publish time must come before the due time`,
  DATE_OUT_OF_RANGE: (params) => {
    // Years as years: no group separator ("2100", not "2,100").
    const minimum = String(number(params, 'minimum'));
    const maximum = String(number(params, 'maximum'));
    return t`Choose a date between the years ${minimum} and ${maximum}`;
  },
  ATTACHMENT_UNAVAILABLE: () => t`This resource is not yours nor of the chosen classes: choose another one`,
  SCRIPT_IN_TEXT: () =>
    t`Scripts, frames and event handlers are not allowed here. To show code, put it in a code block.`,
  NO_CLASS_CHOSEN: () => t`Choose at least one class`,
  NOT_IN_CLASS: () => t`Choose one of the classes you teach`,
} satisfies Partial<Record<FieldErrorCode, (params: Params) => string>>;

/** The generic words of a code, for a field whose name is unknown or a check without words of its own. */
const GENERIC_TEXTS = {
  REQUIRED: () => t`This field is required`,
  TOO_SHORT: (params) => {
    const minimum = number(params, 'minimum');
    return plural(minimum, { one: 'Write at least # character', other: 'Write at least # characters' });
  },
  TOO_LONG: (params) => {
    const maximum = number(params, 'maximum');
    return plural(maximum, { one: 'Write at most # character', other: 'Write at most # characters' });
  },
  // A strict bound (`inclusive: false`, zod's gt and lt) is not itself allowed.
  TOO_SMALL: (params) => {
    const minimum = bound(params, 'minimum');
    return params?.inclusive === false
      ? t`The value must be more than ${minimum}`
      : t`The value must be at least ${minimum}`;
  },
  TOO_BIG: (params) => {
    const maximum = bound(params, 'maximum');
    return params?.inclusive === false
      ? t`The value must be less than ${maximum}`
      : t`The value must be at most ${maximum}`;
  },
  TOO_FEW: (params) => {
    const minimum = number(params, 'minimum');
    return plural(minimum, { one: 'Give at least # entry', other: 'Give at least # entries' });
  },
  TOO_MANY: (params) => {
    const maximum = number(params, 'maximum');
    return plural(maximum, { one: 'Give at most # entry', other: 'Give at most # entries' });
  },
  NOT_A_NUMBER: () => t`The value must be a number`,
  NOT_WHOLE_NUMBER: () => t`The value must be a whole number`,
  WRONG_TYPE: () => t`This field is required`,
  INVALID_EMAIL: () => t`Write a valid email address`,
  INVALID_FORMAT: () => t`This value is not in the form it needs`,
  INVALID_CHOICE: () => t`Choose one of the options`,
  FORBIDDEN_CHARACTERS: () => t`The text contains characters that are not allowed`,
  ONLY_SPACES: () => t`The text must not be only spaces`,
  NOT_UNIQUE: () => t`Each entry must be different`,
  TAKEN: () => t`This value is already taken`,
  DUPLICATE_IN_FILE: (params) => {
    const firstRow = bound(params, 'firstRow');
    return t`The same value is on row ${firstRow} of the file`;
  },
} satisfies Partial<Record<FieldErrorCode, (params: Params) => string>>;

/** A problem without words of the client's own: its code's generic words. */
function genericText(problem: FieldProblem): string {
  const generic: ((params: Params) => string) | undefined = (
    GENERIC_TEXTS as Partial<Record<FieldErrorCode, (params: Params) => string>>
  )[problem.code];
  return generic ? generic(problem.params) : t`This value is not valid`;
}

const isNamed = (code: FieldErrorCode): code is NamedCode => Object.hasOwn(NAMED_TEXTS, code);

/** Whether a code's words name the field (so a form's own label for it changes them). */
export const isSaidByName = (code: FieldErrorCode) => isNamed(code);

/**
 * The words for one field problem. `label` is the field's name on the form (else FIELD_LABELS').
 * A problem the client has no words of its own for (a check without its own code, a bound of a
 * field without a known name) gets generic words in the reader's language (genericText).
 */
export function fieldErrorText(problem: FieldProblem, label = fieldLabelOf(problem.field)): string {
  const { code, params } = problem;
  const fieldOwn = FIELD_TEXTS[lastNameOf(problem.field)]?.[code];
  if (fieldOwn) return fieldOwn(params);
  if (isNamed(code)) return label ? NAMED_TEXTS[code](label, params) : genericText(problem);
  const own: ((params: Params) => string) | undefined = (
    OWN_TEXTS as Partial<Record<FieldErrorCode, (params: Params) => string>>
  )[code];
  return own === undefined ? genericText(problem) : own(params);
}
