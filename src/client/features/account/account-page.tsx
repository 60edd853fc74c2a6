import { Trans, useLingui } from '@lingui/react/macro';
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
import { LanguageSetting } from './language-setting.tsx';
import { useDashboardRole } from '../session/use-dashboard-role.ts';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

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
  const { t } = useLingui();
  const signedInAs = profile ? ('rollNumber' in profile ? profile.rollNumber : profile.email) : '';

  const signOutEverywhere = async () => {
    try {
      await withLoading(() => call(logOutEverywhere[role]));
      clearSession();
      await navigate(loginPathFor(role), {
        replace: true,
        state: { notice: t`You were signed out of all devices, this one included` },
      });
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Something went wrong`);
    }
  };

  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6 pb-16">
      <PageTitle>{t`Account`}</PageTitle>
      <PageHeader
        title={t`Account`}
        description={profile ? <SignedInAs name={profile.name} account={signedInAs} /> : null}
      />

      <section aria-labelledby="change-password-title" className={cn(cardVariants({ rounded: '2xl' }), 'p-5 sm:p-8')}>
        <h2 id="change-password-title" className="flex items-center gap-2 text-xl font-bold text-fg">
          <KeyRound className="size-5 text-brand-700" aria-hidden="true" />
          <Trans>Change password</Trans>
        </h2>
        <p className="mt-1 text-sm text-muted">
          <Trans>
            Every other device and browser signed in to your account is signed out. This one stays signed in.
          </Trans>
        </p>
        <AccountForm
          schema={changePasswordFormSchema}
          fields={changePasswordFields('own')}
          submitLabel={t`Change password`}
          accountName={signedInAs}
          className="mt-5 flex flex-col gap-4"
          submitClassName="self-start"
          isResetOnSuccess
          onSubmit={async ({ currentPassword, newPassword }) => {
            const { data: token } = await call(changePassword[role], {
              body: { currentPassword, newPassword },
            });
            saveSession({ token, userType: role });
            toast.success(t`Your password was changed. Other devices were signed out; this one stays signed in.`);
          }}
        />
      </section>

      <LanguageSetting role={role} />

      <section
        aria-labelledby="sign-out-everywhere-title"
        className={cn(cardVariants({ rounded: '2xl' }), 'p-5 sm:p-8')}
      >
        <h2 id="sign-out-everywhere-title" className="flex items-center gap-2 text-xl font-bold text-fg">
          <LogOut className="size-5 text-brand-700 rtl:-scale-x-100" aria-hidden="true" />
          <Trans>Sign out of all devices</Trans>
        </h2>
        <p className="mt-1 text-sm text-muted">
          <Trans>
            Left your account open on a shared computer, or lost a phone? This signs you out everywhere, here included,
            and ends any meeting you are in. You can log in again with your password.
          </Trans>
        </p>
        <Button variant="danger" className="mt-5" onClick={() => setIsConfirming(true)}>
          <Trans>Sign out of all devices</Trans>
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

/** "Signed in as Ana Ruiz (ana@school.example)": the name and the login kept whole in right-to-left text. */
function SignedInAs({ name, account }: { name: string; account: string }) {
  return (
    <Trans>
      Signed in as{' '}
      <span className="font-semibold text-fg">
        <bdi>{name}</bdi>
      </span>{' '}
      (<bdi>{account}</bdi>)
    </Trans>
  );
}
