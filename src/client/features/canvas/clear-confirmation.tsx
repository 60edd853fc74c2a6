import { Button } from '../../components/ui/button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';

/**
 * "Clear the whiteboard?" before Clear empties a drawing (decision 011: SPEC
 * §4 makes Clear empty the history, so it cannot be undone). A modal native
 * <dialog>, not `window.confirm`: in the student's study mode a browser dialog
 * leaves full screen and counts as leaving the window. Mount it to ask; the
 * safe answer has the focus.
 */
export function ClearConfirmation({ onConfirm, onClose }: { onConfirm(): void; onClose(): void }) {
  return (
    <ModalDialog
      title="Clear the whiteboard?"
      role="alertdialog"
      description="Your whole drawing and its undo history will be removed. This cannot be undone. Use Save first if you want to keep a copy."
      initialFocus="[data-safe-answer]"
      widthClassName="w-[min(26rem,calc(100%-2rem))]"
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
            Clear drawing
          </Button>
        </div>
      )}
    </ModalDialog>
  );
}
