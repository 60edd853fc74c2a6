import { i18n } from '@lingui/core';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseGift } from '#shared/gift';
import { newQuizSchema } from '#shared/quizzes';
import { readStoredDraft, storeDraft } from './quiz-draft-storage.ts';
import { checkBody, formErrorsOf, wordErrors } from '../../../components/form/field-errors.ts';
import {
  emptyDraft,
  errorSlot,
  newQuestion,
  refineMessages,
  toLocalInputValue,
  toQuizPayload,
  toTypedQuestion,
  draftFromQuestion,
  draftTotalPoints,
  type DraftQuestion,
  type QuizDraft,
} from './quiz-draft.ts';

// The client's texts are worded in the active locale: English, the code's own.
beforeEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

const teacher = { _id: 't1', subject: 'Maths' };

function filledDraft(): QuizDraft {
  const question = newQuestion();
  question.question_text = 'Half of 1?';
  question.options = [
    { key: 'o1', text: ' 1/2 ', correct: true },
    { key: 'o2', text: '', correct: false },
    { key: 'o3', text: '1/3', correct: false },
  ];
  const tomorrow = new Date(Date.now() + 24 * 3600 * 1000);
  return {
    ...emptyDraft(),
    title: 'Fractions',
    classId: '7b000000-0000-4000-8000-000000000000',
    deadline: toLocalInputValue(tomorrow),
    maxTime: '15',
    questions: [question],
  };
}

