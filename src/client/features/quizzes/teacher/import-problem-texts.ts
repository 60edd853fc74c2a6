import { t } from '@lingui/core/macro';
import type { ImportIssue, ImportProblemCode, ImportProblemParams } from '#shared/import-problems';
import { fieldErrorText, fieldLabelOf } from '../../../lib/field-error-texts.ts';
import { formatNumber, isolate } from '../../../lib/format.ts';

/**
 * The import dialog's words for what the GIFT and Aiken readers found (issue 32): one text per
 * code, in the reader's language. A `Record` over every code, so a new code without words is a
 * type error. The file's own text (an answer, a range) is isolated (U+2068…U+2069), so its
 * direction does not move the quotes or the sentence around it in Arabic.
 */
const percent = (weight: string) => formatNumber(Number(weight) / 100, { style: 'percent', maximumFractionDigits: 5 });

export const IMPORT_PROBLEM_TEXTS: { [C in ImportProblemCode]: (params: ImportProblemParams[C]) => string } = {
  FORMATTING_SHOWN_AS_PLAIN_TEXT: () => t`HTML and markdown formatting is shown as plain text`,
  ANSWER_NEEDS_PREFIX: () => t`Every answer must start with = (right) or ~ (wrong)`,
  NOT_A_NUMBER: (params) => {
    const value = isolate(params.value);
    return t`“${value}” is not a number`;
  },
  RANGE_GOES_DOWN: (params) => {
    const range = isolate(params.range);
    return t`The range ${range} goes down: write the smaller number first`;
  },
  FEEDBACK_NOT_KEPT: () => t`Feedback (#…) is not kept`,
  NUMBER_ANSWER_NEEDS_PREFIX: () => t`Every number answer must start with =`,
  NUMBER_WEIGHT_OUT_OF_RANGE: () => t`A number answer’s weight must be between 0 and 100%`,
  NO_FULL_NUMBER_ANSWER: () => t`No number answer is worth 100%`,
  PARTIAL_OVERLAPS_FULL: () => t`A partial answer before the full one overlaps it: put the 100% answer first`,
  NUMBER_ANSWER_SHADOWED: (params) => {
    const earlier = isolate(params.earlier);
    const later = isolate(params.later);
    const laterWeight = percent(params.laterWeight);
    return t`The answer “${earlier}” (0%) comes before “${later}” (${laterWeight}) and takes some of its numbers: Moodle gives the first, so put the answer worth more first`;
  },
  SHORT_WEIGHT_OUT_OF_RANGE: () => t`A short answer’s weight must be between 0 and 100%`,
  SHORT_ANSWER_SHADOWED: (params) => {
    const earlier = isolate(params.earlier);
    const later = isolate(params.later);
    const earlierWeight = percent(params.earlierWeight);
    const laterWeight = percent(params.laterWeight);
    return t`The answer “${earlier}” (${earlierWeight}) comes before “${later}” (${laterWeight}) and matches some of the same answers: Moodle gives the first, so put the answer worth more first`;
  },
  NO_FULL_SHORT_ANSWER: () => t`No short answer is worth 100%`,
  EMPTY_ANSWER_DROPPED: () => t`An empty answer is dropped, as Moodle does`,
  WEIGHT_OUT_OF_RANGE: () => t`A weight must be between -100% and 100%`,
  RIGHT_ANSWER_EMPTY: () => t`No right answer: the answer written with = was empty`,
  NO_POSITIVE_WEIGHT: () => t`No right answer: give at least one option a positive weight`,
  WEIGHTS_NOT_100: (params) => {
    const sum = formatNumber(params.sum / 100, { style: 'percent', maximumFractionDigits: 3 });
    return t`The positive weights add up to ${sum}, not 100%`;
  },
  WRONG_OPTIONS_TAKE_NOTHING: () =>
    t`Wrong options without a negative weight take nothing off: choosing every option earns full points, as in Moodle`,
  PAIR_NEEDS_PREFIX: () => t`Every pair must start with =`,
  PAIR_NEEDS_ARROW: () => t`Every pair of a matching question is written =prompt -> match`,
  GENERAL_FEEDBACK_NOT_KEPT: () => t`General feedback (####…) is not kept`,
  NOT_A_NUMBER_OF_POINTS: (params) => {
    const value = isolate(params.value);
    return t`“${value}” is not a number of points`;
  },
  CATEGORIES_IGNORED: () => t`Categories ($CATEGORY) are ignored`,
  TITLE_NOT_CLOSED: () => t`The title ::… is not closed with ::`,
  ANSWER_BLOCK_NOT_CLOSED: () => {
    // Braces are ICU's placeholders: the file's { and } go in as values.
    const [open, close] = ['{', '}'];
    return t`The answer block ${open} is not closed with ${close}`;
  },
  INVALID_QUESTION: (params) =>
    fieldErrorText(
      { field: params.field, code: params.fieldCode, params: params.fieldParams },
      fieldLabelOf(params.field),
    ),
  AIKEN_TOO_FEW_OPTIONS: () => t`A question needs at least two options (A. …, B. …)`,
  AIKEN_ANSWER_NOT_AN_OPTION: (params) => {
    const answer = isolate(params.answer);
    return t`ANSWER: “${answer}” is not one of the options’ letters`;
  },
  AIKEN_NO_ANSWER_LINE: () => t`The question has no ANSWER: line`,
  AIKEN_ANSWER_BEFORE_QUESTION: () => t`ANSWER: comes before any question`,
  AIKEN_OPTION_OUT_OF_ORDER: (params) => {
    const letter = isolate(params.letter);
    const expected = isolate(params.expected);
    return t`Option ${letter} comes where ${expected} should`;
  },
};

/** The words for one problem the readers found, in the active locale. */
export function importProblemText(issue: ImportIssue): string {
  return (IMPORT_PROBLEM_TEXTS[issue.code] as (params: ImportIssue['params']) => string)(issue.params);
}
