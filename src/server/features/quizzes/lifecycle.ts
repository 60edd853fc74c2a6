import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DeletedQuiz, DuplicateQuiz, EditQuiz } from '#shared/quiz-lifecycle';
import {
  imageKeysOf,
  isChoiceQuestion,
  questionCountOf,
  toStoredQuestions,
  type TypedQuestion,
} from '#shared/question-types';
import { totalPointsOf } from '#shared/question-scoring';
import type { TeacherQuizSummary } from '#shared/quizzes';
import type { Database } from '../../db/client.ts';
import { cacheTags, type ReadCache } from '../../cache/read-cache.ts';
import { requireTaughtClass } from '../classes/records.ts';
import {
  classes,
  liveGames,
  livePlayers,
  quizAttempts,
  quizRegrades,
  quizzes,
  teachers,
  type QuizRow,
  type StoredQuestion,
} from '../../db/schema.ts';
import { accountRemoved, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import { newOpaqueIds } from './attempt-rules.ts';
import { presentTeacherSummary } from './presenters.ts';
import { refreshClosesAt } from './accommodations.ts';
import { isScoreReleased } from './review-rules.ts';
import { assertQuizImagesExist } from './quiz-images.ts';
import { insertQuiz } from './authoring.ts';
import { lockStudents, recomputeAverages, rescoreSubmittedAttempts, scoresChangedTags } from './grading.ts';
import type { Queryable } from './quiz-records.ts';

/**
 * A quiz's life after publishing (decision 036): edit (with the regrade of a changed key),
 * duplicate, delete or archive. Every write locks the quiz's row for update first, the order
 * every writer follows (quizzes, then students, then attempts; see writeClosings): a closing
 * or a start, which take it shared, comes wholly before or after.
 *
 * The two functions below are all that knows the question's shape: the question types adapt them.
 */

/**
 * A choice question's option ids in order; a matching question's prompt ids in order and its
 * choice ids (their order is the attempt's: shuffled anyway); none for the other types.
 */
const optionIdsOf = (question: StoredQuestion) =>
  isChoiceQuestion(question)
    ? question.options.map((option) => option._id).join('\u0000')
    : question.type === 'matching'
      ? [
          ...question.prompts.map((prompt) => prompt._id),
          '|',
          ...question.choices.map((choice) => choice._id).sort(),
        ].join('\u0000')
      : '';

/**
 * The structure: question ids and order, each question's type, and a choice question's option
 * ids and order. Attempts' layouts and answers name these, so it is refused once attempts exist.
 * Texts, images and the key are not structure: they change freely (option ids stay).
 */
export function structureChanged(before: StoredQuestion[], after: StoredQuestion[]): boolean {
  if (before.length !== after.length) return true;
  return before.some((old, index) => {
    const next = after[index]!;
    return old._id !== next._id || old.type !== next.type || optionIdsOf(old) !== optionIdsOf(next);
  });
}

/** What a question's answers are scored by: its points and its type's key. */
function keyOf(question: StoredQuestion): unknown[] {
  switch (question.type) {
    case 'single':
      return [question.points, question.options.map((option) => [option.correct, option.weight ?? null])];
    case 'multiple':
      return [
        question.points,
        question.scoring,
        question.options.map((option) => [option.correct, option.weight ?? null]),
      ];
    case 'true-false':
      return [question.points, question.correct];
    // Partial answers and weights (decision 043) and wildcards (decision 049) score too. Their
    // fields are listed in a fixed order: jsonb gives a stored object's keys in its own order.
    case 'short-text':
      return [
        question.points,
        question.accepted,
        (question.partial ?? []).map((answer) => [answer.text, answer.weight]),
        question.wildcards === true,
      ];
    case 'numeric':
      return [
        question.points,
        question.value,
        question.tolerance,
        (question.partial ?? []).map((answer) => [answer.value, answer.tolerance, answer.weight]),
      ];
    case 'matching':
      return [question.points, question.prompts.map((prompt) => prompt.match)];
    // An essay's marks are the teacher's (decision 046): only its points move them (capped by a regrade).
    case 'essay':
    case 'description':
      return [question.points];
  }
}

/** The key changed (correct options and weights, scoring, the true-false answer, accepted and partial answers, wildcards, value, tolerance, points). Needs the same structure. */
export function keyChanged(before: StoredQuestion[], after: StoredQuestion[]): boolean {
  return before.some((old, index) => JSON.stringify(keyOf(old)) !== JSON.stringify(keyOf(after[index]!)));
}

/**
 * The edit's questions: kept ones by their `_id`, and their options that name an id the
 * question has; new questions and options take new random ids (decision 039).
 */
function editedQuestions(current: StoredQuestion[], inputs: TypedQuestion[]): StoredQuestion[] {
  const known = new Set(current.map((question) => question._id));
  const seen = new Set<string>();
  inputs.forEach((input, index) => {
    if (input._id === undefined) return;
    if (!known.has(input._id) || seen.has(input._id))
      throw badRequest(`quiz.questions.${index}._id: This question is not part of the quiz`, [
        { field: `quiz.questions.${index}._id`, code: 'NOT_IN_QUIZ', message: 'This question is not part of the quiz' },
      ]);
    seen.add(input._id);
  });
  return toStoredQuestions(inputs, newOpaqueIds, current);
}

export type EditedQuiz = { quiz: TeacherQuizSummary; regrade: { attemptsChanged: number } | null };

export function createQuizLifecycle(db: Database, cache: ReadCache) {
  const now = () => new Date();

  /** The quiz, locked for update, if the caller created it (the analytics read's rule). */
  async function lockOwnQuiz(tx: Queryable, teacherId: string, quizId: string): Promise<QuizRow> {
    const [quiz] = await tx.select().from(quizzes).where(eq(quizzes.id, quizId)).for('update');
    if (!quiz) throw notFound('This quiz does not exist');
    if (quiz.createdByTeacherId !== teacherId) throw forbidden('Only the teacher who created this quiz can change it');
    return quiz;
  }

  async function attemptCounts(tx: Queryable, quizId: string) {
    const [counts] = await tx
      .select({
        started: sql<number>`count(*)::int`,
        open: sql<number>`(count(*) filter (where ${quizAttempts.endedBy} is null))::int`,
        submitted: sql<number>`(count(*) filter (where ${quizAttempts.submittedAt} is not null))::int`,
      })
      .from(quizAttempts)
      .where(eq(quizAttempts.quizId, quizId));
    return counts!;
  }

  async function summaryOf(tx: Queryable, quiz: Omit<QuizRow, 'questions'>, attemptCount: number) {
    const [names] = await tx
      .select({ authorName: teachers.name, className: classes.name })
      .from(quizzes)
      .innerJoin(teachers, eq(teachers.id, quizzes.createdByTeacherId))
      .innerJoin(classes, eq(classes.id, quizzes.classId))
      .where(eq(quizzes.id, quiz.id));
    if (!names) throw accountRemoved();
    return presentTeacherSummary({ quiz, ...names }, attemptCount);
  }

  return {
    /**
     * PUT /api/quizzes/{id}. No attempt: anything changes. With attempts: wording, deadline,
     * time, review options and the key; the structure and the class stay (409). A changed key
     * regrades every submitted attempt in the same transaction and records the regrade.
     */
    async editQuiz(teacherId: string, quizId: string, input: EditQuiz): Promise<EditedQuiz> {
      const outcome = await db.transaction(async (tx) => {
        const quiz = await lockOwnQuiz(tx, teacherId, quizId);
        if (quiz.archivedAt) throw conflict('QUIZ_ARCHIVED', 'This quiz is archived: it can no longer be changed');
        // Read under the row lock: of two edits made on one version, the second is refused.
        if (input.version !== quiz.version)
          throw conflict(
            'QUIZ_CHANGED',
            'This quiz was changed elsewhere since you opened it. Reload it to see the changes, then edit again',
          );
        const counts = await attemptCounts(tx, quizId);
        const deadline = new Date(input.deadline);
        if (deadline.getTime() !== quiz.deadline.getTime() && deadline <= now())
          throw badRequest('deadline: Deadline must be in the future', [
            { field: 'deadline', code: 'DEADLINE_PAST', message: 'Deadline must be in the future' },
          ]);
        const questions = editedQuestions(quiz.questions, input.quiz.questions);
        const frozen = counts.started > 0;
        const sameStructure = !structureChanged(quiz.questions, questions);
        if (frozen) {
          if (!sameStructure)
            throw conflict(
              'QUIZ_HAS_ATTEMPTS',
              'Students have started this quiz: questions and options can no longer be added, removed or reordered, nor a type changed. Duplicate it to make a new version',
            );
          if (input.classId !== quiz.classId)
            throw conflict('QUIZ_HAS_ATTEMPTS', 'Students have started this quiz: it stays with its class', {
              field: 'classId',
              code: 'NOT_ALLOWED',
            });
        }
        await assertQuizImagesExist(tx, imageKeysOf(questions));
        // A new class must be one of the caller's active ones (decision 031), checked here.
        if (input.classId !== quiz.classId)
          await requireTaughtClass(tx, teacherId, input.classId, { mustBeActive: true });
        const timing = { deadline, maxTimeMinutes: input.maxTime };
        const review = { reviewAnswers: input.reviewAnswers, reviewScore: input.reviewScore };
        await tx
          .update(quizzes)
          .set({
            title: input.title,
            classId: input.classId,
            ...timing,
            ...review,
            background: input.quiz.background,
            questions,
            questionCount: questionCountOf(questions),
            totalPoints: totalPointsOf(questions),
            version: sql`${quizzes.version} + 1`,
          })
          .where(eq(quizzes.id, quizId));
        // The close follows the new deadline and time, with the accommodations (under the row's lock).
        const closesAt = await refreshClosesAt(tx, quizId);
        // A released score stays released (students have seen it); one the edit releases counts now.
        const released = quiz.scoresReleased || isScoreReleased({ ...timing, ...review, closesAt }, now());
        const { questions: _questions, ...updated } = (
          await tx.update(quizzes).set({ scoresReleased: released }).where(eq(quizzes.id, quizId)).returning()
        )[0]!;
        const regrades = frozen && sameStructure && keyChanged(quiz.questions, questions);
        let regrade: { attemptsChanged: number } | null = null;
        const recompute = new Set<string>();
        if (regrades && counts.submitted > 0) {
          const regraded = await rescoreSubmittedAttempts(tx, quizId, questions);
          regraded.changedStudents.forEach((student) => recompute.add(student));
          await tx
            .insert(quizRegrades)
            .values({ quizId, teacherId, regradedAt: now(), attemptsChanged: regraded.attemptsChanged });
          regrade = { attemptsChanged: regraded.attemptsChanged };
        }
        if (released !== quiz.scoresReleased) {
          const attempters = await tx
            .select({ studentId: quizAttempts.studentId })
            .from(quizAttempts)
            .where(and(eq(quizAttempts.quizId, quizId), isNotNull(quizAttempts.submittedAt)));
          attempters.forEach((row) => recompute.add(row.studentId));
        }
        if (recompute.size > 0) {
          await lockStudents(tx, [...recompute]);
          await recomputeAverages(tx, [...recompute]);
        }
        const summary = await summaryOf(tx, updated, counts.submitted);
        return { summary, regrade, recompute: [...recompute], classIds: [quiz.classId, input.classId] };
      });
      // After the commit (as commitClosings): no reader keeps the old state under the new versions.
      await cache.changed([
        ...new Set(outcome.classIds.map(cacheTags.classQuizzes)),
        ...(outcome.recompute.length > 0 ? scoresChangedTags(outcome.recompute) : []),
      ]);
      return { quiz: outcome.summary, regrade: outcome.regrade };
    },

    /** POST /api/quizzes/{id}/duplicate: the same questions (ids kept) for one of the caller's active classes. */
    async duplicateQuiz(teacherId: string, quizId: string, input: DuplicateQuiz): Promise<TeacherQuizSummary> {
      const copy = await db.transaction(async (tx) => {
        const [source] = await tx.select().from(quizzes).where(eq(quizzes.id, quizId));
        if (!source) throw notFound('This quiz does not exist');
        if (source.createdByTeacherId !== teacherId)
          throw forbidden('Only the teacher who created this quiz can duplicate it');
        const [teacher] = await tx
          .select({ subject: teachers.subject })
          .from(teachers)
          .where(eq(teachers.id, teacherId));
        if (!teacher) throw accountRemoved();
        const target = await requireTaughtClass(tx, teacherId, input.classId, { mustBeActive: true });
        // The copy has no accommodations (they are per student of the source's class).
        const inserted = await insertQuiz(tx, {
          title: input.title ?? source.title,
          teacher: { id: teacherId, subject: teacher.subject },
          classId: target.id,
          className: target.name,
          deadline: new Date(input.deadline),
          maxTimeMinutes: source.maxTimeMinutes,
          review: { reviewAnswers: source.reviewAnswers, reviewScore: source.reviewScore },
          background: source.background,
          questions: source.questions,
        });
        return summaryOf(tx, inserted, 0);
      });
      await cache.changed([cacheTags.classQuizzes(copy.classId)]);
      return copy;
    },

    /**
     * DELETE /api/quizzes/{id}: no attempt, removed; attempts, archived (kept in analytics and
     * averages, hidden from students who did not take it); withResults, removed with its
     * attempts and their students' averages recomputed, one transaction. Its live games go with
     * it, and those that counted toward the leaderboard no longer do (decision 068).
     */
    async deleteQuiz(teacherId: string, quizId: string, withResults: boolean): Promise<DeletedQuiz> {
      const outcome = await db.transaction(async (tx) => {
        const quiz = await lockOwnQuiz(tx, teacherId, quizId);
        const attempters = (
          await tx
            .select({ studentId: quizAttempts.studentId })
            .from(quizAttempts)
            .where(eq(quizAttempts.quizId, quizId))
        ).map((row) => row.studentId);
        if (attempters.length > 0 && !withResults) {
          if (!quiz.archivedAt) await tx.update(quizzes).set({ archivedAt: now() }).where(eq(quizzes.id, quizId));
          return { result: 'archived' as const, classId: quiz.classId, attempters, players: [] as string[] };
        }
        // Its live games go with it (a cascade): their rows first, as a game's end or leaderboard
        // choice takes them (games, then students), and the players of those that counted
        // (decision 068) are recomputed with the attempters.
        const games = await tx
          .select({
            id: liveGames.id,
            counted: sql<boolean>`${liveGames.state} = 'ended' and ${liveGames.countsTowardLeaderboard}`,
          })
          .from(liveGames)
          .where(eq(liveGames.quizId, quizId))
          .orderBy(asc(liveGames.id))
          .for('update');
        const players = (
          await tx
            .select({ studentId: livePlayers.studentId })
            .from(livePlayers)
            .where(
              and(
                inArray(
                  livePlayers.gameId,
                  games.filter((game) => game.counted).map((game) => game.id),
                ),
                eq(livePlayers.removed, false),
              ),
            )
        ).map((row) => row.studentId);
        await lockStudents(tx, [...attempters, ...players]);
        await tx.delete(quizzes).where(eq(quizzes.id, quizId));
        await recomputeAverages(tx, [...attempters, ...players], { resultsRemoved: true });
        return {
          result: attempters.length > 0 ? ('deleted-with-results' as const) : ('deleted' as const),
          classId: quiz.classId,
          attempters,
          players,
        };
      });
      await cache.changed([
        cacheTags.classQuizzes(outcome.classId),
        ...(outcome.result === 'deleted-with-results' || outcome.players.length > 0 ? [cacheTags.leaderboard] : []),
        ...outcome.attempters.map(cacheTags.studentAttempts),
      ]);
      return { outcome: outcome.result };
    },
  };
}

export type QuizLifecycle = ReturnType<typeof createQuizLifecycle>;
