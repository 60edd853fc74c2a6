import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { QuestionType } from '#shared/question-types';

/**
 * The question types' names as a teacher reads them (the editor, the analytics, the CSV's
 * headers), translated at render: `i18n._(QUESTION_TYPE_MESSAGES[type])`. They take the place
 * of the shared English QUESTION_TYPE_LABELS (issue 32), which nothing else reads.
 */
export const QUESTION_TYPE_MESSAGES: Record<QuestionType, MessageDescriptor> = {
  single: msg`Single choice`,
  multiple: msg`Multiple answers`,
  'true-false': msg`True or false`,
  'short-text': msg`Short text`,
  numeric: msg({ comment: 'A question type: the answer is a number', message: 'Number' }),
  matching: msg`Matching`,
  description: msg`Description (no answer)`,
  essay: msg`Essay (marked by hand)`,
};
