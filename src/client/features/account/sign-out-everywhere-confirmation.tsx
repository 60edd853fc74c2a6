import { Button } from '../../components/ui/button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';

/**
 * "Sign out of all devices?" before every session of the account ends. A modal native
 * <dialog>, not `window.confirm`: in the student's study mode a browser dialog leaves full
 * screen and counts as leaving the window. Mount it to ask; the safe answer has the focus.
 */
export function SignOutEverywhereConfirmation({ onConfirm, onClose }: { onConfirm(): void; onClose(): void }) {
  return (
    <ModalDialog
      title="Sign out of all devices?"
      role="alertdialog"
      description="You will be signed out on every device and browser, this one included, and any meeting you are in ends. Log in again with your password to continue."
      initialFocus="[data-safe-answer]"
      widthClassName="w-[min(28rem,calc(100%-2rem))]"
      onClose={onClose}
    >
      {(close) => (
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button data-safe-answer variant="secondary" onClick={close}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              onConfirm();
              close();
            }}
          >
            Sign out everywhere
          </Button>
        </div>
      )}
    </ModalDialog>
  );
}
