import { describe, expect, it } from 'vitest';
import { changePasswordFormSchema, changePasswordSchema } from './accounts.ts';

/** Field → first message, as the forms show them. */
function problems(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const byField: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) byField[String(issue.path[0])] ??= issue.message;
  return byField;
}

describe('changePasswordSchema (decision 017)', () => {
  it('takes any current password and a new one by the registration rules', () => {
    expect(changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: 'long enough now' }).success).toBe(true);
    expect(problems(changePasswordSchema.safeParse({ currentPassword: '', newPassword: 'short' }))).toEqual({
      currentPassword: 'Current password is required',
      newPassword: 'New password must be at least 8 characters',
    });
    expect(problems(changePasswordSchema.safeParse({ currentPassword: 'x', newPassword: ' '.repeat(9) }))).toEqual({
      newPassword: 'New password must not be only spaces',
    });
  });

  it('refuses a new password equal to the current one', () => {
    expect(
      problems(changePasswordSchema.safeParse({ currentPassword: 'same password', newPassword: 'same password' })),
    ).toEqual({ newPassword: 'The new password must be different from the current one' });
  });
});

describe('changePasswordFormSchema', () => {
  const valid = { currentPassword: 'old password', newPassword: 'new password', confirmPassword: 'new password' };

  it('also wants the new password typed twice, the same both times', () => {
    expect(changePasswordFormSchema.safeParse(valid).success).toBe(true);
    expect(problems(changePasswordFormSchema.safeParse({ ...valid, confirmPassword: 'new passwort' }))).toEqual({
      confirmPassword: 'The two new passwords do not match',
    });
  });

  it('reports every field at once, so the form marks each', () => {
    expect(
      problems(changePasswordFormSchema.safeParse({ currentPassword: '', newPassword: 'short', confirmPassword: '' })),
    ).toMatchObject({
      currentPassword: 'Current password is required',
      newPassword: 'New password must be at least 8 characters',
    });
  });
});
