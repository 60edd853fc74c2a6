import { MULTIPLE_SCORING, QUESTION_TYPES, type QuestionImage } from '#shared/question-types';
import { REVIEW_ANSWERS, REVIEW_SCORE } from '#shared/quizzes';
import {
  emptyDraft,
  newQuestion,
  nextKey,
  type DraftOption,
  type DraftQuestion,
  type QuizDraft,
} from './quiz-draft.ts';

/**
 * The quiz editor's unsaved work, kept in localStorage per teacher so a reload, a closed tab
 * or a wrong click in the menu loses nothing (issue 18). Cleared when the quiz is saved.
 */
type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

const keyFor = (teacherId: string) => `studyhall:quiz-draft:${teacherId}`;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** Whether the editor holds anything a teacher would miss: a field or a question changed. */
export function hasUnsavedWork(draft: QuizDraft): boolean {
  const empty = emptyDraft();
  return (
    draft.title !== empty.title ||
    draft.classId !== empty.classId ||
    draft.deadline !== empty.deadline ||
    draft.maxTime !== empty.maxTime ||
    draft.background !== empty.background ||
    draft.reviewAnswers !== empty.reviewAnswers ||
    draft.reviewScore !== empty.reviewScore ||
    draft.questions.length > 0
  );
}

/** A stored choice among `allowed`, or undefined for anything else (an older draft has none). */
const oneOf = <T extends string>(allowed: readonly T[], value: unknown): T | undefined =>
  allowed.find((item) => item === value);

const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** A stored image, kept only when whole (a file key and its alt text). */
function readImage(value: unknown): QuestionImage | undefined {
  const fields = record(value);
  return typeof fields.fileKey === 'string' && typeof fields.alt === 'string'
    ? { fileKey: fields.fileKey, alt: fields.alt }
    : undefined;
}

/** The items of a stored list that `read` can make sense of (the schema judges them again on save). */
function readList<T>(value: unknown, read: (item: Record<string, unknown>) => T | undefined): T[] {
  return (Array.isArray(value) ? value : []).flatMap((item: unknown) => read(record(item)) ?? []);
}

/**
 * A stored question, read defensively (old or hand-edited data) and given fresh React keys.
 * A draft saved before question types (issue 20) has no `type`: its options and `answerKey`
 * become a single choice question whose marked option is the one the answer pointed at.
 */
function readQuestion(value: unknown): DraftQuestion | null {
  if (!value || typeof value !== 'object') return null;
  const stored = value as Record<string, unknown>;
  const isLegacy = !('type' in stored);
  const type = oneOf(QUESTION_TYPES, stored.type) ?? 'single';
  const question = newQuestion(type);
  question.question_text = text(stored.question_text);
  if (typeof stored._id === 'string' && stored._id !== '') question._id = stored._id;
  if (!isLegacy) question.points = text(stored.points) || question.points;
  const image = readImage(stored.image);
  if (image) question.image = image;
  const storedOptions = Array.isArray(stored.options) ? stored.options : [];
  question.options = storedOptions.map((option: unknown) => {
    const fields = record(option);
    const correct = isLegacy ? text(fields.key) !== '' && fields.key === stored.answerKey : fields.correct === true;
    const row: DraftOption = { key: nextKey(), text: text(fields.text), correct };
    if (typeof fields._id === 'string' && fields._id !== '') row._id = fields._id;
    const optionImage = readImage(fields.image);
    if (optionImage) row.image = optionImage;
    if (typeof fields.weight === 'number' && Number.isFinite(fields.weight)) row.weight = fields.weight;
    return row;
  });
  if (question.options.length === 0) question.options = newQuestion().options;
  question.scoring = oneOf(MULTIPLE_SCORING, stored.scoring) ?? question.scoring;
  question.correct = typeof stored.correct === 'boolean' ? stored.correct : null;
  const accepted = (Array.isArray(stored.accepted) ? stored.accepted : []).map((item: unknown) => ({
    key: nextKey(),
    text: text(record(item).text),
  }));
  if (accepted.length > 0) question.accepted = accepted;
  question.wildcards = stored.wildcards === true;
  const partialAccepted = readList(stored.partialAccepted, (item) =>
    typeof item.text === 'string' && typeof item.weight === 'number'
      ? { text: item.text, weight: item.weight }
      : undefined,
  );
  if (partialAccepted.length > 0) question.partialAccepted = partialAccepted;
  const partialNumbers = readList(stored.partialNumbers, (item) =>
    typeof item.value === 'number' && typeof item.tolerance === 'number' && typeof item.weight === 'number'
      ? { value: item.value, tolerance: item.tolerance, weight: item.weight }
      : undefined,
  );
  if (partialNumbers.length > 0) question.partialNumbers = partialNumbers;
  question.value = text(stored.value);
  question.tolerance = text(stored.tolerance) || question.tolerance;
  const pairs = readList(stored.pairs, (item) => ({
    key: nextKey(),
    prompt: text(item.prompt),
    match: text(item.match),
    ...(typeof item._id === 'string' && item._id !== '' ? { _id: item._id } : {}),
    ...(typeof item.matchId === 'string' && item.matchId !== '' ? { matchId: item.matchId } : {}),
  }));
  if (pairs.length > 0) question.pairs = pairs;
  return question;
}

export function readStoredDraft(storage: DraftStorage, teacherId: string): QuizDraft | null {
  try {
    const stored: unknown = JSON.parse(storage.getItem(keyFor(teacherId)) ?? 'null');
    if (!stored || typeof stored !== 'object') return null;
    const fields = stored as Record<string, unknown>;
    const empty = emptyDraft();
    return {
      title: text(fields.title),
      classId: text(fields.classId),
      deadline: text(fields.deadline),
      maxTime: text(fields.maxTime),
      background: text(fields.background) || empty.background,
      reviewAnswers: oneOf(REVIEW_ANSWERS, fields.reviewAnswers) ?? empty.reviewAnswers,
      reviewScore: oneOf(REVIEW_SCORE, fields.reviewScore) ?? empty.reviewScore,
      questions: (Array.isArray(fields.questions) ? fields.questions : [])
        .map(readQuestion)
        .filter((question): question is DraftQuestion => question !== null),
    };
  } catch {
    return null;
  }
}

/** Keeps the draft, or forgets it once there is nothing in it. A full storage only loses the draft. */
export function storeDraft(storage: DraftStorage, teacherId: string, draft: QuizDraft): void {
  try {
    if (hasUnsavedWork(draft)) storage.setItem(keyFor(teacherId), JSON.stringify(draft));
    else storage.removeItem(keyFor(teacherId));
  } catch {
    // Quota or a storage the browser refuses: the editor still works, without the safety net.
  }
}

export function clearStoredDraft(storage: DraftStorage, teacherId: string): void {
  try {
    storage.removeItem(keyFor(teacherId));
  } catch {
    // As above.
  }
}
