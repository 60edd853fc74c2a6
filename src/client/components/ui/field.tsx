import { cva } from 'class-variance-authority';
import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { cn } from '../../lib/cn.ts';

type FieldExtras = {
  label: string;
  /** Shown under the field and announced with it. */
  error?: string | undefined;
  hint?: string;
};

/** The look of a text box or select: forms, filters, search boxes. */
export const fieldControlVariants = cva(
  'w-full rounded-lg border bg-surface px-3 py-2.5 text-fg shadow-sm outline-none focus:ring-2 focus:ring-brand-500',
  {
    variants: {
      isInvalid: { true: 'border-danger', false: 'border-line-strong' },
      /** code: pasted rows to import, small and monospaced. */
      text: { base: 'text-base', code: 'font-mono text-xs' },
    },
    defaultVariants: { isInvalid: false, text: 'base' },
  },
);

/**
 * Label, hint and error around one control, tied to it for screen readers: the
 * control gets its id, aria-invalid, aria-describedby and its classes from `control`.
 */
export function Field({
  label,
  error,
  hint,
  id,
  isRequired,
  className = '',
  control,
}: FieldExtras & {
  id: string | undefined;
  isRequired?: boolean | undefined;
  className?: string;
  control(attributes: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string; className: string }): ReactNode;
}) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const describedBy = [error ? `${controlId}-error` : null, hint && !error ? `${controlId}-hint` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={controlId} className="text-sm font-medium text-fg">
        {label}
        {isRequired ? (
          <span aria-hidden="true" className="text-danger">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {control({
        id: controlId,
        ...(error ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        className: fieldControlVariants({ isInvalid: Boolean(error) }),
      })}
      {hint && !error ? (
        <p id={`${controlId}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${controlId}-error`} className="text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * What a code field (join, class, set-up, invitation code, a roll number) takes: typed left to
 * right in every language (decision 055), or "BGKH-" shows as "-BGKH" in Arabic; never spell-checked.
 */
export const codeInputProps = { dir: 'ltr', spellCheck: false } as const;

/** Emails and passwords are Latin strings typed left to right, in a right-to-left page too (decision 055). */
const LEFT_TO_RIGHT_TYPES = new Set(['email', 'password', 'url']);

/** A labelled input whose error is tied to it for screen readers. */
export function TextField({
  label,
  error,
  hint,
  id,
  className,
  ...inputProps
}: InputHTMLAttributes<HTMLInputElement> & FieldExtras) {
  const dir = inputProps.dir ?? (LEFT_TO_RIGHT_TYPES.has(inputProps.type ?? 'text') ? 'ltr' : undefined);
  return (
    <Field
      {...{ label, error, hint, id, className }}
      isRequired={inputProps.required}
      control={(attributes) => <input {...attributes} {...inputProps} dir={dir} />}
    />
  );
}

/** A labelled multi-line input, in the look of TextField. */
export function TextAreaField({
  label,
  error,
  hint,
  id,
  className,
  ...textareaProps
}: TextareaHTMLAttributes<HTMLTextAreaElement> & FieldExtras) {
  return (
    <Field
      {...{ label, error, hint, id, className }}
      isRequired={textareaProps.required}
      control={(attributes) => <textarea rows={3} {...attributes} {...textareaProps} />}
    />
  );
}
