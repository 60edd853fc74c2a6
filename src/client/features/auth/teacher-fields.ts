import type { AuthField } from '../../components/auth-form.tsx';
import { newPasswordField } from './student-account-fields.ts';

/** A teacher's own details (`teacherAccountFields`): registering by invitation, or setting up the school. */
export const TEACHER_ACCOUNT_FIELDS: AuthField[] = [
  { name: 'name', label: 'Full name', autoComplete: 'name' },
  { name: 'subject', label: 'Subject', autoComplete: 'off' },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  newPasswordField(),
];
