import { isChoiceQuestion, type AnswerValue, type QuestionImage, type StoredQuestion } from '#shared/question-types';
import { scoreQuestion } from '#shared/question-scoring';
import type {
  AttemptRecord,
  AttemptResult,
  AttemptState,
  QuizQuestion,
  StudentQuizDetail,
  StudentQuizSummary,
  TeacherQuizDetail,
  TeacherQuizSummary,
} from '#shared/quizzes';
import type { QuizAttemptRow, QuizRow } from '../../db/schema.ts';
import { remainingSeconds } from './attempt-rules.ts';
import { reviewOf, type ReviewQuiz } from './review-rules.ts';

/**
 * What of a quiz leaves the server. The answer key goes to the quiz's teacher, and to a
 * student only inside the review of their own submitted attempt, when reviewOf says so; what
 * each question earned with the key, the score of a student's attempt by its own option
 * (decisions 032, 036).
 */

/** A quiz as lists load it: everything but its questions. */
type QuizSummaryRow = Omit<QuizRow, 'questions'>;
/** Its class's name comes from the classes record, joined in the same statement (decision 031). */
type QuizWithAuthor = { quiz: QuizRow; authorName: string; className: string };
type QuizSummaryWithAuthor = { quiz: QuizSummaryRow; authorName: string; className: string };

function presentQuizBase({ quiz, authorName, className }: QuizSummaryWithAuthor) {
  return {
    _id: quiz.id,
    title: quiz.title,
    subject: quiz.subject,
    class: className,
    classId: quiz.classId,
    date: quiz.createdAt.toISOString(),
    deadline: quiz.deadline.toISOString(),
    maxTime: quiz.maxTimeMinutes,
    createdBy: { _id: quiz.createdByTeacherId, name: authorName },
    questionCount: quiz.questionCount,
    totalPoints: quiz.totalPoints,
    reviewAnswers: quiz.reviewAnswers,
    reviewScore: quiz.reviewScore,
    archivedAt: quiz.archivedAt?.toISOString() ?? null,
  };
}

/** numeric(5,2) arrives as "66.67" or "100.00"; the API speaks "66.67" and "100". */
const presentAccuracy = (accuracy: string | null) => String(Number(accuracy ?? 0));

/**
 * An image as it leaves the server for one viewer: its address signed for them (decision 009),
 * and its alt text. The service builds it per caller (presentQuizImage), so a presenter never
 * hands out an address signed for someone else.
 */
export type ImageSigner = (image: QuestionImage) => { url: string; alt: string };

/**
 * An essay's mark as the presenters take it (decision 046): points null while awaiting marking.
 * An essay with no mark row was not answered: nothing to mark.
 */
export type EssayMarkState = { points: number | null; comment: string | null };
/** An attempt's essay marks by question id. */
export type AttemptMarks = Map<string, EssayMarkState>;

/** How one question is shown: to whom, with its key or not, in which option order, with which answer. */
type QuestionView = {
  signImage: ImageSigner;
  /** The key: `correct` of options and of true-false, `accepted`, `value` and `tolerance`. */
  showsKey: boolean;
  /** An essay's marking guidance: to the quiz's teachers only, never to a student, whatever the review (decision 046). */
  showsGuidance?: boolean;
  /** An essay's mark: awaiting (points null) or given; the comment goes with the earned points only. */
  mark?: EssayMarkState | undefined;
  /** The attempt's option order (ids); the stored order without one. */
  optionOrder?: string[];
  response?: AnswerValue | null;
  earnedPoints?: number;
};

/** Options in the attempt's order; one the layout does not name (none today) comes last. */
function inOrder<T extends { _id: string }>(options: T[], order: string[] | undefined): T[] {
  if (!order) return options;
  const byId = new Map(options.map((option) => [option._id, option]));
  const ordered = order.flatMap((id) => byId.get(id) ?? []);
  return [...ordered, ...options.filter((option) => !order.includes(option._id))];
}

/**
 * One question, per type. Every field of the key is added here only when `showsKey`: the
 * student presenters pass reviewOf's showsAnswers, so nothing of it leaks before (decision 032).
 */
