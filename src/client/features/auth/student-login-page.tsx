import { Link, useLocation } from 'react-router';
import { studentLoginSchema } from '#shared/accounts';
import { AuthForm } from './auth-form.tsx';
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
      onSubmit={(values) => logIn('/api/student/login', values)}
      footer={
        <>
          No account yet?{' '}
          <Link className="font-semibold text-brand-700 underline" to="/auth/student/register">
            Register as a student
          </Link>
        </>
      }
    />
  );
}
