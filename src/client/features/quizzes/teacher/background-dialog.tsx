import { Trans } from '@lingui/react/macro';
import { Check } from 'lucide-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { backgroundChoices } from './quiz-backgrounds.ts';

type BackgroundDialogProps = {
  /** The background in the form now; the dialog starts on it. */
  selected: string;
  onSave(background: string): void;
  /** After the dialog has closed, by save, Cancel, Escape or a click on the backdrop. */
  onClose(): void;
};

/**
 * 'Choose background image' (SPEC §2, §4): a modal native <dialog> with the
 * six templates as a radio group. Save confirms the choice, Cancel and Escape
 * leave the form as it was. Mount it to open it; it reports when it closed.
 */
export function BackgroundDialog({ selected, onSave, onClose }: BackgroundDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(selected);
  const titleId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    // StrictMode runs this twice; showModal on an open dialog would throw.
    if (!dialog || dialog.open) return;
    dialog.showModal();
    dialog.querySelector<HTMLInputElement>('input:checked')?.focus();
  }, []);

  // close() lets the browser return focus to the button that opened the dialog.
  const close = () => dialogRef.current?.close();

  return (
    // eslint-disable-next-line jsx-a11y/click-events-have-key-events, jsx-a11y/no-noninteractive-element-interactions -- a click on the backdrop is the pointer's Escape, which <dialog> handles itself
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(event) => {
        // The dialog element itself is only hit on the backdrop; its content fills it.
        if (event.target === event.currentTarget) close();
      }}
      className="m-auto max-h-[calc(100%-2rem)] w-[min(44rem,calc(100%-2rem))] rounded-2xl bg-surface p-0 text-fg shadow-2xl backdrop:bg-surface-inverse/60"
    >
      <div className="p-5 sm:p-6">
        <h2 id={titleId} className="text-xl font-bold text-fg">
          <Trans>Choose background image</Trans>
        </h2>
        <p className="mt-1 text-sm text-muted">
          <Trans>Students see it behind the questions.</Trans>
        </p>
        <fieldset className="mt-4">
          <legend className="sr-only">
            <Trans>Background templates</Trans>
          </legend>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {backgroundChoices().map((choice) => {
              const isChosen = pending === choice.path;
              return (
                <label key={choice.path} className="relative flex cursor-pointer flex-col gap-1.5">
                  <input
                    type="radio"
                    name="quiz-background"
                    value={choice.path}
                    checked={isChosen}
                    onChange={() => setPending(choice.path)}
                    className="peer sr-only"
                  />
                  <span
                    className={`block overflow-hidden rounded-xl border-2 transition-colors peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-brand-500 ${
                      isChosen ? 'border-brand-600 ring-2 ring-brand-600' : 'border-line hover:border-brand-500'
                    }`}
                  >
                    <img
                      src={choice.path}
                      alt={choice.description}
                      width={1280}
                      height={720}
                      className="aspect-video w-full object-cover"
                    />
                  </span>
                  {isChosen ? (
                    <span
                      aria-hidden="true"
                      className="absolute end-2 top-2 rounded-full bg-brand-600 p-1 text-white shadow"
                    >
                      <Check className="size-4" />
                    </span>
                  ) : null}
                  <span className={`text-sm ${isChosen ? 'font-semibold text-brand-800' : 'text-muted'}`}>
                    {choice.name}
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
        <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close}>
            <Trans>Cancel</Trans>
          </Button>
          <Button
            onClick={() => {
              onSave(pending);
              close();
            }}
          >
            <Trans>Save</Trans>
          </Button>
        </div>
      </div>
    </dialog>
  );
}
