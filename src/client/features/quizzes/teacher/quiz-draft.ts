import { t } from '@lingui/core/macro';
import {
  parseNumber,
  QUESTION_LIMITS,
  type MultipleScoring,
  type PartialNumber,
  type PartialText,
  type QuestionImage,
  type QuestionType,
  type TypedQuestionInput,
} from '#shared/question-types';
import {
  DEFAULT_QUIZ_BACKGROUND,
  DEFAULT_REVIEW_ANSWERS,
  DEFAULT_REVIEW_SCORE,
  type NewQuizPayload,
  type ReviewAnswers,
  type ReviewScore,
} from '#shared/quizzes';
import type { FormErrors } from '../../../components/form/field-errors.ts';

/**
 * The quiz editor's form state and how it becomes the add-quiz payload
 * (SPEC §3 Question, §5 quiz editor). Kept free of React so it can be tested.
 */

/** An image as the editor holds it: `previewUrl` (a signed address) stays in the browser. */
export type DraftImage = QuestionImage & { previewUrl?: string | undefined };

/** `weight`: Moodle's percent for the option (decision 043), kept from an import until the key is changed. */
export type DraftOption = {
  key: string;
  _id?: string;
  text: string;
  correct: boolean;
  image?: DraftImage;
  weight?: number;
};
export type DraftAccepted = { key: string; text: string };
/** A matching pair (decision 045): `_id` is the prompt's, `matchId` the match's, kept on an edit. An empty prompt: an extra match. */
export type DraftPair = { key: string; _id?: string; prompt: string; match: string; matchId?: string };

/**
 * One question as the editor holds it (issue 20): every type's fields at once, so switching
 * the type keeps what was typed; numbers as their boxes' raw text. `toTypedQuestion` makes
 * the typed question the shared schema checks; `draftFromQuestion` goes back (edit screens).
 */