// Problems are worded in the active locale: English, the code's own text.
describe('the quiz draft', () => {
  it('starts a question as single choice of 1 point, with empty text and two unmarked options', () => {
    const question = newQuestion();
    expect(question).toMatchObject({ type: 'single', points: '1', question_text: '' });
    expect(question.options.map(({ text, correct }) => ({ text, correct }))).toEqual([
      { text: '', correct: false },
      { text: '', correct: false },
    ]);
  });

  it('writes datetime-local values in local time to the minute', () => {
    expect(toLocalInputValue(new Date(2026, 0, 5, 7, 3, 59))).toBe('2026-01-05T07:03');
  });

  it('becomes a payload the shared schema accepts, with empty options dropped', () => {
    const draft = filledDraft();
    const payload = toQuizPayload(draft, teacher, new Date('2026-11-21T10:00:00Z'));
    expect(payload.quiz.questions[0]).toEqual({
      type: 'single',
      question_text: 'Half of 1?',
      points: 1,
      options: [
        { text: ' 1/2 ', correct: true },
        { text: '1/3', correct: false },
      ],
    });
    expect(payload.maxTime).toBe(15);
    expect(payload.deadline).toBe(new Date(draft.deadline).toISOString());
    expect(payload).toMatchObject({ createdBy: { _id: 't1' }, subject: 'Maths', date: '2026-11-21T10:00:00.000Z' });
    expect(newQuizSchema.safeParse(payload).success).toBe(true);
  });

  it('maps problems to the fields that show them', () => {
    const draft = { ...filledDraft(), title: ' ', maxTime: '', deadline: '' };
    draft.questions[0]!.options = [{ key: 'a', text: '=x\u0001', correct: false }];
    const checked = checkBody(newQuizSchema, toQuizPayload(draft, teacher), errorSlot);
    if (checked.isValid) throw new Error('the draft should be refused');
    const errors = wordErrors(refineMessages(checked.errors, draft));
    expect(errors).toMatchObject({
      title: 'Title is required',
      deadline: 'Deadline is required',
      maxTime: 'Maximum time is required',
      'quiz.questions.0.options': expect.any(String),
    });
  });

  it('groups option-level server errors under the question', () => {
    expect(
      wordErrors(
        formErrorsOf(
          [
            { field: 'quiz.questions.1.options.3', code: 'TOO_LONG', params: { maximum: 500 } },
            { field: 'quiz.questions.1.options', code: 'NOT_UNIQUE' },
            { field: 'quiz.questions.1.accepted.0', code: 'REQUIRED' },
          ],
          errorSlot,
        ),
      ),
    ).toEqual({
      'quiz.questions.1.options': 'Write at most 500 characters',
      'quiz.questions.1.accepted': 'This field is required',
    });
  });

  describe('each type becomes the typed question the schema checks, with its messages', () => {
    const check = (question: DraftQuestion) => {
      const draft = { ...filledDraft(), questions: [question] };
      const checked = checkBody(newQuizSchema, toQuizPayload(draft, teacher), errorSlot);
      return checked.isValid ? {} : wordErrors(checked.errors);
    };
    const named = <T extends DraftQuestion>(question: T): T => ({ ...question, question_text: 'Q?' });

    it('single: exactly one option marked', () => {
      const question = named(newQuestion('single'));
      question.options = [
        { key: 'a', text: 'x', correct: false },
        { key: 'b', text: 'y', correct: false },
      ];
      expect(check(question)).toEqual({ 'quiz.questions.0.options': 'Mark exactly one option as correct' });
      question.options[1]!.correct = true;
      expect(check(question)).toEqual({});
    });

    it('multiple: at least one marked, with its scoring', () => {
      const question = { ...named(newQuestion('multiple')), scoring: 'partial' as const };
      question.options = [
        { key: 'a', text: 'x', correct: true },
        { key: 'b', text: 'y', correct: true },
      ];
      expect(toTypedQuestion(question)).toMatchObject({ type: 'multiple', scoring: 'partial' });
      expect(check(question)).toEqual({});
      question.options = question.options.map((option) => ({ ...option, correct: false }));
      expect(check(question)).toEqual({ 'quiz.questions.0.options': 'Mark at least one option as correct' });
    });

    it('true-false: the answer must be chosen', () => {
      const question = named(newQuestion('true-false'));
      expect(check(question)).toEqual({
        'quiz.questions.0.correct': 'Choose whether the statement is true or false',
      });
      expect(check({ ...question, correct: false })).toEqual({});
    });

    it('short text: empty rows dropped, at least one accepted answer', () => {
      const question = named(newQuestion('short-text'));
      expect(check(question)).toEqual({ 'quiz.questions.0.accepted': 'Add at least one accepted answer' });
      const filled = { ...question, accepted: [...question.accepted, { key: 'x', text: 'Paris' }] };
      expect(toTypedQuestion(filled)).toMatchObject({ accepted: ['Paris'] });
      expect(check(filled)).toEqual({});
    });

    it('numeric: value and tolerance read with "," or ".", points in halves', () => {
      const question = { ...named(newQuestion('numeric')), value: '3,14', tolerance: '0.01' };
      expect(toTypedQuestion(question)).toMatchObject({ value: 3.14, tolerance: 0.01, points: 1 });
      expect(check(question)).toEqual({});
      expect(check({ ...question, value: '', tolerance: '-1', points: '1.25' })).toEqual({
        'quiz.questions.0.value': 'The value must be a number',
        'quiz.questions.0.tolerance': 'Tolerance cannot be negative',
        'quiz.questions.0.points': 'Points go in halves: 1, 1.5, 2…',
      });
    });

    it('goes back to the editor’s state from a typed question (edit screens)', () => {
      const typed = toTypedQuestion({ ...named(newQuestion('numeric')), value: '2', tolerance: '0.5', points: '2' });
      expect(draftFromQuestion({ ...typed, _id: 'q1' })).toMatchObject({
        _id: 'q1',
        type: 'numeric',
        value: '2',
        tolerance: '0.5',
        points: '2',
      });
    });

    it('totals the points as typed', () => {
      expect(
        draftTotalPoints([{ ...newQuestion(), points: '1,5' }, newQuestion(), { ...newQuestion(), points: 'x' }]),
      ).toBe(2.5);
    });
  });

  it('keeps Moodle’s weights and partial answers through the editor and its stored draft (decision 043)', () => {
    const imported = parseGift(
      'Capital? {=Paris ~%-25%Lyon ~Rome}\n\nSpell the river: {=Danube =%75%Danub}.\n\nWater boils at? {#=100:0 =%50%100:5}\n\nA square root of 4? {#=2:0 =-2:0.01 =%50%2:0.5}',
    ).questions.map(({ question }) => question);
    const drafts = imported.map((question) => draftFromQuestion(question));
    expect(drafts.map(toTypedQuestion)).toEqual(imported);
    // A number's further full answer (decision 043's addendum) is one of its kept answers, at 100 %.
    expect(drafts[3]!.partialNumbers).toEqual([
      { value: -2, tolerance: 0.01, weight: 100 },
      { value: 2, tolerance: 0.5, weight: 50 },
    ]);
    const storage = new Map<string, string>();
    const store = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    };
    storeDraft(store, 't', { ...emptyDraft(), questions: drafts });
    expect(readStoredDraft(store, 't')!.questions.map(toTypedQuestion)).toEqual(imported);
  });

  it('keeps a short answer’s wildcards through the editor and its stored draft, and only when on (decision 049)', () => {
    const imported = parseGift('Shade? {=*colour* =%50%colo*r}\n\nProduct? {=2\\*3}').questions.map(
      ({ question }) => question,
    );
    expect(imported.map((question) => question.type === 'short-text' && question.wildcards === true)).toEqual([
      true,
      false,
    ]);
    const drafts = imported.map((question) => draftFromQuestion(question));
    expect(drafts.map((draft) => draft.wildcards)).toEqual([true, false]);
    expect(drafts.map(toTypedQuestion)).toEqual(imported);
    const storage = new Map<string, string>();
    const store = {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
    };
    storeDraft(store, 't', { ...emptyDraft(), questions: drafts });
    expect(readStoredDraft(store, 't')!.questions.map(toTypedQuestion)).toEqual(imported);
  });
});
