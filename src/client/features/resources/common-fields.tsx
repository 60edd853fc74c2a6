import { useId, useState, type TextareaHTMLAttributes } from 'react';
import { FIELD_LIMITS } from '#shared/limits';
import { RESOURCE_LIMITS } from '#shared/resources';
import { TextField } from '../../components/ui/text-field.tsx';

/** Id of the <datalist> of the teacher's classes that the class fields suggest from. */
export const CLASS_SUGGESTIONS_ID = 'resource-class-suggestions';

/** The fields an upload and a shared link have in common. */
export type CommonValues = { className: string; subject: string; description: string; tags: string };
export type CommonField = keyof CommonValues;
export const EMPTY_COMMON_VALUES: CommonValues = { className: '', subject: '', description: '', tags: '' };

/** Server and schema field names -> the form's. */
export const FORM_FIELD_OF: Record<string, string> = {
  class: 'className',
  subject: 'subject',
  description: 'description',
  tags: 'tags',
  fileName: 'fileName',
  url: 'url',
  file: 'file',
};

/** Problems by form field, from zod issues or the server's field errors: the first per field. */
export function collectFieldErrors(problems: { field: string; message: string }[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const problem of problems) {
    const field = FORM_FIELD_OF[problem.field] ?? problem.field;
    errors[field] ??= problem.message;
  }
  return errors;
}

/** A labelled multi-line input whose error is tied to it, in the look of TextField. */
export function TextAreaField({
  label,
  error,
  hint,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; error?: string | undefined; hint?: string }) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <textarea
        id={id}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`rounded-lg border bg-white px-3 py-2.5 text-base text-slate-900 shadow-sm outline-none focus:ring-2 focus:ring-brand-500 ${
          error ? 'border-red-600' : 'border-slate-300'
        }`}
        {...props}
      />
      {hint && !error ? (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * Class (required, suggested from the teacher's classes), subject (prefilled
 * with the teacher's subject), description and comma-separated tags.
 */
export function CommonFields({
  values,
  errors,
  subjectPlaceholder,
  onChange,
}: {
  values: CommonValues;
  errors: Record<string, string>;
  subjectPlaceholder: string;
  onChange(field: CommonField, value: string): void;
}) {
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Class"
          name="className"
          required
          autoComplete="off"
          list={CLASS_SUGGESTIONS_ID}
          maxLength={FIELD_LIMITS.className}
          value={values.className}
          error={errors.className}
          onChange={(event) => onChange('className', event.target.value)}
        />
        <TextField
          label="Subject"
          name="subject"
          autoComplete="off"
          maxLength={FIELD_LIMITS.subject}
          placeholder={subjectPlaceholder}
          value={values.subject}
          error={errors.subject}
          onChange={(event) => onChange('subject', event.target.value)}
        />
      </div>
      <TextAreaField
        label="Description (optional)"
        name="description"
        maxLength={RESOURCE_LIMITS.description}
        value={values.description}
        error={errors.description}
        onChange={(event) => onChange('description', event.target.value)}
      />
      <TextField
        label="Tags (optional)"
        name="tags"
        autoComplete="off"
        hint="Separate tags with commas, e.g. algebra, homework"
        value={values.tags}
        error={errors.tags}
        onChange={(event) => onChange('tags', event.target.value)}
      />
    </>
  );
}

/**
 * The common values of one form. The subject shows the teacher's subject
 * until someone edits it (the profile may arrive after the form).
 */
export function useCommonValues(teacherSubject: string | undefined) {
  const [edited, setEdited] = useState<CommonValues>(EMPTY_COMMON_VALUES);
  const [isSubjectEdited, setIsSubjectEdited] = useState(false);
  const values: CommonValues = { ...edited, subject: isSubjectEdited ? edited.subject : (teacherSubject ?? '') };
  return {
    values,
    setField(field: CommonField, value: string) {
      if (field === 'subject') setIsSubjectEdited(true);
      setEdited((current) => ({ ...current, [field]: value }));
    },
    /** SPEC §4: after a success the description and tags start again; class and subject stay. */
    clearAfterSuccess() {
      setEdited((current) => ({ ...current, description: '', tags: '' }));
    },
  };
}
