import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import type { ChangeEvent } from 'react';
import { Link } from 'react-router';
import { Field } from './ui/field.tsx';
import { CLASSES_PATH } from '../features/classes/class-paths.ts';
import { myClassesQuery } from '../features/classes/my-classes-query.ts';

/**
 * A select of the teacher's active classes, sent as `name` (a class id): what a quiz, a
 * resource or a new student goes into, never a class name typed in (decision 031). With no
 * active class yet, a message and a link to the classes screen instead. Uncontrolled unless
 * `value`/`onChange` are given; `current` is what is being edited: preselected when it is
 * active, named in the hint when it is archived (its things can only move to an active class).
 */
export function ClassPicker({
  name = 'classId',
  error,
  hint,
  className,
  value,
  onChange,
  current,
}: {
  name?: string;
  error?: string | undefined;
  hint?: string;
  className?: string;
  value?: string;
  onChange?: (classId: string) => void;
  current?: { _id: string; name: string };
}) {
  const classes = useQuery(myClassesQuery());
  const { t } = useLingui();
  if (classes.isPending)
    return (
      <p className="text-sm text-muted">
        <Trans>Loading your classes…</Trans>
      </p>
    );
  const active = (classes.data ?? []).filter((taught) => !taught.isArchived);
  const currentIsActive = current !== undefined && active.some((taught) => taught._id === current._id);
  const currentName = current?.name;
  const archivedHint =
    current !== undefined && !currentIsActive
      ? t`${currentName} is archived or no longer yours: choose an active class to move it to.`
      : undefined;
  const selection =
    value === undefined || onChange === undefined
      ? { defaultValue: currentIsActive ? current._id : '' }
      : { value, onChange: (event: ChangeEvent<HTMLSelectElement>) => onChange(event.target.value) };
  if (active.length === 0) {
    return (
      <p role="status" className="col-span-full rounded-lg border border-line bg-surface-muted p-3 text-sm text-fg">
        <Trans>
          You do not teach a class yet.{' '}
          <Link to={CLASSES_PATH} className="font-semibold text-brand-700 underline">
            Create a class
          </Link>{' '}
          first, then come back.
        </Trans>
      </p>
    );
  }
  return (
    <Field
      label={t`Class`}
      error={error}
      hint={archivedHint ?? hint}
      id={undefined}
      isRequired
      {...(className ? { className } : {})}
      control={(attributes) => (
        <select {...attributes} name={name} required {...selection}>
          <option value="" disabled>
            {t`Choose a class`}
          </option>
          {active.map((taught) => (
            <option key={taught._id} value={taught._id}>
              {taught.subject ? `${taught.name} (${taught.subject})` : taught.name}
            </option>
          ))}
        </select>
      )}
    />
  );
}
