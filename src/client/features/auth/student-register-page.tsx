import { FIELD_LIMITS } from '#shared/limits';
import { studentRegistrationSchema } from '#shared/accounts';
import { registerStudent } from '#shared/contract/sign-in';
import { AuthForm, type AuthField } from './auth-form.tsx';
import { AuthSwitchLink } from './auth-switch-link.tsx';
import { useAuthActions } from './use-auth-actions.ts';

/** The student fields of SPEC §5. */
const STUDENT_ACCOUNT_FIELDS: AuthField[] = [
  { name: 'name', label: 'Name', autoComplete: 'name' },
  {
    name: 'rollNumber',
    label: 'Account username',
    autoComplete: 'username',
    hint: 'Your roll number; you log in with it.',
  },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
  { name: 'class', label: 'Class', autoComplete: 'off' },
  { name: 'parentName', label: 'Parent name', autoComplete: 'off' },
  { name: 'parentEmail', label: 'Parent email', type: 'email', autoComplete: 'off' },
  {
    name: 'password',
    label: 'Password',
    type: 'password',
    autoComplete: 'new-password',
    hint: `At least ${FIELD_LIMITS.passwordMin} characters.`,
  },
];

export function Component() {
  const { register } = useAuthActions('student');
  return (
    <AuthForm
      title="Create a student account"
      intro="Take quizzes, find resources and follow your progress."
      schema={studentRegistrationSchema}
      fields={STUDENT_ACCOUNT_FIELDS}
      submitLabel="Register"
      onSubmit={(values) => register(registerStudent, values)}
      footer={
        <AuthSwitchLink question="Already have an account?" to="/auth/student/login" label="Log in as a student" />
      }
    />
  );
}