export function presentQuestion(question: StoredQuestion, view: QuestionView): QuizQuestion {
  const { signImage, showsKey } = view;
  const presented: QuizQuestion = {
    _id: question._id,
    type: question.type,
    question_text: question.question_text,
    points: question.points,
    ...(question.image ? { image: signImage(question.image) } : {}),
  };
  if (isChoiceQuestion(question)) {
    presented.options = inOrder(question.options, view.optionOrder).map((option) => ({
      _id: option._id,
      text: option.text,
      ...(option.image ? { image: signImage(option.image) } : {}),
      ...(showsKey ? { correct: option.correct } : {}),
      ...(showsKey && option.weight !== undefined ? { weight: option.weight } : {}),
    }));
    if (question.type === 'multiple') presented.scoring = question.scoring;
  } else if (question.type === 'matching') {
    // Prompts in the teacher's order, choices in the attempt's; which choice a prompt takes is the key.
    presented.prompts = question.prompts.map((prompt) => ({
      _id: prompt._id,
      text: prompt.text,
      ...(showsKey ? { match: prompt.match } : {}),
    }));
    presented.choices = inOrder(question.choices, view.optionOrder).map((choice) => ({
      _id: choice._id,
      text: choice.text,
    }));
  } else if (showsKey) {
    if (question.type === 'true-false') presented.correct = question.correct;
    if (question.type === 'short-text') {
      presented.accepted = question.accepted;
      if (question.wildcards) presented.wildcards = true;
    }
    if (question.type === 'numeric') Object.assign(presented, { value: question.value, tolerance: question.tolerance });
    if ((question.type === 'short-text' || question.type === 'numeric') && question.partial) {
      presented.partial = question.partial;
    }
  }
  if (question.type === 'essay' && view.showsGuidance && question.guidance) presented.guidance = question.guidance;
  if (view.response !== undefined) presented.response = view.response;
  if (view.earnedPoints !== undefined) presented.earnedPoints = view.earnedPoints;
  if (view.mark && view.mark.points === null) presented.awaitingMarking = true;
  if (view.mark?.comment && view.earnedPoints !== undefined) presented.comment = view.mark.comment;
  return presented;
}

/** What an attempt's state and result need: lists select only these (no layout, no answers). */
export type AttemptStateRow = Pick<
  QuizAttemptRow,
  'startedAt' | 'endsAt' | 'submittedAt' | 'endedBy' | 'score' | 'accuracy' | 'timeTakenSeconds' | 'essaysAwaiting'
>;

/** Points given by a teacher, by question id, for scoreQuestion. */
const pointsOf = (marks: AttemptMarks | undefined, questionId: string) => marks?.get(questionId)?.points ?? undefined;

function presentResult(attempt: AttemptStateRow): AttemptResult {
  return {
    score: attempt.score ?? 0,
    accuracy: presentAccuracy(attempt.accuracy),
    attemptedAt: (attempt.submittedAt ?? attempt.endsAt).toISOString(),
    timeTaken: attempt.timeTakenSeconds ?? 0,
    endedBy: attempt.endedBy ?? 'submitted',
  };
}

/**
 * The student's own attempt: a submitted one carries its score only once reviewOf shows it; while
 * essays await marking, the points so far instead (decision 046).
 */
export function presentAttemptState(quiz: ReviewQuiz, attempt: AttemptStateRow | null, now: Date): AttemptState | null {
  if (!attempt) return null;
  if (attempt.submittedAt) {
    const review = reviewOf(quiz, attempt, now);
    const { score, accuracy, ...result } = presentResult(attempt);
    return {
      status: 'submitted',
      ...result,
      ...(review.showsFinalScore ? { score, accuracy } : {}),
      ...(review.awaitingMarking ? { awaitingMarking: true as const } : {}),
      ...(review.awaitingMarking && review.showsScore ? { scoreSoFar: score } : {}),
      answersVisibleAt: review.answersVisibleAt?.toISOString() ?? null,
      scoreVisibleAt: review.scoreVisibleAt.toISOString(),
    };
  }
  return {
    status: 'in-progress',
    startedAt: attempt.startedAt.toISOString(),
    endsAt: attempt.endsAt.toISOString(),
    remainingSeconds: remainingSeconds(attempt, now),
  };
}

