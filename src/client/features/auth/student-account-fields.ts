import { plural, t } from '@lingui/core/macro';
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
    { name: 'name', label: t`Name`, autoComplete: own('name') },
    {
      name: 'rollNumber',
      label: t`Account username`,
      autoComplete: own('username'),
      isCode: true,
      hint: isForSomeoneElse
        ? t`The roll number; the student logs in with it.`
        : t`Your roll number; you log in with it.`,
    },
    { name: 'email', label: t`Email`, type: 'email', autoComplete: own('email') },
    ...(classField ? [classField] : []),
    { name: 'parentName', label: t`Parent name`, autoComplete: 'off' },
    { name: 'parentEmail', label: t`Parent email`, type: 'email', autoComplete: 'off' },
    newPasswordField(isForSomeoneElse ? t`Give it to the student.` : ''),
  ];
}

/** The password rule, a plural (`minimum` is a setting): its unit test checks the six Arabic forms. */
export const passwordRule = (minimum: number) =>
  t`At least ${plural(minimum, { one: '# character', other: '# characters' })}.`;

/** A password being set, with the rule it must meet (and what to do with it, for someone else's). */
export const newPasswordField = (more = ''): AuthField => ({
  name: 'password',
  label: t`Password`,
  type: 'password',
  autoComplete: 'new-password',
  hint: [passwordRule(FIELD_LIMITS.passwordMin), more].filter(Boolean).join(' '),
});
