import { KeyRound, LogOut } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router';
import { changePasswordFormSchema } from '#shared/accounts';
import { Button } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { changePassword, logOutEverywhere } from '#shared/contract/accounts';
import { call } from '../../lib/api.ts';
import { clearSession, loginPathFor, saveSession } from '../../lib/session.ts';
import { withLoading } from '../../stores/app-store.ts';
import { useProfile } from '../session/profile.ts';
import { AccountForm } from '../../components/auth-form.tsx';
import { changePasswordFields } from './change-password-fields.ts';
import { SignOutEverywhereConfirmation } from './sign-out-everywhere-confirmation.tsx';
import { useDashboardRole } from '../session/use-dashboard-role.ts';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

const PASSWORD_FIELDS = changePasswordFields('Current password');

/**
 * /dashboard/{role}/account (decision 017): change the password (every other device is
 * signed out, this one gets a fresh token) and sign out of all devices. Reached from the
 * user name in the dashboard header and from the profile summary on the home screen.
 */
export function Component() {
  const role = useDashboardRole();
  const navigate = useNavigate();
  const profile = useProfile(role);
  const [isConfirming, setIsConfirming] = useState(false);
  const signedInAs = profile ? ('rollNumber' in profile ? profile.rollNumber : profile.email) : '';

  const signOutEverywhere = async () => {
    try {
      const { message } = await withLoading(() => call(logOutEverywhere[role]));
      clearSession();
      await navigate(loginPathFor(role), { replace: true, state: { notice: message } });
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Something went wrong');
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 pb-16">
      <PageTitle>Account</PageTitle>
      <PageHeader
        title="Account"
        description={
          profile ? (
            <>
              Signed in as <span className="font-semibold text-fg">{profile.name}</span> ({signedInAs})
            </>
          ) : null
        }
      />

      <section aria-labelledby="change-password-title" className={cn(cardVariants(), 'rounded-2xl p-5 sm:p-8')}>
        <h2 id="change-password-title" className="flex items-center gap-2 text-xl font-bold text-fg">
          <KeyRound className="size-5 text-brand-700" aria-hidden="true" />
          Change password
        </h2>
        <p className="mt-1 text-sm text-muted">
          Every other device and browser signed in to your account is signed out. This one stays signed in.
        </p>
        <AccountForm
          schema={changePasswordFormSchema}
          fields={PASSWORD_FIELDS}
          submitLabel="Change password"
          accountName={signedInAs}
          className="mt-5 flex flex-col gap-4"
          submitClassName="self-start"
          isResetOnSuccess
          onSubmit={async ({ currentPassword, newPassword }) => {
            const { message, data: token } = await call(changePassword[role], {
              body: { currentPassword, newPassword },
            });
            saveSession({ token, userType: role });
            toast.success(message);
          }}
        />
      </section>

      <section aria-labelledby="sign-out-everywhere-title" className={cn(cardVariants(), 'rounded-2xl p-5 sm:p-8')}>
        <h2 id="sign-out-everywhere-title" className="flex items-center gap-2 text-xl font-bold text-fg">
          <LogOut className="size-5 text-brand-700" aria-hidden="true" />
          Sign out of all devices
        </h2>
        <p className="mt-1 text-sm text-muted">
          Left your account open on a shared computer, or lost a phone? This signs you out everywhere, here included,
          and ends any meeting you are in. You can log in again with your password.
        </p>
        <Button variant="danger" className="mt-5" onClick={() => setIsConfirming(true)}>
          Sign out of all devices
        </Button>
        {isConfirming ? (
          <SignOutEverywhereConfirmation
            onConfirm={() => void signOutEverywhere()}
            onClose={() => setIsConfirming(false)}
          />
        ) : null}
      </section>
    </div>
  );
}
