import { describe, expect, it } from 'vitest';
import { newQuizSchema } from '#shared/quizzes';
import { checkBody, formErrorsOf } from '../../../components/form/field-errors.ts';
import {
  emptyDraft,
  errorSlot,
  newQuestion,
  refineMessages,
  toLocalInputValue,
  toQuizPayload,
  type QuizDraft,
} from './quiz-draft.ts';

const teacher = { _id: 't1', subject: 'Maths' };

function filledDraft(): QuizDraft {
  const question = newQuestion();
  question.question_text = 'Half of 1?';
  question.options = [
    { key: 'o1', text: ' 1/2 ' },
    { key: 'o2', text: '' },
    { key: 'o3', text: '1/3' },
  ];
  question.answerKey = 'o1';
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

describe('the quiz draft', () => {
  it('starts a question with empty text, one empty option and no answer', () => {
    const question = newQuestion();
    expect(question.question_text).toBe('');
    expect(question.options.map((option) => option.text)).toEqual(['']);
    expect(question.answerKey).toBe('');
  });

  it('writes datetime-local values in local time to the minute', () => {
    expect(toLocalInputValue(new Date(2026, 0, 5, 7, 3, 59))).toBe('2026-01-05T07:03');
  });

  it('becomes a payload the shared schema accepts, with empty options dropped', () => {
    const draft = filledDraft();
    const payload = toQuizPayload(draft, teacher, new Date('2026-11-21T10:00:00Z'));
    expect(payload.quiz.questions[0]).toEqual({ question_text: 'Half of 1?', options: ['1/2', '1/3'], answer: '1/2' });
    expect(payload.maxTime).toBe(15);
    expect(payload.deadline).toBe(new Date(draft.deadline).toISOString());
    expect(payload).toMatchObject({ createdBy: { _id: 't1' }, subject: 'Maths', date: '2026-11-21T10:00:00.000Z' });
    expect(newQuizSchema.safeParse(payload).success).toBe(true);
  });

  it('maps problems to the fields that show them', () => {
    const draft = { ...filledDraft(), title: ' ', maxTime: '', deadline: '' };
    draft.questions[0]!.answerKey = '';
    draft.questions[0]!.options = [{ key: 'a', text: '=x\u0001' }];
    const checked = checkBody(newQuizSchema, toQuizPayload(draft, teacher), errorSlot);
    if (checked.isValid) throw new Error('the draft should be refused');
    const errors = refineMessages(checked.errors, draft);
    expect(errors).toMatchObject({
      title: 'Title is required',
      deadline: 'Deadline is required',
      maxTime: 'Maximum time is required',
      'quiz.questions.0.options': expect.any(String),
    });
  });

  it('groups option-level server errors under the question', () => {
    expect(
      formErrorsOf(
        [
          { field: 'quiz.questions.1.options.3', message: 'too long' },
          { field: 'quiz.questions.1.options', message: 'later' },
          { field: 'quiz.questions.1.answer', message: 'Choose the correct answer' },
        ],
        errorSlot,
      ),
    ).toEqual({ 'quiz.questions.1.options': 'too long', 'quiz.questions.1.answer': 'Choose the correct answer' });
  });
});
