import { t as translate } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useSearchParams } from 'react-router';
import { studentRegistrationSchema } from '#shared/accounts';
import { registerStudent } from '#shared/contract/sign-in';
import { AuthForm } from '../../components/auth-form.tsx';
import { studentAccountFields } from './student-account-fields.ts';
import { AuthSwitchLink } from './auth-switch-link.tsx';
import { useAuthActions } from './use-auth-actions.ts';

/** The class code field, prefilled from a shared link's `?code=` (decision 031). */
const classCodeField = (code: string | null) => ({
  name: 'classCode',
  label: translate`Class code`,
  autoComplete: 'off',
  isCode: true,
  hint: translate`From your teacher, e.g. ABCD-EFGH.`,
  defaultValue: code ?? undefined,
});

export function Component() {
  const { register } = useAuthActions('student');
  const { t } = useLingui();
  const [searchParams] = useSearchParams();
  const fields = studentAccountFields({
    isForSomeoneElse: false,
    classField: classCodeField(searchParams.get('code')),
  });
  return (
    <AuthForm
      title={t`Create a student account`}
      intro={t`Take quizzes, find resources and follow your progress.`}
      schema={studentRegistrationSchema}
      fields={fields}
      submitLabel={t`Register`}
      onSubmit={(values) => register(registerStudent, values)}
      footer={
        <AuthSwitchLink
          question={t`Already have an account?`}
          to="/auth/student/login"
          label={t`Log in as a student`}
        />
      }
    />
  );
}
