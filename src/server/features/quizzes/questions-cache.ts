import { isChoiceQuestion } from '#shared/question-types';
import { totalTextOf } from '#shared/quizzes';
import type { StoredQuestion } from '../../db/schema.ts';

/**
 * The questions of recently answered quizzes, with the version they were read at (an edit
 * bumps quizzes.version, decision 036), so the answer saves of an exam validate choices
 * without reading 20 questions of JSON each time. Bounded by the characters held, oldest
 * first out.
 *
 * Only the answer saves read it, and only to validate the choice before the one UPDATE of an
 * open attempt. That is safe with a copy another instance's edit has outdated only because
 * the structure is frozen once an attempt exists (the edit refuses to add, remove or reorder
 * questions or options then, and to change an option's text while an attempt is open, see
 * lifecycle.ts): every open attempt's quiz has the questions and options the copy has.
 * Scoring (the closings) and starts (the layout) never use it: they read the quiz under its
 * share lock. A save that the copy refuses takes the careful path, which reads the quiz and
 * replaces the copy with the newer version.
 */
export function createQuestionsCache(maxCharacters = 4_000_000) {
  const entries = new Map<string, { questions: StoredQuestion[]; version: number; size: number }>();
  let held = 0;
  return {
    get(quizId: string): StoredQuestion[] | undefined {
      const entry = entries.get(quizId);
      if (!entry) return undefined;
      entries.delete(quizId); // most recently used last
      entries.set(quizId, entry);
      return entry.questions;
    },
    set(quizId: string, version: number, questions: StoredQuestion[]) {
      // The texts, and JSON keys, ids and numbers around each question and option.
      const options = questions.reduce(
        (count, question) =>
          count +
          (isChoiceQuestion(question)
            ? question.options.length
            : question.type === 'matching'
              ? question.prompts.length + question.choices.length
              : 0),
        0,
      );
      const size = totalTextOf(questions) + questions.length * 128 + options * 48;
      const existing = entries.get(quizId);
      if (size > maxCharacters || (existing && existing.version >= version)) return;
      if (existing) {
        entries.delete(quizId);
        held -= existing.size;
      }
      entries.set(quizId, { questions, version, size });
      held += size;
      for (const [oldest, entry] of entries) {
        if (held <= maxCharacters) break;
        entries.delete(oldest);
        held -= entry.size;
      }
    },
  };
}
