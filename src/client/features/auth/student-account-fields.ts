import { FIELD_LIMITS } from '#shared/limits';
import type { AuthField } from '../../components/auth-form.tsx';

/**
 * The SPEC §5 student fields, for a student registering or a teacher adding one. Filled in for
 * someone else, the browser must not offer the teacher's own name, email or login. The class
 * is not typed (decision 031): a student gives the class code, a teacher picks a class.
 */
export function studentAccountFields({
  isForSomeoneElse,
  classField,
}: {
  isForSomeoneElse: boolean;
  /** Where the class is asked, after the email (registration's class code). */
  classField?: AuthField;
}): AuthField[] {
  const own = (autoComplete: string) => (isForSomeoneElse ? 'off' : autoComplete);
  return [
    { name: 'name', label: 'Name', autoComplete: own('name') },
    {
      name: 'rollNumber',
      label: 'Account username',
      autoComplete: own('username'),
      hint: isForSomeoneElse
        ? 'The roll number; the student logs in with it.'
        : 'Your roll number; you log in with it.',
    },
    { name: 'email', label: 'Email', type: 'email', autoComplete: own('email') },
    ...(classField ? [classField] : []),
    { name: 'parentName', label: 'Parent name', autoComplete: 'off' },
    { name: 'parentEmail', label: 'Parent email', type: 'email', autoComplete: 'off' },
    newPasswordField(isForSomeoneElse ? ' Give it to the student.' : ''),
  ];
}

/** A password being set, with the rule it must meet (and what to do with it, for someone else's). */
export const newPasswordField = (more = ''): AuthField => ({
  name: 'password',
  label: 'Password',
  type: 'password',
  autoComplete: 'new-password',
  hint: `At least ${FIELD_LIMITS.passwordMin} characters.${more}`,
});
