import { useState } from 'react';
import { FIELD_LIMITS } from '#shared/limits';
import { RESOURCE_LIMITS } from '#shared/resources';
import type { FieldNameOf } from '../../components/form/field-errors.ts';
import { TextAreaField, TextField } from '../../components/ui/field.tsx';

/** Id of the <datalist> of the teacher's classes that the class fields suggest from. */
export const CLASS_SUGGESTIONS_ID = 'resource-class-suggestions';

/** The fields an upload and a shared link have in common. */
export type CommonValues = { className: string; subject: string; description: string; tags: string };
export type CommonField = keyof CommonValues;
export const EMPTY_COMMON_VALUES: CommonValues = { className: '', subject: '', description: '', tags: '' };

/**
 * The form's field for a body path: the top-level key (a tag's own problem is the tags field's),
 * `class` called className (the fields' own names would clash with React's className).
 */
export const resourceFieldOf: FieldNameOf = (path) => {
  const field = path.split('.')[0] ?? path;
  return field === 'class' ? 'className' : field;
};

type FieldProps = { value: string; error: string | undefined; onChange(value: string): void };

/** The class a resource is for: required, suggested from the teacher's classes. */
export function ClassField({ value, error, onChange }: FieldProps) {
  return (
    <TextField
      label="Class"
      name="className"
      required
      autoComplete="off"
      list={CLASS_SUGGESTIONS_ID}
      maxLength={FIELD_LIMITS.className}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** The name a resource is listed by: a shared link's title, an edited resource's name. */
export function ResourceNameField({ label, value, error, onChange }: FieldProps & { label: string }) {
  return (
    <TextField
      label={label}
      name="fileName"
      required
      autoComplete="off"
      maxLength={RESOURCE_LIMITS.fileName}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

export function DescriptionField({ value, error, onChange }: FieldProps) {
  return (
    <TextAreaField
      label="Description (optional)"
      name="description"
      maxLength={RESOURCE_LIMITS.description}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

export function TagsField({ value, error, onChange }: FieldProps) {
  return (
    <TextField
      label="Tags (optional)"
      name="tags"
      autoComplete="off"
      hint="Separate tags with commas, e.g. algebra, homework"
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
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
        <ClassField
          value={values.className}
          error={errors.className}
          onChange={(value) => onChange('className', value)}
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
      <DescriptionField
        value={values.description}
        error={errors.description}
        onChange={(value) => onChange('description', value)}
      />
      <TagsField value={values.tags} error={errors.tags} onChange={(value) => onChange('tags', value)} />
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
