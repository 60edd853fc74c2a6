import { describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import { changePasswordFormSchema, invitationCodeSchema, studentRegistrationSchema } from './accounts.ts';
import { fieldErrorsOf } from './api.ts';
import { FIELD_ERROR_CODES, fieldCode, isFieldErrorCode } from './field-error-codes.ts';
import { FIELD_LIMITS } from './limits.ts';
import { newAssignmentSchema } from './assignments.ts';
import { accommodationInputSchema } from './quiz-accommodations.ts';
import { futureDeadlineField, questionInputSchema } from './quizzes.ts';
import { tagsField } from './resources.ts';
import { createInvitationSchema } from './school.ts';
import { TASK_LIMITS, updateTasksSchema } from './tasks.ts';

/** The field errors a schema's verdict on `value` makes. */
const codesOf = (schema: z.ZodMiniType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a refusal');
  return fieldErrorsOf(parsed.error.issues);
};

describe('fieldErrorsOf gives every problem a code (issue 32 point 3)', () => {
  it('reads the generic codes and their bounds from zod’s issues', () => {
    const schema = z.strictObject({
      required: z.string().check(z.minLength(1)),
      short: z.string().check(z.minLength(3)),
      long: z.string().check(z.maxLength(3)),
      small: z.number().check(z.gte(0)),
      positive: z.number().check(z.gt(0)),
      big: z.number().check(z.lte(5)),
      few: z.array(z.string()).check(z.minLength(2)),
      many: z.array(z.string()).check(z.maxLength(1)),
      whole: z.int(),
      number: z.number(),
      text: z.string(),
      email: z.email(),
      id: z.uuid(),
      choice: z.enum(['a', 'b']),
    });
    expect(
      codesOf(schema, {
        required: '',
        short: 'ab',
        long: 'abcd',
        small: -1,
        positive: 0,
        big: 6,
        few: ['a'],
        many: ['a', 'b'],
        whole: 1.5,
        number: 'x',
        text: 3,
        email: 'x',
        id: 'x',
        choice: 'c',
        extra: 1,
      }),
    ).toEqual([
      { field: 'required', code: 'REQUIRED' },
      { field: 'short', code: 'TOO_SHORT', params: { minimum: 3 } },
      { field: 'long', code: 'TOO_LONG', params: { maximum: 3 } },
      { field: 'small', code: 'TOO_SMALL', params: { minimum: 0, inclusive: true } },
      { field: 'positive', code: 'TOO_SMALL', params: { minimum: 0, inclusive: false } },
      { field: 'big', code: 'TOO_BIG', params: { maximum: 5, inclusive: true } },
      { field: 'few', code: 'TOO_FEW', params: { minimum: 2 } },
      { field: 'many', code: 'TOO_MANY', params: { maximum: 1 } },
      { field: 'whole', code: 'NOT_WHOLE_NUMBER' },
      { field: 'number', code: 'NOT_A_NUMBER' },
      { field: 'text', code: 'WRONG_TYPE', params: { expected: 'string' } },
      { field: 'email', code: 'INVALID_EMAIL' },
      { field: 'id', code: 'INVALID_FORMAT', params: { format: 'uuid' } },
      { field: 'choice', code: 'INVALID_CHOICE', params: { values: ['a', 'b'] } },
      { field: 'extra', code: 'UNKNOWN_FIELD' },
    ]);
  });

  it('takes a refinement’s own code and parameters from its params, and INVALID when it names none', () => {
    const schema = z.object({
      own: z
        .string()
        .check(z.refine(() => false, { error: 'x', params: fieldCode('DUPLICATE_IN_FILE', { firstRow: 3 }) })),
      none: z.string().check(z.refine(() => false, { error: 'y' })),
    });
    expect(codesOf(schema, { own: 'a', none: 'b' })).toEqual([
      { field: 'own', code: 'DUPLICATE_IN_FILE', params: { firstRow: 3 } },
      { field: 'none', code: 'INVALID' },
    ]);
  });

  it('the shared schemas name their own codes: blank, forbidden characters, usernames, passwords, codes', () => {
    const registration = {
      name: '\u200b',
      rollNumber: 'has space',
      email: 'someone@school.test',
      parentName: 'A\u0007',
      parentEmail: 'x@',
      password: '          ',
      classCode: 'K7MQ/2XHD',
    };
    expect(codesOf(studentRegistrationSchema, registration)).toEqual([
      { field: 'name', code: 'REQUIRED' },
      { field: 'rollNumber', code: 'USERNAME_CHARACTERS' },
      { field: 'parentName', code: 'FORBIDDEN_CHARACTERS' },
      { field: 'parentEmail', code: 'INVALID_EMAIL' },
      { field: 'password', code: 'ONLY_SPACES' },
      { field: 'classCode', code: 'CLASS_CODE_FORM' },
    ]);
    expect(codesOf(invitationCodeSchema, 'too-short')).toEqual([{ field: '', code: 'INVITATION_CODE_FORM' }]);
    const password = 'x'.repeat(FIELD_LIMITS.passwordMin);
    expect(
      codesOf(changePasswordFormSchema, { currentPassword: password, newPassword: password, confirmPassword: 'other' }),
    ).toEqual([
      { field: 'newPassword', code: 'PASSWORD_UNCHANGED' },
      { field: 'confirmPassword', code: 'PASSWORDS_DIFFER' },
    ]);
  });

  it('the quiz, resource and accommodation rules name their own codes, through a question’s dispatch too', () => {
    const questions = [
      { question_text: 'Q1', options: ['A', 'A'], answer: 'A' },
      {
        type: 'single',
        question_text: 'Q2',
        points: 1.2,
        options: [
          { text: 'A', correct: false },
          { text: '', correct: false },
        ],
      },
      {
        type: 'matching',
        question_text: 'Q3',
        pairs: [
          { prompt: 'P', match: '' },
          { prompt: '', match: 'M' },
        ],
        extra: 1,
      },
      { question_text: 'Q4', options: ['A', 'B'], answer: '' },
    ];
    expect(codesOf(z.array(questionInputSchema), questions)).toEqual([
      { field: '0.options', code: 'NOT_UNIQUE' },
      { field: '1.points', code: 'POINTS_NOT_HALVES' },
      { field: '1.options.1.text', code: 'OPTION_EMPTY' },
      { field: '1.options', code: 'ONE_CORRECT_OPTION' },
      { field: '2.pairs.0.match', code: 'MATCH_MISSING' },
      { field: '2.pairs', code: 'TOO_FEW_MATCHES', params: { minimum: 2 } },
      { field: '2.extra', code: 'UNKNOWN_FIELD' },
      { field: '3.answer', code: 'CORRECT_ANSWER_MISSING' },
    ]);
    expect(codesOf(accommodationInputSchema, {})).toEqual([{ field: 'extraMinutes', code: 'NO_ACCOMMODATION' }]);
    expect(codesOf(tagsField, 'a,b\u0007')).toEqual([{ field: '', code: 'FORBIDDEN_CHARACTERS' }]);
    expect(codesOf(futureDeadlineField, '2000-01-01T00:00:00Z')).toEqual([{ field: '', code: 'DEADLINE_PAST' }]);
  });

  it('the invitation, task list and assignment rules name their own codes, not INVALID', () => {
    expect(codesOf(createInvitationSchema, { note: 'For\u0007Ann' })).toEqual([
      { field: 'note', code: 'FORBIDDEN_CHARACTERS' },
    ]);
    const task = { id: 'a'.repeat(TASK_LIMITS.idLength), text: 'Mark essays', isCompleted: false };
    expect(codesOf(updateTasksSchema, { tasks: [task, task], version: 0 })).toEqual([
      { field: 'tasks', code: 'NOT_UNIQUE' },
    ]);
    const assignment = {
      classIds: [crypto.randomUUID()],
      title: 'Essay',
      points: 10,
      dueAt: '2027-01-10T10:00:00Z',
      publishAt: '2027-01-11T10:00:00Z',
    };
    expect(codesOf(newAssignmentSchema, assignment)).toEqual([{ field: 'publishAt', code: 'PUBLISH_AFTER_DUE' }]);
    expect(codesOf(newAssignmentSchema, { ...assignment, dueAt: '1999-01-10T10:00:00Z', publishAt: null })).toEqual([
      {
        field: 'dueAt',
        code: 'DATE_OUT_OF_RANGE',
        params: { minimum: expect.any(Number), maximum: expect.any(Number) },
      },
    ]);
  });

  it('knows its codes, and only those', () => {
    expect(isFieldErrorCode('TAKEN')).toBe(true);
    expect(isFieldErrorCode('toString')).toBe(false);
    expect(FIELD_ERROR_CODES.every((code) => /^[A-Z_]+$/.test(code))).toBe(true);
  });
});
