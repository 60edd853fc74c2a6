import { z } from 'zod';
import { classIdField, requiredText } from './fields.ts';
import { deadlineField, futureDeadlineField, QUIZ_LIMITS, quizBodySchema } from './quizzes.ts';

/** The bodies of a quiz's edit, duplicate and delete (decision 036), apart so only their screens load them. */

/**
 * PUT /api/quizzes/{id} (decision 036): the whole quiz as add-quiz sends it, questions kept
 * by their `_id`. What may change once attempts exist the server decides.
 */
export const editQuizSchema = quizBodySchema(deadlineField);
export type EditQuiz = z.infer<typeof editQuizSchema>;

/** POST /api/quizzes/{id}/duplicate: the copy's class, deadline and (optionally) title. */
export const duplicateQuizSchema = z.strictObject({
  classId: classIdField(),
  title: requiredText('Title', QUIZ_LIMITS.title).optional(),
  deadline: futureDeadlineField,
});
export type DuplicateQuiz = z.infer<typeof duplicateQuizSchema>;

/** DELETE /api/quizzes/{id}: withResults=true deletes a quiz with attempts and their scores too. */
export const deleteQuizQuerySchema = z.object({
  withResults: z
    .enum(['true', 'false'], { error: 'withResults must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});
/** What a delete did: removed (no attempts), archived (attempts kept) or deleted with its results. */
export const deletedQuizSchema = z.strictObject({ outcome: z.enum(['deleted', 'archived', 'deleted-with-results']) });
export type DeletedQuiz = z.infer<typeof deletedQuizSchema>;
