import { useLocation } from 'react-router';
import { studentLoginSchema } from '#shared/accounts';
import { logInStudent } from '#shared/contract/sign-in';
import { AuthForm } from '../../components/auth-form.tsx';
import { AuthSwitchLink } from './auth-switch-link.tsx';
import { readNotice, useAuthActions } from './use-auth-actions.ts';

export function Component() {
  const { logIn } = useAuthActions('student');
  return (
    <AuthForm
      title="Student login"
      intro="Log in with the account username (roll number) your school gave you."
      schema={studentLoginSchema}
      notice={readNotice(useLocation().state)}
      fields={[
        { name: 'rollNumber', label: 'Username', autoComplete: 'username' },
        { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
      ]}
      submitLabel="Log in"
      onSubmit={(values) => logIn(logInStudent, values)}
      footer={<AuthSwitchLink question="No account yet?" to="/auth/student/register" label="Register as a student" />}
    />
  );
}
