import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';

/**
 * "Clear the whiteboard?" before Clear empties a drawing (decision 011: SPEC
 * §4 makes Clear empty the history, so it cannot be undone). A modal native
 * <dialog> (focus kept inside, Escape cancels, the page behind inert; the
 * browser returns the focus to Clear when it closes). Not `window.confirm`:
 * in the student's study mode a browser dialog leaves full screen and counts
 * as leaving the window. Mount it to ask; the safe answer has the focus.
 */
export function ClearConfirmation({ onConfirm, onClose }: { onConfirm(): void; onClose(): void }) {
  // The element in state, not a ref: the buttons need it while rendering.
  const [dialog, setDialog] = useState<HTMLDialogElement | null>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    // StrictMode runs this twice; showModal on an open dialog would throw.
    if (!dialog || dialog.open) return;
    dialog.showModal();
    cancelRef.current?.focus();
  }, [dialog]);

  return (
    <dialog
      ref={setDialog}
      role="alertdialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={descriptionId}
      onClose={onClose}
      onClick={(event) => {
        // Only the backdrop hits the dialog element itself: a click outside is "no".
        if (event.target === event.currentTarget) dialog?.close();
      }}
      className="m-auto w-[min(26rem,calc(100%-2rem))] rounded-2xl bg-white p-0 text-slate-900 shadow-2xl backdrop:bg-slate-900/60"
    >
      <div className="p-5 sm:p-6">
        <h2 id={titleId} className="text-xl font-bold text-slate-900">
          Clear the whiteboard?
        </h2>
        <p id={descriptionId} className="mt-2 text-sm text-slate-700">
          Your whole drawing and its undo history will be removed. This cannot be undone. Use Save first if you want to
          keep a copy.
        </p>
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button ref={cancelRef} variant="secondary" onClick={() => dialog?.close()}>
            Cancel
          </Button>
          <button
            type="button"
            onClick={() => {
              onConfirm();
              dialog?.close();
            }}
            className="inline-flex items-center justify-center rounded-lg bg-red-700 px-4 py-2.5 text-sm font-semibold text-white transition-colors hover:bg-red-800"
          >
            Clear drawing
          </button>
        </div>
      </div>
    </dialog>
  );
}
