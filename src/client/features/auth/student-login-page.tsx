import { useLingui } from '@lingui/react/macro';
import { useLocation } from 'react-router';
import { studentLoginSchema } from '#shared/accounts';
import { logInStudent } from '#shared/contract/sign-in';
import { AuthForm } from '../../components/auth-form.tsx';
import { AuthSwitchLink } from './auth-switch-link.tsx';
import { readNotice, useAuthActions } from './use-auth-actions.ts';

export function Component() {
  const { logIn } = useAuthActions('student');
  const { t } = useLingui();
  return (
    <AuthForm
      title={t`Student login`}
      intro={t`Log in with the account username (roll number) your school gave you.`}
      schema={studentLoginSchema}
      notice={readNotice(useLocation().state)}
      fields={[
        { name: 'rollNumber', label: t`Username`, autoComplete: 'username', isCode: true },
        { name: 'password', label: t`Password`, type: 'password', autoComplete: 'current-password' },
      ]}
      submitLabel={t`Log in`}
      onSubmit={(values) => logIn(logInStudent, values)}
      footer={
        <AuthSwitchLink question={t`No account yet?`} to="/auth/student/register" label={t`Register as a student`} />
      }
    />
  );
}
