import { useLingui } from '@lingui/react/macro';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';

/** "Sign out of all devices?" before every session of the account ends. */
export function SignOutEverywhereConfirmation({ onConfirm, onClose }: { onConfirm(): void; onClose(): void }) {
  const { t } = useLingui();
  return (
    <ConfirmDialog
      title={t`Sign out of all devices?`}
      description={t`You will be signed out on every device and browser, this one included, and any meeting you are in ends. Log in again with your password to continue.`}
      confirmLabel={t`Sign out everywhere`}
      widthClassName="w-[min(28rem,calc(100%-2rem))]"
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
