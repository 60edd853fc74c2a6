import { studentRegistrationSchema } from '#shared/accounts';
import { registerStudent } from '#shared/contract/sign-in';
import { AuthForm } from './auth-form.tsx';
import { studentAccountFields } from './student-account-fields.ts';
import { AuthSwitchLink } from './auth-switch-link.tsx';
import { useAuthActions } from './use-auth-actions.ts';

const STUDENT_ACCOUNT_FIELDS = studentAccountFields({ isForSomeoneElse: false });

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
