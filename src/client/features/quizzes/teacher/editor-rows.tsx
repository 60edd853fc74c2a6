import { Plus } from 'lucide-react';
import type { ReactNode } from 'react';
import type { DraftQuestion } from './quiz-draft.ts';

/**
 * The pieces the question editor's lists are made of (options, accepted answers, matching
 * pairs), apart so the matching fields, loaded only when a quiz has a matching question
 * (decision 045), share them without importing the editor.
 */

export const rowInputId = (key: string) => `${key}-row`;

export const smallButton =
  'inline-flex items-center gap-1.5 rounded-lg border border-line-strong bg-surface px-3 py-2 text-sm font-semibold text-fg hover:bg-surface-sunken disabled:cursor-not-allowed disabled:text-muted/70';
export const removeRowButton =
  'inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-surface-muted disabled:cursor-not-allowed disabled:text-muted/50 disabled:hover:bg-transparent';

export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-danger">
      {message}
    </p>
  );
}

export const rowInputClasses = (hasError: boolean) =>
  `w-full min-w-0 rounded-lg border bg-surface px-3 py-2.5 text-base text-fg shadow-sm outline-none focus:ring-2 focus:ring-brand-500 ${
    hasError ? 'border-danger' : 'border-line-strong'
  }`;

/** A list's legend, hint or error, and its rows: options, accepted answers. */
export function RowList({
  id,
  legend,
  hint,
  error,
  children,
  footer,
}: {
  id: string;
  legend: string;
  hint: string;
  error: string | undefined;
  children: ReactNode;
  footer: ReactNode;
}) {
  return (
    <fieldset className="flex flex-col gap-2" aria-describedby={error ? `${id}-error` : `${id}-hint`}>
      <legend className="mb-1.5 text-sm font-medium text-fg">
        {legend}
        <span aria-hidden="true" className="text-danger">
          {' '}
          *
        </span>
      </legend>
      <ol className="flex flex-col gap-2">{children}</ol>
      <div className="flex flex-wrap items-center gap-3">
        {footer}
        {error ? null : (
          <p id={`${id}-hint`} className="text-xs text-muted">
            {hint}
          </p>
        )}
      </div>
      <FieldError id={`${id}-error`} message={error} />
    </fieldset>
  );
}

/** What each type's fields get from the question editor. */
export type TypeFieldsProps = {
  question: DraftQuestion;
  /** The question's number, written for the reader (formatNumber). */
  number: string;
  slot: string;
  error(field: string): string | undefined;
  update(changes: Partial<DraftQuestion>): void;
  focusLater(id: string): void;
  locked: boolean;
};

/** Adding and removing rows of a list (options, accepted answers), focus following the change. */
export function rowActions<K extends 'options' | 'accepted' | 'pairs'>(
  field: K,
  { question, update, focusLater }: Pick<TypeFieldsProps, 'question' | 'update' | 'focusLater'>,
  newRow: () => DraftQuestion[K][number],
) {
  const rows = question[field] as DraftQuestion[K][number][];
  return {
    add() {
      const added = newRow();
      update({ [field]: [...rows, added] });
      focusLater(rowInputId(added.key));
    },
    remove(position: number) {
      const kept = rows.filter((_, at) => at !== position);
      update({ [field]: kept });
      const neighbour = kept[Math.max(0, position - 1)];
      if (neighbour) focusLater(rowInputId(neighbour.key));
    },
  };
}

/** The "Add …" button under a list; absent when the question is locked. */
export function AddRowButton({
  label,
  disabled,
  onClick,
  locked,
}: {
  label: string;
  disabled: boolean;
  onClick(): void;
  locked: boolean;
}) {
  if (locked) return null;
  return (
    <button type="button" className={smallButton} disabled={disabled} onClick={onClick}>
      <Plus className="size-4" aria-hidden="true" />
      {label}
    </button>
  );
}
