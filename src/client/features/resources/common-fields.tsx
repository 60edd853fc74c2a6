import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { FIELD_LIMITS } from '#shared/limits';
import { RESOURCE_LIMITS } from '#shared/resources';
import { ClassPicker } from '../../components/class-picker.tsx';
import type { FieldNameOf } from '../../components/form/field-errors.ts';
import { TextAreaField, TextField } from '../../components/ui/field.tsx';

/** The fields an upload and a shared link have in common. */
export type CommonValues = { classId: string; subject: string; description: string; tags: string };
export type CommonField = keyof CommonValues;
export const EMPTY_COMMON_VALUES: CommonValues = { classId: '', subject: '', description: '', tags: '' };

/** The form's field for a body path: the top-level key (a tag's own problem is the tags field's). */
export const resourceFieldOf: FieldNameOf = (path) => path.split('.')[0] ?? path;

type FieldProps = { value: string; error: string | undefined; onChange(value: string): void };

/** The class a resource is for: one of the teacher's active classes (decision 031). */
export function ClassField({
  value,
  error,
  onChange,
  current,
}: FieldProps & { current?: { _id: string; name: string } }) {
  return <ClassPicker value={value} onChange={onChange} error={error} {...(current ? { current } : {})} />;
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
  const { t } = useLingui();
  return (
    <TextAreaField
      label={t`Description (optional)`}
      name="description"
      maxLength={RESOURCE_LIMITS.description}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

export function TagsField({ value, error, onChange }: FieldProps) {
  const { t } = useLingui();
  return (
    <TextField
      label={t`Tags (optional)`}
      name="tags"
      autoComplete="off"
      hint={t`Separate tags with commas, e.g. algebra, homework`}
      value={value}
      error={error}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/**
 * Class (required, one of the teacher's active classes), subject (prefilled
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
  const { t } = useLingui();
  return (
    <>
      <div className="grid gap-4 sm:grid-cols-2">
        <ClassField value={values.classId} error={errors.classId} onChange={(value) => onChange('classId', value)} />
        <TextField
          label={t`Subject`}
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
