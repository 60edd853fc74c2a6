import { useLingui } from '@lingui/react/macro';
import { useLocation } from 'react-router';
import { teacherLoginSchema } from '#shared/accounts';
import { logInTeacher } from '#shared/contract/sign-in';
import { AuthForm } from '../../components/auth-form.tsx';
import { AuthSwitchLink } from './auth-switch-link.tsx';
import { readNotice, useAuthActions } from './use-auth-actions.ts';

export function Component() {
  const { logIn } = useAuthActions('teacher');
  const { t } = useLingui();
  return (
    <AuthForm
      title={t`Teacher login`}
      intro={t`Welcome back. Log in with your school email.`}
      schema={teacherLoginSchema}
      notice={readNotice(useLocation().state)}
      fields={[
        { name: 'email', label: t`Email`, type: 'email', autoComplete: 'email' },
        { name: 'password', label: t`Password`, type: 'password', autoComplete: 'current-password' },
      ]}
      submitLabel={t`Log in`}
      onSubmit={(values) => logIn(logInTeacher, values)}
      footer={
        <AuthSwitchLink
          question={t`New to StudyHall?`}
          to="/auth/teacher/register"
          label={t`Create a teacher account`}
        />
      }
    />
  );
}