export type DraftQuestion = {
  key: string;
  /** The stored question's id on an edit; absent for a new question. */
  _id?: string;
  type: QuestionType;
  question_text: string;
  /** The points box's text ("1", "1,5"). */
  points: string;
  image?: DraftImage;
  /** single and multiple: the options, each marked correct or not. */
  options: DraftOption[];
  /** multiple: how it is scored. */
  scoring: MultipleScoring;
  /** true-false: the right answer; null until chosen. */
  correct: boolean | null;
  /** short-text: the accepted answers. */
  accepted: DraftAccepted[];
  /** short-text: `*` in its answers matches any text (decision 049); off, they are literal. */
  wildcards: boolean;
  /** numeric: the value and tolerance boxes' text. */
  value: string;
  tolerance: string;
  /**
   * short-text and numeric: answers worth part of the points (decision 043), and a number's
   * further answers worth all of them (weight 100), kept as imported.
   */
  partialAccepted?: PartialText[];
  partialNumbers?: PartialNumber[];
  /** essay: the marking guidance box's text (decision 046); students never see it. */
  guidance: string;
  /** matching: the pairs. */
  pairs: DraftPair[];
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

export const newOption = (): DraftOption => ({ key: nextKey(), text: '', correct: false });
export const newAccepted = (): DraftAccepted => ({ key: nextKey(), text: '' });
export const newPair = (): DraftPair => ({ key: nextKey(), prompt: '', match: '' });

/** A new question: single choice of 1 point, empty text, two empty options, nothing marked. */
export const newQuestion = (type: QuestionType = 'single'): DraftQuestion => ({
  key: nextKey(),
  type,
  question_text: '',
  points: String(QUESTION_LIMITS.pointsDefault),
  options: [newOption(), newOption()],
  scoring: 'all-or-nothing',
  correct: null,
  accepted: [newAccepted()],
  wildcards: false,
  value: '',
  tolerance: '0',
  guidance: '',
  pairs: [newPair(), newPair(), newPair()],
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

/** A number box's text as the schema's number: empty or unreadable is NaN (refused with the field's message). */
const numberOf = (text: string) => parseNumber(text) ?? Number.NaN;

const withImage = <T extends object>(value: T, image: DraftImage | undefined) =>
  image ? { ...value, image: { fileKey: image.fileKey, alt: image.alt } } : value;

/**
 * The typed question the editor sends (TypedQuestionInput): only the fields of its type.
 * Options with neither text nor an image are left out (SPEC §3 drops empty options), and so
 * are empty accepted answers.
 */
export function toTypedQuestion(question: DraftQuestion): TypedQuestionInput {
  const base = withImage(
    {
      ...(question._id ? { _id: question._id } : {}),
      question_text: question.question_text,
      points: numberOf(question.points),
    },
    question.image,
  );
  switch (question.type) {
    case 'single':
    case 'multiple': {
      const options = question.options
        .filter((option) => option.text.trim() !== '' || option.image)
        .map((option) =>
          withImage(
            {
              ...(option._id ? { _id: option._id } : {}),
              text: option.text,
              correct: option.correct,
              ...(option.weight !== undefined ? { weight: option.weight } : {}),
            },
            option.image,
          ),
        );
      return question.type === 'single'
        ? { ...base, type: 'single', options }
        : { ...base, type: 'multiple', options, scoring: question.scoring };
    }
    case 'true-false':
      // Not chosen: sent without, for the schema's "Choose whether the statement is true or false".
      return { ...base, type: 'true-false', correct: question.correct as boolean };
    case 'short-text':
      return {
        ...base,
        type: 'short-text',
        accepted: question.accepted.map((item) => item.text).filter((text) => text.trim() !== ''),
        ...(question.partialAccepted?.length ? { partial: question.partialAccepted } : {}),
        ...(question.wildcards ? { wildcards: true } : {}),
      };
    case 'numeric':
      return {
        ...base,
        type: 'numeric',
        value: numberOf(question.value),
        tolerance: numberOf(question.tolerance),
        ...(question.partialNumbers?.length ? { partial: question.partialNumbers } : {}),
      };
    case 'essay':
      return { ...base, type: 'essay', ...(question.guidance.trim() ? { guidance: question.guidance } : {}) };
    case 'matching':
      return {
        ...base,
        type: 'matching',
        // Rows left empty are dropped, as empty options are.
        pairs: question.pairs
          .filter((pair) => pair.prompt.trim() !== '' || pair.match.trim() !== '')
          .map((pair) => ({
            ...(pair._id && pair.prompt.trim() !== '' ? { _id: pair._id } : {}),
            prompt: pair.prompt,
            match: pair.match,
            ...(pair.matchId ? { matchId: pair.matchId } : {}),
          })),
      };
    case 'description':
      return { ...base, type: 'description', points: 0 };
  }
}

/**
 * A typed question (a stored quiz on an edit, an older draft) as the editor's state, with fresh
 * row keys. `previewOf` gives an image's thumbnail address (an edit: the presented quiz's).
 */
export function draftFromQuestion(
  question: TypedQuestionInput,
  previewOf: (fileKey: string) => string | undefined = () => undefined,
): DraftQuestion {
  const withPreview = (image: QuestionImage): DraftImage => ({ ...image, previewUrl: previewOf(image.fileKey) });
  const draft: DraftQuestion = {
    ...newQuestion(question.type),
    question_text: question.question_text,
    points: String(question.points ?? QUESTION_LIMITS.pointsDefault),
  };
  if (question._id) draft._id = question._id;
  if (question.image) draft.image = withPreview(question.image);
  switch (question.type) {
    case 'single':
    case 'multiple':
      draft.options = question.options.map((option) => {
        const row: DraftOption = { key: nextKey(), text: option.text, correct: option.correct };
        if (option._id) row._id = option._id;
        if (option.image) row.image = withPreview(option.image);
        if (option.weight !== undefined) row.weight = option.weight;
        return row;
      });
      if (question.type === 'multiple') draft.scoring = question.scoring ?? 'all-or-nothing';
      break;
    case 'true-false':
      draft.correct = question.correct;
      break;
    case 'short-text':
      draft.accepted = question.accepted.map((text) => ({ key: nextKey(), text }));
      if (question.partial) draft.partialAccepted = question.partial.map((answer) => ({ ...answer }));
      draft.wildcards = question.wildcards === true;
      break;
    case 'numeric':
      draft.value = String(question.value);
      draft.tolerance = String(question.tolerance);
      if (question.partial) draft.partialNumbers = question.partial.map((answer) => ({ ...answer }));
      break;
    case 'essay':
      draft.guidance = question.guidance ?? '';
      break;
    case 'matching':
      draft.pairs = question.pairs.map((pair) => ({ ...pair, key: nextKey() }));
      break;
    case 'description':
      // Its points box is hidden; should the type change, the question starts at the default.
      draft.points = String(QUESTION_LIMITS.pointsDefault);
      break;
  }
  return draft;
}

/** The quiz's total points as the boxes stand (unreadable points count 0): what the teacher sees. */
export const draftTotalPoints = (questions: DraftQuestion[]) =>
  Math.round(
    questions.reduce(
      (total, question) => total + (question.type === 'description' ? 0 : (parseNumber(question.points) ?? 0)),
      0,
    ) * 100,
  ) / 100;

/**
 * The body of POST /api/teacher/add-quiz (and of the stored preview): typed
 * questions (empty options dropped, SPEC §3), maxTime as a number of minutes, the deadline as
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
      questions: draft.questions.map(toTypedQuestion),
    },
    createdBy: { _id: teacher._id },
    subject: teacher.subject,
    date: now.toISOString(),
  };
}

/** Where a field's problem is shown: option- and accepted-answer-level problems belong to their list. */
export function errorSlot(path: string): string {
  return path.replace(/^(quiz\.questions\.\d+\.(?:options|accepted|pairs))\..*$/, '$1');
}

/** The empty maximum time says so, rather than "must be a number". */
export function refineMessages(errors: FormErrors, draft: QuizDraft): FormErrors {
  if (errors.maxTime && draft.maxTime.trim() === '') return { ...errors, maxTime: () => t`Maximum time is required` };
  return errors;
}
