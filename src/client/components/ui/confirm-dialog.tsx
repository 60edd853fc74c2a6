import { Trans } from '@lingui/react/macro';
import { Button } from './button.tsx';
import { ModalDialog } from './modal-dialog.tsx';

/**
 * A question before something that cannot be undone. A modal native <dialog>, not
 * `window.confirm`: in the student's study mode a browser dialog leaves full screen and
 * counts as leaving the window. Mount it to ask; the safe answer (Cancel) has the focus.
 */
export function ConfirmDialog(props: {
  title: string;
  description: string;
  confirmLabel: string;
  /** The safe answer; 'Cancel' unless told otherwise. */
  cancelLabel?: string;
  widthClassName: string;
  onConfirm(): void;
  onClose(): void;
}) {
  return (
    <ModalDialog
      title={props.title}
      role="alertdialog"
      description={props.description}
      initialFocus="[data-safe-answer]"
      widthClassName={props.widthClassName}
      onClose={props.onClose}
    >
      {(close) => (
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button data-safe-answer variant="secondary" onClick={close}>
            {props.cancelLabel ?? <Trans>Cancel</Trans>}
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              props.onConfirm();
              close();
            }}
          >
            {props.confirmLabel}
          </Button>
        </div>
      )}
    </ModalDialog>
  );
}

/** A question a screen holds while it asks, and the change it makes on yes. */
export type PendingChange = { title: string; description: string; confirmLabel: string; run(): void };

/** Asks a held question (a ConfirmDialog): the change runs on the confirmation. */
export function PendingChangeConfirm({
  pending,
  onClose,
  widthClassName = 'w-[min(28rem,calc(100%-2rem))]',
}: {
  pending: PendingChange;
  onClose(): void;
  widthClassName?: string;
}) {
  return (
    <ConfirmDialog
      title={pending.title}
      description={pending.description}
      confirmLabel={pending.confirmLabel}
      widthClassName={widthClassName}
      onConfirm={pending.run}
      onClose={onClose}
    />
  );
}
