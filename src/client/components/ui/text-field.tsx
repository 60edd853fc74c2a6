import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

type FieldExtras = {
  label: string;
  /** Shown under the field and announced with it. */
  error?: string | undefined;
  hint?: string;
};

const CONTROL_CLASSES =
  'rounded-lg border bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm outline-none focus:ring-2 focus:ring-brand-500';

/**
 * Label, hint and error around one control, tied to it for screen readers: the
 * control gets its id, aria-invalid, aria-describedby and its border from `control`.
 */
function LabelledField({
  label,
  error,
  hint,
  id,
  isRequired,
  className = '',
  control,
}: FieldExtras & {
  id: string | undefined;
  isRequired: boolean | undefined;
  className?: string;
  control(attributes: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string; className: string }): ReactNode;
}) {
  const generatedId = useId();
  const controlId = id ?? generatedId;
  const describedBy = [error ? `${controlId}-error` : null, hint && !error ? `${controlId}-hint` : null]
    .filter(Boolean)
    .join(' ');
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={controlId} className="text-sm font-medium text-slate-800">
        {label}
        {isRequired ? (
          <span aria-hidden="true" className="text-red-700">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {control({
        id: controlId,
        ...(error ? { 'aria-invalid': true as const } : {}),
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
        className: `${CONTROL_CLASSES} ${error ? 'border-red-600' : 'border-slate-300'}`,
      })}
      {hint && !error ? (
        <p id={`${controlId}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${controlId}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input whose error is tied to it for screen readers. */
export function TextField({
  label,
  error,
  hint,
  id,
  className,
  ...inputProps
}: InputHTMLAttributes<HTMLInputElement> & FieldExtras) {
  return (
    <LabelledField
      {...{ label, error, hint, id, className }}
      isRequired={inputProps.required}
      control={(attributes) => <input {...attributes} {...inputProps} />}
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
    <LabelledField
      {...{ label, error, hint, id, className }}
      isRequired={textareaProps.required}
      control={(attributes) => <textarea rows={3} {...attributes} {...textareaProps} />}
    />
  );
}