export function presentTeacherSummary(row: QuizSummaryWithAuthor, attemptCount: number): TeacherQuizSummary {
  return { ...presentQuizBase(row), quiz: { background: row.quiz.background }, attemptCount };
}

export function presentStudentSummary(
  row: QuizSummaryWithAuthor,
  attempt: AttemptStateRow | null,
  now: Date,
): StudentQuizSummary {
  return {
    ...presentQuizBase(row),
    quiz: { background: row.quiz.background },
    attempt: presentAttemptState(row.quiz, attempt, now),
  };
}

/** A regrade as the analytics list it (decision 036). */
export type RegradeRow = { regradedAt: Date; attemptsChanged: number; teacherName: string | null };

export function presentTeacherDetail(
  row: QuizWithAuthor,
  attempts: { attempt: QuizAttemptRow; name: string; rollNumber: string }[],
  signImage: ImageSigner,
  lifecycle: { attemptsStarted: number; regrades: RegradeRow[] },
  marks: Map<string, AttemptMarks>,
): TeacherQuizDetail {
  const questions = row.quiz.questions;
  return {
    ...presentQuizBase(row),
    quiz: {
      background: row.quiz.background,
      questions: questions.map((question) =>
        presentQuestion(question, { signImage, showsKey: true, showsGuidance: true }),
      ),
    },
    attempts: attempts.map(({ attempt, name, rollNumber }): AttemptRecord => ({
      _id: attempt.id,
      user: { _id: attempt.studentId, name, rollNumber },
      ...presentResult(attempt),
      ...(attempt.essaysAwaiting > 0 ? { awaitingMarking: true as const } : {}),
      quiz: {
        questions: questions.map((question) => {
          const response = attempt.answers[question._id] ?? null;
          const seconds = attempt.answerTimes[question._id];
          const mark = marks.get(attempt.id)?.get(question._id);
          return {
            _id: question._id,
            response,
            earnedPoints: scoreQuestion(question, response, pointsOf(marks.get(attempt.id), question._id)),
            ...(mark && mark.points === null ? { awaitingMarking: true as const } : {}),
            ...(seconds === undefined ? {} : { seconds }),
          };
        }),
      },
    })),
    attemptsStarted: lifecycle.attemptsStarted,
    version: row.quiz.version,
    regrades: lifecycle.regrades.map((regrade) => ({
      at: regrade.regradedAt.toISOString(),
      attemptsChanged: regrade.attemptsChanged,
      by: regrade.teacherName,
    })),
  };
}

/**
 * Before the attempt starts: no questions (reading them would start no clock).
 * In progress: the attempt's shuffled questions and saved choices, no answers.
 * Submitted: the same questions, with the answer key and what each earned once reviewOf shows
 * them (the total score may come earlier: presentAttemptState).
 */
export function presentStudentDetail(
  row: QuizWithAuthor,
  signImage: ImageSigner,
  attempt: QuizAttemptRow | null,
  now: Date,
  /** The attempt's essay marks (decision 046); none for a quiz without essays. */
  marks?: AttemptMarks,
): StudentQuizDetail {
  const { showsAnswers, showsQuestionResults } = reviewOf(row.quiz, attempt, now);
  const byId = new Map(row.quiz.questions.map((question) => [question._id, question]));
  const questions: QuizQuestion[] = (attempt?.layout ?? []).flatMap(({ questionId, options }) => {
    const question = byId.get(questionId);
    if (!question) return [];
    const response = attempt?.answers[questionId] ?? null;
    return [
      presentQuestion(question, {
        signImage,
        showsKey: showsAnswers,
        optionOrder: options,
        response,
        mark: marks?.get(questionId),
        // An essay awaiting marking has earned nothing yet: it shows as awaiting, not as 0.
        ...(showsQuestionResults && marks?.get(questionId)?.points !== null
          ? { earnedPoints: scoreQuestion(question, response, pointsOf(marks, questionId)) }
          : {}),
      }),
    ];
  });
  return {
    ...presentQuizBase(row),
    quiz: { background: row.quiz.background, questions },
    attempt: presentAttemptState(row.quiz, attempt, now),
  };
}
