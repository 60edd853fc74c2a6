import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import toast from 'react-hot-toast/headless';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { changePasswordFormSchema } from '#shared/accounts';
import { changePassword } from '#shared/contract/accounts';
import { BrandLink } from '../../components/ui/brand-link.tsx';
import { Button } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { call } from '../../lib/api.ts';
import { dashboardPathFor, readReturnTo, saveSession } from '../../lib/session.ts';
import { AccountForm, AuthPanel } from '../../components/auth-form.tsx';
import { changePasswordFields } from './change-password-fields.ts';
import { profileQueries } from '../session/profile.ts';
import { RoleGuard } from '../session/role-guard.tsx';
import { useLogout } from '../session/use-logout.ts';

/**
 * /dashboard/student/choose-password (decision 033): a student whose teacher reset the password
 * signed in with the temporary one and must choose their own before anything else. Outside the
 * dashboard and its study mode: the server opens nothing else to this session, and the dashboard
 * sends the student here (RoleDashboard) until the profile says the change is done.
 */
export function Component() {
  // Where the student was going when the dashboard sent them here: only an address of their own
  // dashboard (readReturnTo), so a crafted state cannot lead anywhere else.
  const nextPath = readReturnTo(useLocation().state, 'student') ?? dashboardPathFor('student');
  return (
    <RoleGuard role="student">
      {(profile) =>
        profile.mustChangePassword ? (
          <ChoosePassword accountName={profile.rollNumber} nextPath={nextPath} />
        ) : (
          <Navigate to={nextPath} replace />
        )
      }
    </RoleGuard>
  );
}

function ChoosePassword({ accountName, nextPath }: { accountName: string; nextPath: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const logOut = useLogout();
  const { t } = useLingui();
  return (
    <div className="flex min-h-screen flex-col">
      <PageTitle>{t`Choose a new password`}</PageTitle>
      <header className="border-b border-line bg-surface">
        <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-4 sm:px-6">
          <BrandLink />
          <Button variant="secondary" size="sm" onClick={() => void logOut()}>
            <Trans>Log out</Trans>
          </Button>
        </div>
      </header>
      <AuthPanel
        title={t`Choose a new password`}
        intro={t`Your teacher reset your password. Type the temporary password you were given, then a new one that only you know. You can use StudyHall once it is changed.`}
      >
        <AccountForm
          schema={changePasswordFormSchema}
          fields={changePasswordFields('temporary')}
          submitLabel={t`Save my new password`}
          accountName={accountName}
          className="mt-6 flex flex-col gap-4"
          submitClassName="mt-2 w-full"
          isResetOnSuccess
          onSubmit={async ({ currentPassword, newPassword }) => {
            const { data: token } = await call(changePassword.student, {
              body: { currentPassword, newPassword },
            });
            saveSession({ token, userType: 'student' });
            toast.success(t`Your password was changed. Other devices were signed out; this one stays signed in.`);
            // The profile now says the change is done: the address the student was going to opens.
            await queryClient.invalidateQueries({ queryKey: profileQueries.all });
            await navigate(nextPath, { replace: true });
          }}
        />
      </AuthPanel>
    </div>
  );
}
