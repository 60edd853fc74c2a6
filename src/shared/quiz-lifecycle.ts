import { z } from 'zod/mini';
import { classIdField, requiredText } from './fields.ts';
import { matchingPairsOf, type QuestionImage, type TypedQuestionInput } from './question-types.ts';
import { fileKeyOfQuizImageUrl } from './quiz-images.ts';
import { deadlineField, futureDeadlineField, QUIZ_LIMITS, quizBodySchema, type QuizQuestion } from './quizzes.ts';

/** The bodies of a quiz's edit, duplicate and delete (decision 036), apart so only their screens load them. */

/**
 * PUT /api/quizzes/{id} (decision 036): the whole quiz as add-quiz sends it, questions kept
 * by their `_id`. What may change once attempts exist the server decides.
 */
export const editQuizSchema = quizBodySchema(deadlineField, {
  /** The teacher's view's `version`: two editors never overwrite each other's changes (409 QUIZ_CHANGED). */
  version: z.number().check(z.int(), z.gte(1)),
});
export type EditQuiz = z.infer<typeof editQuizSchema>;
export type EditQuizInput = z.input<typeof editQuizSchema>;

/** A presented image (a signed address) as an edit sends it back: by its key. */
function storedImage(image: { url: string; alt: string } | undefined): { image?: QuestionImage } {
  const fileKey = image && fileKeyOfQuizImageUrl(image.url);
  return image && fileKey ? { image: { fileKey, alt: image.alt } } : {};
}

/**
 * A question of the teacher's view as an edit sends it: typed, with its `_id` and its options'
 * `_id`s, so the server keeps them (and the attempts that name them).
 */
export function editInputOf(question: QuizQuestion): TypedQuestionInput {
  const base = {
    _id: question._id,
    question_text: question.question_text,
    points: question.points,
    ...storedImage(question.image),
  };
  const options = (question.options ?? []).map((option) => ({
    _id: option._id,
    text: option.text,
    correct: option.correct ?? false,
    ...(option.weight !== undefined ? { weight: option.weight } : {}),
    ...storedImage(option.image),
  }));
  // Moodle's weights and partial answers (decision 043) go back as they came, or an edit loses them.
  const partialTexts = (question.partial ?? []).flatMap((answer) => ('text' in answer ? [answer] : []));
  const partialNumbers = (question.partial ?? []).flatMap((answer) => ('value' in answer ? [answer] : []));
  switch (question.type) {
    case 'single':
      return { ...base, type: 'single', options };
    case 'multiple':
      return { ...base, type: 'multiple', options, scoring: question.scoring ?? 'all-or-nothing' };
    case 'true-false':
      return { ...base, type: 'true-false', correct: question.correct ?? false };
    case 'short-text':
      return {
        ...base,
        type: 'short-text',
        accepted: question.accepted ?? [],
        ...(partialTexts.length > 0 ? { partial: partialTexts } : {}),
        ...(question.wildcards ? { wildcards: true } : {}),
      };
    case 'numeric':
      return {
        ...base,
        type: 'numeric',
        value: question.value ?? 0,
        tolerance: question.tolerance ?? 0,
        ...(partialNumbers.length > 0 ? { partial: partialNumbers } : {}),
      };
    case 'essay':
      return { ...base, type: 'essay', ...(question.guidance ? { guidance: question.guidance } : {}) };
    case 'matching':
      return { ...base, type: 'matching', pairs: matchingPairsOf(question.prompts ?? [], question.choices ?? []) };
    case 'description':
      return { ...base, type: 'description', points: 0 };
  }
}

/** POST /api/quizzes/{id}/duplicate: the copy's class, deadline and (optionally) title. */
export const duplicateQuizSchema = z.strictObject({
  classId: classIdField(),
  title: z.optional(requiredText(QUIZ_LIMITS.title)),
  deadline: futureDeadlineField,
});
export type DuplicateQuiz = z.infer<typeof duplicateQuizSchema>;

/** DELETE /api/quizzes/{id}: withResults=true deletes a quiz with attempts and their scores too. */
export const deleteQuizQuerySchema = z.object({
  withResults: z.pipe(
    z.optional(z.enum(['true', 'false'])),
    z.transform((value) => value === 'true'),
  ),
});
/** What a delete did: removed (no attempts), archived (attempts kept) or deleted with its results. */
export const deletedQuizSchema = z.strictObject({ outcome: z.enum(['deleted', 'archived', 'deleted-with-results']) });
export type DeletedQuiz = z.infer<typeof deletedQuizSchema>;
