import { Link, useLocation } from 'react-router';
import { teacherLoginSchema } from '#shared/accounts';
import { AuthForm } from './auth-form.tsx';
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
      onSubmit={(values) => logIn('/api/teacher/login', values)}
      footer={
        <>
          New to StudyHall?{' '}
          <Link className="font-semibold text-brand-700 underline" to="/auth/teacher/register">
            Create a teacher account
          </Link>
        </>
      }
    />
  );
}
