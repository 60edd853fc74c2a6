import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Field } from '../../components/ui/field.tsx';
import { CLASSES_PATH } from './class-paths.ts';
import { classQueries } from './classes-queries.ts';

/**
 * A select of the teacher's active classes, sent as `name` (a class id): what a quiz, a
 * resource or a new student goes into, never a class name typed in (decision 031). With no
 * active class yet, a message and a link to the classes screen instead.
 */
export function ClassPicker({
  name = 'classId',
  error,
  hint,
  className,
}: {
  name?: string;
  error?: string | undefined;
  hint?: string;
  className?: string;
}) {
  const classes = useQuery(classQueries.mine());
  if (classes.isPending) return <p className="text-sm text-muted">Loading your classes…</p>;
  const active = (classes.data ?? []).filter((taught) => !taught.isArchived);
  if (active.length === 0) {
    return (
      <p role="status" className="col-span-full rounded-lg border border-line bg-surface-muted p-3 text-sm text-fg">
        You do not teach a class yet.{' '}
        <Link to={CLASSES_PATH} className="font-semibold text-brand-700 underline">
          Create a class
        </Link>{' '}
        first, then come back.
      </p>
    );
  }
  return (
    <Field
      label="Class"
      error={error}
      hint={hint}
      id={undefined}
      isRequired
      {...(className ? { className } : {})}
      control={(attributes) => (
        <select {...attributes} name={name} required defaultValue="">
          <option value="" disabled>
            Choose a class
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
