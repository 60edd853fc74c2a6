import { and, eq, isNull, sql } from 'drizzle-orm';
import { isChoiceQuestion, type AnswerValue } from '#shared/question-types';
import type { SaveAnswers, StudentQuizDetail, SubmitAttempt } from '#shared/quizzes';
import type { Database } from '../../db/client.ts';
import { cacheTags, type ReadCache } from '../../cache/read-cache.ts';
import { isStudentOfClass } from '../classes/records.ts';
import { quizAttempts, quizzes, type StoredQuestion } from '../../db/schema.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { FileAccess } from '../resources/file-access.ts';
import { accommodationOf, timingFor } from './accommodations.ts';
import { chosenAnswers, clearedAnswers, invalidAnswer, isPastGrace, shuffleLayout } from './attempt-rules.ts';
import type { QuizGrading } from './grading.ts';
import { presentStudentDetail } from './presenters.ts';
import { createQuestionsCache } from './questions-cache.ts';
import { createAnswerSaveBatches, mergedAnswers, mergedAnswerTimes } from './answer-save-batches.ts';
import {
  findAttempt,
  findQuiz,
  findQuizForStudent,
  imageSignerOf,
  quizSummaryColumns,
  marksOfOwnAttempt,
  withOwnTiming,
} from './quiz-records.ts';

/**
 * A student's attempt: the start (the server's timer and the shuffled layout), the answer
 * saves as the choices are made, and the submission, which grading closes and scores.
 */

/** A list of question ids as SQL text[] (the careful path; the prepared one takes a parameter). */
const textArray = (ids: string[]) =>
  sql`array[${sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  )}]`;

/**
 * The answers of a submission (update-student), by question id: `response` as the type's
 * answer, else SPEC §7's `selectedOption`, which SPEC §3 clients fill with the option's text:
 * on a single or multiple choice question it is read as the option of that id or, failing
 * that, of that text. Anything else is left as sent, for invalidAnswer to refuse.
 */
function submittedChoices(questions: StoredQuestion[], input: SubmitAttempt): Record<string, AnswerValue | null> {
  const byId = new Map(questions.map((question) => [question._id, question]));
  return Object.fromEntries(
    input.quiz.questions.map(({ _id, response, selectedOption }): [string, AnswerValue | null] => {
      if (response !== undefined && response !== null) return [_id, response];
      if (selectedOption === undefined || selectedOption === null || selectedOption === '') return [_id, null];
      const question = byId.get(_id);
      if (!question || !isChoiceQuestion(question)) return [_id, selectedOption];
      const option =
        question.options.find((candidate) => candidate._id === selectedOption) ??
        question.options.find((candidate) => candidate.text === selectedOption.trim());
      const id = option?._id ?? selectedOption;
      return [_id, question.type === 'multiple' ? [id] : id];
    }),
  );
}

