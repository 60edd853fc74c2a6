import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { QuestionType } from '#shared/question-types';

/**
 * The question types' names as a teacher reads them (the editor, the analytics, the CSV's
 * headers), translated at render: `i18n._(QUESTION_TYPE_MESSAGES[type])`. The shared
 * QUESTION_TYPE_LABELS stay English for the server and GIFT.
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
