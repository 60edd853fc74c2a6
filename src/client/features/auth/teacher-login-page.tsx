import { useLocation } from 'react-router';
import { teacherLoginSchema } from '#shared/accounts';
import { logInTeacher } from '#shared/contract/sign-in';
import { AuthForm } from '../../components/auth-form.tsx';
import { AuthSwitchLink } from './auth-switch-link.tsx';
import { readNotice, useAuthActions } from './use-auth-actions.ts';

export function Component() {
  const { logIn } = useAuthActions('teacher');
  return (
    <AuthForm
      title="Teacher login"
      intro="Welcome back. Log in with your school email."
      schema={teacherLoginSchema}
      notice={readNotice(useLocation().state)}
      fields={[
        { name: 'email', label: 'Email', type: 'email', autoComplete: 'email' },
        { name: 'password', label: 'Password', type: 'password', autoComplete: 'current-password' },
      ]}
      submitLabel="Log in"
      onSubmit={(values) => logIn(logInTeacher, values)}
      footer={
        <AuthSwitchLink question="New to StudyHall?" to="/auth/teacher/register" label="Create a teacher account" />
      }
    />
  );
}