export function createQuizAttempts(db: Database, cache: ReadCache, fileAccess: FileAccess, grading: QuizGrading) {
  const imagesFor = imageSignerOf(fileAccess);
  const now = () => new Date();
  const questionsCache = createQuestionsCache();
  const { commitClosings, currentAttempt } = grading;

  async function questionsOf(quizId: string): Promise<StoredQuestion[] | undefined> {
    const cached = questionsCache.get(quizId);
    if (cached) return cached;
    const [row] = await db
      .select({ questions: quizzes.questions, version: quizzes.version })
      .from(quizzes)
      .where(eq(quizzes.id, quizId))
      .limit(1);
    if (row) questionsCache.set(quizId, row.version, row.questions);
    return row?.questions;
  }

  const answerSaves = createAnswerSaveBatches(db);

  /**
   * Returns false when there is no such attempt (not started, submitted, time up): the caller
   * takes the careful path. No class check is needed here: the attempt exists only because its
   * start passed one. Written with the saves around it (answer-save-batches.ts).
   */
  function saveIntoOpenAttempt(studentId: string, quizId: string, input: SaveAnswers): Promise<boolean> {
    return answerSaves.save({
      quizId,
      studentId,
      cleared: clearedAnswers(input.answers),
      chosen: chosenAnswers(input.answers),
      now: now(),
    });
  }

  return {
    /**
     * Starts the server's timer, or resumes the attempt already running (idempotent). No
     * transaction: the start itself is one INSERT, and the unique index settles two tabs
     * starting at once (both see the one attempt).
     */
    async startAttempt(studentId: string, quizId: string): Promise<StudentQuizDetail> {
      const row = await findQuizForStudent(db, studentId, quizId);
      const existing = await currentAttempt(quizId, studentId);
      if (existing)
        return presentStudentDetail(
          await withOwnTiming(db, row, studentId),
          imagesFor(studentId),
          existing,
          now(),
          await marksOfOwnAttempt(db, row.quiz.questions, existing),
        );
      // The layout is drawn from the quiz read under its share lock, in the insert's transaction
      // (decision 036): an edit holds the row for update, so the attempt is laid out on the
      // questions before the edit or after it, and an edit that finds no attempt may still
      // change the structure because no start is between its read and its commit. The
      // student's own deadline and time are read under it too, so a concurrent accommodation
      // change (which locks the row for update) is either read here or moves this attempt's end.
      // The questions read just above serve when the locked row is still that version (an edit
      // bumps it): an exam's start then reads the quiz's text once, not twice.
      const { quiz, started } = await db.transaction(async (tx) => {
        const [locked] = await tx.select(quizSummaryColumns).from(quizzes).where(eq(quizzes.id, quizId)).for('share');
        if (!locked || locked.archivedAt) throw notFound('This quiz does not exist');
        const questions =
          locked.version === row.quiz.version
            ? row.quiz.questions
            : (await tx.select({ questions: quizzes.questions }).from(quizzes).where(eq(quizzes.id, quizId)))[0]!
                .questions;
        const quiz = timingFor({ ...locked, questions }, await accommodationOf(tx, quizId, studentId));
        const startedAt = now();
        if (quiz.deadline <= startedAt) throw new AppError('QUIZ_CLOSED', 'The deadline of this quiz has passed');
        const [started] = await tx
          .insert(quizAttempts)
          .values({
            quizId,
            studentId,
            startedAt,
            endsAt: new Date(startedAt.getTime() + quiz.maxTimeMinutes * 60_000),
            layout: shuffleLayout(quiz.questions),
          })
          .onConflictDoNothing()
          .returning();
        return { quiz, started };
      });
      if (started) await cache.changed([cacheTags.studentAttempts(studentId)]);
      return presentStudentDetail(
        { ...row, quiz },
        imagesFor(studentId),
        started ?? (await findAttempt(db, quizId, studentId)),
        now(),
      );
    },

    /**
     * Saves choices as the student makes them; refused once the time and grace are over.
     * The usual case (valid choices, attempt open) is one UPDATE; anything else goes the
     * careful way below, which finds the precise answer (404, 403, 409, 400) and closes an
     * attempt whose time ran out.
     */
    async saveAnswers(studentId: string, quizId: string, input: SaveAnswers): Promise<{ savedAt: string }> {
      const questions = await questionsOf(quizId);
      if (
        questions &&
        !invalidAnswer(questions, input.answers) &&
        (await saveIntoOpenAttempt(studentId, quizId, input))
      )
        return { savedAt: now().toISOString() };
      // No transaction: a time-up closing commits before the 409 says so, and the update's
      // own condition (still open) settles a race with a submission or the sweep.
      const row = await findQuizForStudent(db, studentId, quizId);
      questionsCache.set(quizId, row.quiz.version, row.quiz.questions);
      const attempt = await currentAttempt(quizId, studentId);
      if (!attempt) throw conflict('QUIZ_NOT_STARTED', 'Start the quiz before answering');
      if (attempt.submittedAt) {
        throw conflict(
          'QUIZ_ALREADY_SUBMITTED',
          attempt.endedBy === 'time-up'
            ? 'Time is up: your saved answers were submitted'
            : 'You have already submitted this quiz',
        );
      }
      const problem = invalidAnswer(row.quiz.questions, input.answers);
      if (problem) throw badRequest(`${problem.field}: ${problem.message}`, [problem]);
      const chosen = JSON.stringify(chosenAnswers(input.answers));
      const saved = await db
        .update(quizAttempts)
        .set({
          answers: mergedAnswers(textArray(clearedAnswers(input.answers)), chosen),
          answerTimes: mergedAnswerTimes(chosen, now().toISOString()),
        })
        .where(and(eq(quizAttempts.id, attempt.id), isNull(quizAttempts.endedBy)))
        .returning({ id: quizAttempts.id });
      // Closed by a submission or the sweep since it was read: nothing was saved, so no 2xx.
      if (saved.length === 0) throw conflict('QUIZ_ALREADY_SUBMITTED', 'You have already submitted this quiz');
      return { savedAt: now().toISOString() };
    },

    /**
     * update-student (SPEC §7): ends the attempt and scores it on the server.
     * In time (grace included), the submitted choices count; later, only the
     * answers saved in time. Client score, accuracy and times are never read.
     */
    async submitAttempt(studentId: string, input: SubmitAttempt): Promise<StudentQuizDetail> {
      const quizId = input.quiz._id;
      const row = await findQuiz(db, quizId);
      const attempt = await findAttempt(db, quizId, studentId);
      if (!attempt) {
        // Only a start that passed the class check makes an attempt; without one, say which rule applies.
        if (!(await isStudentOfClass(db, studentId, row.quiz.classId)))
          throw forbidden('This quiz is for another class');
        throw conflict('QUIZ_NOT_STARTED', 'Start the quiz before submitting it');
      }
      if (attempt.submittedAt) throw conflict('QUIZ_ALREADY_SUBMITTED', 'You have already submitted this quiz');
      const moment = now();
      let submitted: Record<string, AnswerValue> = {};
      if (!isPastGrace(attempt, moment)) {
        const choices = submittedChoices(row.quiz.questions, input);
        const problem = invalidAnswer(row.quiz.questions, choices);
        if (problem) throw badRequest(`${problem.field}: ${problem.message}`, [problem]);
        submitted = chosenAnswers(choices);
      }
      // At or after the end (the page's own submission at 0:00, or a late one) the timer ended it.
      const endedBy = moment >= attempt.endsAt ? 'time-up' : 'submitted';
      // Only the writes share a transaction (student lock, attempt lock and its saved answers,
      // attempt, averages); a racing submit or sweep that closed the attempt first makes this
      // one change nothing.
      const closed = await commitClosings([
        { attemptId: attempt.id, studentId, quizId, submitted, endedBy, now: moment },
      ]);
      const closing = closed.get(attempt.id);
      if (!closing) throw conflict('QUIZ_ALREADY_SUBMITTED', 'You have already submitted this quiz');
      const { answers, submittedAt, score, accuracy, timeTakenSeconds, essays } = closing;
      // Its answered essays have just been put to marking (decision 046).
      const marks = new Map(essays.map((essay) => [essay.questionId, { points: null, comment: null }]));
      return presentStudentDetail(
        await withOwnTiming(db, row, studentId),
        imagesFor(studentId),
        { ...attempt, answers, submittedAt, endedBy, score, accuracy, timeTakenSeconds, essaysAwaiting: essays.length },
        now(),
        marks,
      );
    },
  };
}

export type QuizAttempts = ReturnType<typeof createQuizAttempts>;
