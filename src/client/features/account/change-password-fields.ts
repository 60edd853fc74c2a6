import { plural, t } from '@lingui/core/macro';
import { FIELD_LIMITS } from '#shared/limits';
import type { AuthField } from '../../components/auth-form.tsx';
import { formatNumber } from '../../lib/format.ts';

/**
 * The fields of a password change (changePasswordFormSchema): the account page's and the forced
 * choice after a reset (decision 033) differ only in what the current password is (the account's
 * own, or the temporary one a teacher gave) and in the new one's hint. Worded in the active
 * locale when called (a render), so a function, not a constant.
 */
export const changePasswordFields = (current: 'own' | 'temporary'): AuthField[] => {
  const min = formatNumber(FIELD_LIMITS.passwordMin);
  const max = FIELD_LIMITS.passwordMax;
  return [
    {
      name: 'currentPassword',
      label: current === 'own' ? t`Current password` : t`Temporary password`,
      type: 'password',
      autoComplete: 'current-password',
    },
    {
      name: 'newPassword',
      label: t`New password`,
      type: 'password',
      autoComplete: 'new-password',
      hint:
        current === 'own'
          ? t`${min} to ${plural(max, { one: '# character', other: '# characters' })}.`
          : t`${min} to ${plural(max, { one: '# character', other: '# characters' })}, only you should know it.`,
    },
    { name: 'confirmPassword', label: t`Confirm new password`, type: 'password', autoComplete: 'new-password' },
  ];
};
