import { randomBytes, randomInt } from 'node:crypto';
import {
  answerProblem,
  isAnswered,
  isChoiceQuestion,
  shuffledAroundDescriptions,
  type AnswerValue,
} from '#shared/question-types';
import { essaysToMark, scoreAttempt } from '#shared/question-scoring';
import { QUIZ_LIMITS, type AttemptEnding } from '#shared/quizzes';
import type { AttemptLayout, QuizAttemptRow, StoredQuestion } from '../../db/schema.ts';

/** Pure rules of an attempt: ids, shuffling, timing and scoring. No SQL here. */

const ID_BYTES = 6;

/**
 * `count` short opaque ids (8 base64url characters, 48 random bits) for new questions and
 * options, from one random draw (a draw per id was 0.7 ms of a 200-question quiz: randomBytes
 * is a system call each time). Random, so an option's id says nothing of where the teacher
 * wrote it (decision 039).
 */
export function newOpaqueIds(count: number): string[] {
  const bytes = randomBytes(ID_BYTES * count);
  return Array.from({ length: count }, (_, index) =>
    bytes.subarray(index * ID_BYTES, (index + 1) * ID_BYTES).toString('base64url'),
  );
}

/** A random order (Fisher–Yates): attempts' layouts, a live game's options (decision 066). */
export function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  // Fisher–Yates with a CSPRNG: the order must not be predictable from the quiz.
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = randomInt(index + 1);
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

/**
 * The order one student sees, drawn once when the attempt starts and kept for resumes: the
 * questions, the option ids of single and multiple choice, and the choice ids of a matching
 * question (its prompts keep their order, as in Moodle; true-false keeps True, False; the typed
 * types have no options). A description stays where the teacher put it, before the questions
 * that followed it: each stretch of questions between descriptions is shuffled on its own
 * (decision 045), which without descriptions is the whole quiz, as before.
 */
export function shuffleLayout(questions: StoredQuestion[]): AttemptLayout {
  return shuffledAroundDescriptions(questions, shuffled).map((question) => ({
    questionId: question._id,
    options: isChoiceQuestion(question)
      ? shuffled(question.options.map((option) => option._id))
      : question.type === 'matching'
        ? shuffled(question.choices.map((choice) => choice._id))
        : [],
  }));
}

const GRACE_MS = QUIZ_LIMITS.graceSeconds * 1000;

/** Answers that arrive after this moment no longer count. */
export const isPastGrace = (attempt: Pick<QuizAttemptRow, 'endsAt'>, now: Date) =>
  now.getTime() > attempt.endsAt.getTime() + GRACE_MS;

export const remainingSeconds = (attempt: Pick<QuizAttemptRow, 'endsAt'>, now: Date) =>
  Math.max(0, Math.ceil((attempt.endsAt.getTime() - now.getTime()) / 1000));

/** What a student sends for each question: the type's answer, or null (or nothing) to clear it. */
export type GivenAnswers = Record<string, AnswerValue | null | undefined>;

/**
 * Refuses an answer that names no question of the quiz, or that is not an answer to its
 * question (wrong type, unknown option: answerProblem): a saved answer is always scorable.
 */
export function invalidAnswer(questions: StoredQuestion[], answers: GivenAnswers) {
  const byId = new Map(questions.map((question) => [question._id, question]));
  for (const [questionId, value] of Object.entries(answers)) {
    const question = byId.get(questionId);
    const field = `answers.${questionId}`;
    if (!question) return { field, code: 'NOT_IN_QUIZ', message: 'This question is not part of the quiz' } as const;
    const problem = isAnswered(value) ? answerProblem(question, value) : undefined;
    if (problem) return { field, ...problem };
  }
  return undefined;
}

/** Drops cleared answers (null, an empty text or list) so only real answers are stored. */
export function chosenAnswers(answers: GivenAnswers): Record<string, AnswerValue> {
  return Object.fromEntries(
    Object.entries(answers).filter((entry): entry is [string, AnswerValue] => isAnswered(entry[1])),
  );
}

/** The questions a save clears (null, an empty text or list). */
export const clearedAnswers = (answers: GivenAnswers): string[] =>
  Object.keys(answers).filter((questionId) => !isAnswered(answers[questionId]));

export type AttemptClosing = {
  attemptId: string;
  studentId: string;
  answers: Record<string, AnswerValue>;
  /** Seconds from the start for the answers the closing itself brings (merged under the saved times). */
  answerTimes: Record<string, number>;
  submittedAt: Date;
  endedBy: AttemptEnding;
  score: number;
  accuracy: string;
  timeTakenSeconds: number;
  /** The answered essays, each with its place in the quiz: a teacher marks them (decision 046). */
  essays: { questionId: string; position: number }[];
};

/**
 * An attempt to close, decided before its row is locked: the answers it is scored on are
 * read only under the lock (writeClosings), so a save acknowledged before the close is
 * always among them. `submitted` holds the choices the closing itself carries (a submission
 * in time); they win over saved answers to the same questions, being the student's latest.
 */
export type ClosingRequest = {
  attemptId: string;
  studentId: string;
  /** Its quiz, whose questions are read under the quiz's share lock: an edit's new key, never a stale copy (decision 036). */
  quizId: string;
  submitted: Record<string, AnswerValue>;
  endedBy: AttemptEnding;
  now: Date;
};

/**
 * How an attempt ends. A student who submits in time is credited at that
 * moment; an attempt the timer ended is dated when its time ran out.
 */
export function closeAttempt(
  attempt: Pick<QuizAttemptRow, 'id' | 'studentId' | 'startedAt' | 'endsAt'>,
  questions: StoredQuestion[],
  answers: Record<string, AnswerValue>,
  endedBy: AttemptEnding,
  now: Date,
  /** The questions the closing's own submission answers. */
  submittedIds: string[] = [],
): AttemptClosing {
  const submittedAt = endedBy === 'time-up' || now > attempt.endsAt ? attempt.endsAt : now;
  const maxSeconds = Math.round((attempt.endsAt.getTime() - attempt.startedAt.getTime()) / 1000);
  const elapsed = Math.round((submittedAt.getTime() - attempt.startedAt.getTime()) / 1000);
  const timeTakenSeconds = Math.min(Math.max(elapsed, 0), maxSeconds);
  return {
    attemptId: attempt.id,
    studentId: attempt.studentId,
    answers,
    answerTimes: Object.fromEntries(submittedIds.map((id) => [id, timeTakenSeconds])),
    submittedAt,
    endedBy,
    ...scoreAttempt(questions, answers),
    timeTakenSeconds,
    essays: essaysToMark(questions, answers).map((question) => ({
      questionId: question._id,
      position: questions.indexOf(question),
    })),
  };
}
