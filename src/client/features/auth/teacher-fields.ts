import { t } from '@lingui/core/macro';
import type { AuthField } from '../../components/auth-form.tsx';
import { newPasswordField } from './student-account-fields.ts';

/**
 * A teacher's own details (`teacherAccountFields`): registering by invitation, or setting up the
 * school. Worded in the active locale when called (a render), so a function, not a constant.
 */
export const teacherAccountFields = (): AuthField[] => [
  { name: 'name', label: t`Full name`, autoComplete: 'name' },
  { name: 'subject', label: t`Subject`, autoComplete: 'off' },
  { name: 'email', label: t`Email`, type: 'email', autoComplete: 'email' },
  newPasswordField(),
];
