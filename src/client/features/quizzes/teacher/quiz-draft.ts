import {
  DEFAULT_QUIZ_BACKGROUND,
  DEFAULT_REVIEW_ANSWERS,
  DEFAULT_REVIEW_SCORE,
  type NewQuizPayload,
  type ReviewAnswers,
  type ReviewScore,
} from '#shared/quizzes';

/**
 * The quiz editor's form state and how it becomes the add-quiz payload
 * (SPEC §3 Question, §5 quiz editor). Kept free of React so it can be tested.
 */

export type DraftOption = { key: string; text: string };

export type DraftQuestion = {
  key: string;
  /** The stored question's id, when editing one (decision 036): the server keeps it. */
  id?: string;
  question_text: string;
  options: DraftOption[];
  /** Key of the option marked correct; '' while none is chosen. */
  answerKey: string;
};

export type QuizDraft = {
  title: string;
  /** One of the teacher's classes (ClassPicker), '' until chosen. */
  classId: string;
  /** The datetime-local value, local time, e.g. "2026-11-21T14:30". */
  deadline: string;
  /** The number input's raw text. */
  maxTime: string;
  background: string;
  /** When a student who submitted sees the answer key and the score (decision 032). */
  reviewAnswers: ReviewAnswers;
  reviewScore: ReviewScore;
  questions: DraftQuestion[];
};

let lastKey = 0;
/** React keys for rows; crypto.randomUUID is missing on plain-HTTP self-hosted installs. */
export const nextKey = () => `k${++lastKey}`;

export const newOption = (): DraftOption => ({ key: nextKey(), text: '' });

/** SPEC §3: a new question starts with empty text, one empty option and an empty answer. */
export const newQuestion = (): DraftQuestion => ({
  key: nextKey(),
  question_text: '',
  options: [newOption()],
  answerKey: '',
});

export const emptyDraft = (): QuizDraft => ({
  title: '',
  classId: '',
  deadline: '',
  maxTime: '',
  background: DEFAULT_QUIZ_BACKGROUND,
  reviewAnswers: DEFAULT_REVIEW_ANSWERS,
  reviewScore: DEFAULT_REVIEW_SCORE,
  questions: [],
});

/** A Date as the value of <input type="datetime-local">, in local time, to the minute. */
export function toLocalInputValue(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The local datetime-local value as an ISO instant; anything unreadable is passed on for the schema to refuse. */
export function toDeadlineIso(localValue: string): string {
  if (localValue.trim() === '') return '';
  const date = new Date(localValue);
  return Number.isNaN(date.getTime()) ? localValue : date.toISOString();
}

/** The text of the option marked correct, or '' when none is (or it was emptied). */
export function answerText(question: DraftQuestion): string {
  return question.options.find((option) => option.key === question.answerKey)?.text.trim() ?? '';
}

/**
 * The body of POST /api/teacher/add-quiz (and of the stored preview): empty
 * options dropped (SPEC §3), maxTime as a number of minutes, the deadline as
 * an ISO instant. createdBy, subject and date follow SPEC §7; the server
 * ignores them.
 */
export function toQuizPayload(
  draft: QuizDraft,
  teacher: { _id: string; subject: string },
  now: Date = new Date(),
): NewQuizPayload & { subject: string } {
  const maxTimeText = draft.maxTime.trim();
  return {
    title: draft.title,
    classId: draft.classId,
    deadline: toDeadlineIso(draft.deadline),
    // An empty box must read as missing, not as 0 minutes.
    maxTime: maxTimeText === '' ? Number.NaN : Number(maxTimeText),
    reviewAnswers: draft.reviewAnswers,
    reviewScore: draft.reviewScore,
    quiz: {
      background: draft.background,
      questions: draft.questions.map((question) => ({
        ...(question.id ? { _id: question.id } : {}),
        question_text: question.question_text,
        options: question.options.map((option) => option.text.trim()).filter((text) => text !== ''),
        answer: answerText(question),
      })),
    },
    createdBy: { _id: teacher._id },
    subject: teacher.subject,
    date: now.toISOString(),
  };
}

/** Where a field's problem is shown: option-level problems belong to the question's option list. */
export function errorSlot(path: string): string {
  return path.replace(/^(quiz\.questions\.\d+\.options)\..*$/, '$1');
}

/** The empty maximum time says so, rather than "must be a number". */
export function refineMessages(errors: Record<string, string>, draft: QuizDraft): Record<string, string> {
  if (errors.maxTime && draft.maxTime.trim() === '') return { ...errors, maxTime: 'Maximum time is required' };
  return errors;
}
