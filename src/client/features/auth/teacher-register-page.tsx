import { t as translate } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { teacherRegistrationSchema } from '#shared/accounts';
import { checkInvitation } from '#shared/contract/school-setup';
import { registerTeacher } from '#shared/contract/sign-in';
import { buttonVariants } from '../../components/ui/button-variants.ts';
import { call } from '../../lib/api.ts';
import { loginPathFor } from '../../lib/session.ts';
import { AuthForm, AuthPanel, type AuthField } from '../../components/auth-form.tsx';
import { AuthSwitchLink } from './auth-switch-link.tsx';
import { teacherAccountFields } from './teacher-fields.ts';
import { useAuthActions } from './use-auth-actions.ts';

/** Worded in the active locale when called (a render). */
const invitationField = (): AuthField => ({
  name: 'invitation',
  label: translate`Invitation code`,
  autoComplete: 'off',
  isCode: true,
  hint: translate`The code at the end of the invitation link your administrator gave you.`,
});

/** What the loader learnt of the link's invitation: none in the address, its school, or why it cannot be used. */
type InvitationCheck =
  { invitation: null } | { invitation: string; schoolName: string } | { invitation: string; failure: string };

/** The link's code, checked before the page shows (a loader, not a query: the auth pages' budget has no room for useQuery). */
export async function loader({ request }: LoaderFunctionArgs): Promise<InvitationCheck> {
  const invitation = new URL(request.url).searchParams.get('invitation')?.trim();
  if (!invitation) return { invitation: null };
  try {
    const { data } = await call(checkInvitation, { body: { invitation } }, { signal: request.signal });
    return { invitation, schoolName: data.schoolName };
  } catch (error) {
    // The client's text for the code (used, expired, revoked, not found), said on the page.
    return {
      invitation,
      failure: error instanceof Error ? error.message : translate`The invitation could not be checked.`,
    };
  }
}

/**
 * /auth/teacher/register (decision 030): teachers join by invitation. The link's
 * `?invitation=` code was checked before the page shows (the school's name, or why it cannot
 * be used) and travels with the form; without one, the form asks for the code.
 */
export function Component() {
  const check = useLoaderData<typeof loader>();
  const { t } = useLingui();
  if (check.invitation === null) return <RegistrationForm />;
  if ('failure' in check) {
    return (
      <AuthPanel title={t`This invitation cannot be used`}>
        <p
          role="alert"
          className="mt-4 rounded-lg border border-danger/25 bg-danger-soft px-3 py-2 text-sm text-danger-strong"
        >
          {check.failure}
        </p>
        <div className="mt-6 flex flex-wrap gap-3">
          <Link to="/auth/teacher/register" className={buttonVariants({ variant: 'secondary' })}>
            <Trans>Enter another code</Trans>
          </Link>
          <Link to={loginPathFor('teacher')} className={buttonVariants({ variant: 'ghost' })}>
            <Trans>Log in instead</Trans>
          </Link>
        </div>
      </AuthPanel>
    );
  }
  const { schoolName } = check;
  return (
    <RegistrationForm
      intro={
        <>
          <Trans>
            You&apos;re invited to join <strong className="text-fg">{schoolName}</strong>.
          </Trans>
        </>
      }
      invitation={check.invitation}
    />
  );
}

function RegistrationForm({ intro, invitation }: { intro?: ReactNode; invitation?: string }) {
  const { register } = useAuthActions('teacher');
  const { t } = useLingui();
  return (
    <AuthForm
      title={t`Create a teacher account`}
      intro={intro ?? t`Enter the code of the invitation your school’s administrator sent you.`}
      schema={teacherRegistrationSchema}
      fields={invitation ? teacherAccountFields() : [invitationField(), ...teacherAccountFields()]}
      hiddenValues={invitation ? { invitation } : undefined}
      submitLabel={t`Register`}
      onSubmit={(values) => register(registerTeacher, values)}
      footer={
        <AuthSwitchLink question={t`Already registered?`} to={loginPathFor('teacher')} label={t`Log in as a teacher`} />
      }
    />
  );
}
