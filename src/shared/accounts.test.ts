import { describe, expect, it } from 'vitest';
import { changePasswordFormSchema, changePasswordSchema } from './accounts.ts';
import { fieldErrorsOf, type ValidationIssue } from './api.ts';

/** Field → its first problem's code (and parameters), which the forms word. */
function problems(result: { success: boolean; error?: { issues: ValidationIssue[] } }) {
  const byField: Record<string, string> = {};
  for (const { field, code, params } of fieldErrorsOf(result.error?.issues ?? []))
    byField[field] ??= params ? `${code} ${JSON.stringify(params)}` : code;
  return byField;
}

describe('changePasswordSchema (decision 017)', () => {
  it('takes any current password and a new one by the registration rules', () => {
    expect(changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: 'long enough now' }).success).toBe(true);
    expect(problems(changePasswordSchema.safeParse({ currentPassword: '', newPassword: 'short' }))).toEqual({
      currentPassword: 'REQUIRED',
      newPassword: 'TOO_SHORT {"minimum":8}',
    });
    expect(problems(changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: ' '.repeat(9) }))).toEqual({
      newPassword: 'ONLY_SPACES',
    });
  });

  it('refuses a new password equal to the current one', () => {
    expect(
      problems(changePasswordSchema.safeParse({ currentPassword: 'same password', newPassword: 'same password' })),
    ).toEqual({ newPassword: 'PASSWORD_UNCHANGED' });
  });
});

describe('changePasswordFormSchema', () => {
  const valid = { currentPassword: 'old password', newPassword: 'new password', confirmPassword: 'new password' };

  it('also wants the new password typed twice, the same both times', () => {
    expect(changePasswordFormSchema.safeParse(valid).success).toBe(true);
    expect(problems(changePasswordFormSchema.safeParse({ ...valid, confirmPassword: 'new passwort' }))).toEqual({
      confirmPassword: 'PASSWORDS_DIFFER',
    });
  });

  it('reports every field at once, so the form marks each', () => {
    expect(
      problems(changePasswordFormSchema.safeParse({ currentPassword: '', newPassword: 'short', confirmPassword: '' })),
    ).toMatchObject({
      currentPassword: 'REQUIRED',
      newPassword: 'TOO_SHORT {"minimum":8}',
    });
  });
});
