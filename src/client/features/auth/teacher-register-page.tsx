import { FIELD_LIMITS } from '#shared/limits';
import { teacherRegistrationSchema } from '#shared/accounts';
import { registerTeacher } from '#shared/contract/sign-in';
import { AuthForm } from './auth-form.tsx';
import { AuthSwitchLink } from './auth-switch-link.tsx';
import { useAuthActions } from './use-auth-actions.ts';

export function Component() {
  const { register } = useAuthActions('teacher');
  return (
    <AuthForm
      title="Create a teacher account"
      intro="Publish quizzes, share resources and follow your classes."
      schema={teacherRegistrationSchema}
      fields={[
        { name: 'name', label: 'Full name', autoComplete: 'name' },
        { name: 'subject', label: 'Subject', autoComplete: 'off' },
        { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
        {
          name: 'password',
          label: 'Password',
          type: 'password',
          autoComplete: 'new-password',
          hint: `At least ${FIELD_LIMITS.passwordMin} characters.`,
        },
      ]}
      submitLabel="Register"
      onSubmit={(values) => register(registerTeacher, values)}
      footer={<AuthSwitchLink question="Already registered?" to="/auth/teacher/login" label="Log in as a teacher" />}
    />
  );
}
