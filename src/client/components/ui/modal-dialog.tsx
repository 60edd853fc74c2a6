import { Trans } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { useEffect, useId, useState, type ReactNode } from 'react';

type ModalDialogProps = {
  /** Text, or text with inline parts (a name kept on one line). */
  title: ReactNode;
  /** 'alertdialog' for a question that needs an answer (the delete confirmation). */
  role?: 'dialog' | 'alertdialog';
  /** After the dialog has closed (a button, Escape or a click on the backdrop). */
  onClose(): void;
  /** Selector of the element to focus when it opens; the first focusable one otherwise. */
  initialFocus?: string;
  /** A sentence under the title that says what is at stake (announced with it). */
  description?: string;
  /** Width class, e.g. 'w-[min(32rem,calc(100%-2rem))]'. */
  widthClassName?: string;
  children(close: () => void): ReactNode;
};

/**
 * A modal native <dialog> (focus trapped, Escape closes, the page behind is
 * inert). Mount it to open it; closing returns the focus to the element that
 * had it before, which the browser does for dialogs opened with showModal().
 */
export function ModalDialog({
  title,
  role = 'dialog',
  onClose,
  initialFocus,
  description,
  widthClassName = 'w-[min(32rem,calc(100%-2rem))]',
  children,
}: ModalDialogProps) {
  // The element in state, not a ref: children get `close` while rendering.
  const [dialog, setDialog] = useState<HTMLDialogElement | null>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    // StrictMode runs this twice; showModal on an open dialog would throw.
    if (!dialog || dialog.open) return;
    dialog.showModal();
    if (initialFocus) dialog.querySelector<HTMLElement>(initialFocus)?.focus();
  }, [dialog, initialFocus]);

  const close = () => dialog?.close();

  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop is the pointer's Escape, which <dialog> handles itself
    <dialog
      ref={setDialog}
      role={role === 'alertdialog' ? 'alertdialog' : undefined}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      aria-modal="true"
      onClose={onClose}
      onClick={(event) => {
        // The dialog element itself is only hit on the backdrop; its content fills it.
        if (event.target === event.currentTarget) close();
      }}
      className={`m-auto max-h-[calc(100%-2rem)] rounded-2xl bg-surface p-0 text-fg shadow-2xl backdrop:bg-surface-inverse/60 ${widthClassName}`}
    >
      <div className="p-5 sm:p-6">
        <div className="flex items-start justify-between gap-3">
          <h2 id={titleId} className="text-xl font-bold wrap-anywhere text-fg">
            {title}
          </h2>
          <button
            type="button"
            onClick={close}
            className="-m-1 shrink-0 rounded-md p-1 text-muted hover:bg-surface-muted hover:text-fg"
          >
            <X className="size-5" aria-hidden="true" />
            <span className="sr-only">
              <Trans>Close</Trans>
            </span>
          </button>
        </div>
        {description ? (
          <p id={descriptionId} className="mt-2 text-sm text-muted">
            {description}
          </p>
        ) : null}
        {children(close)}
      </div>
    </dialog>
  );
}
