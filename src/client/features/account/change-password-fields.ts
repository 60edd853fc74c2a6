import { FIELD_LIMITS } from '#shared/limits';
import type { AuthField } from '../../components/auth-form.tsx';

/**
 * The fields of a password change (changePasswordFormSchema): the account page's and the forced
 * choice after a reset (decision 033) differ only in what the current password is called and
 * in the new one's hint.
 */
export const changePasswordFields = (currentLabel: string, newPasswordHintMore = ''): AuthField[] => [
  { name: 'currentPassword', label: currentLabel, type: 'password', autoComplete: 'current-password' },
  {
    name: 'newPassword',
    label: 'New password',
    type: 'password',
    autoComplete: 'new-password',
    hint: `${FIELD_LIMITS.passwordMin} to ${FIELD_LIMITS.passwordMax} characters${newPasswordHintMore}.`,
  },
  { name: 'confirmPassword', label: 'Confirm new password', type: 'password', autoComplete: 'new-password' },
];
