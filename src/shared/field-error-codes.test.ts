import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { changePasswordFormSchema, invitationCodeSchema, studentRegistrationSchema } from './accounts.ts';
import { fieldErrorsOf } from './api.ts';
import { FIELD_ERROR_CODES, fieldCode, isFieldErrorCode } from './field-error-codes.ts';
import { FIELD_LIMITS } from './limits.ts';

/** The field errors a schema's verdict on `value` makes, without their messages. */
const codesOf = (schema: z.ZodType, value: unknown) => {
  const parsed = schema.safeParse(value);
  if (parsed.success) throw new Error('expected a refusal');
  return fieldErrorsOf(parsed.error.issues).map(({ message: _message, ...error }) => error);
};

describe('fieldErrorsOf gives every problem a code (issue 32 point 3)', () => {
  it('reads the generic codes and their bounds from zod’s issues', () => {
    const schema = z.strictObject({
      required: z.string().min(1),
      short: z.string().min(3),
      long: z.string().max(3),
      small: z.number().min(0),
      positive: z.number().gt(0),
      big: z.number().max(5),
      few: z.array(z.string()).min(2),
      many: z.array(z.string()).max(1),
      whole: z.number().int(),
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
      own: z.string().refine(() => false, { error: 'x', params: fieldCode('DUPLICATE_IN_FILE', { firstRow: 3 }) }),
      none: z.string().refine(() => false, { error: 'y' }),
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

  it('knows its codes, and only those', () => {
    expect(isFieldErrorCode('TAKEN')).toBe(true);
    expect(isFieldErrorCode('toString')).toBe(false);
    expect(Object.keys(FIELD_ERROR_CODES).every((code) => /^[A-Z_]+$/.test(code))).toBe(true);
  });
});
