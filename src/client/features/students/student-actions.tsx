import { useLingui } from '@lingui/react/macro';
import { KeyRound, Pencil } from 'lucide-react';
import { lazy, Suspense, type ReactNode } from 'react';
import type { StudentListEntry } from '#shared/students';
import { Button } from '../../components/ui/button.tsx';

/** What the dialogs read of a student: an entry of the students screen or of a class's roster. */
export type ManagedStudent = Pick<
  StudentListEntry,
  '_id' | 'name' | 'rollNumber' | 'email' | 'parentName' | 'parentEmail'
>;

// The dialogs and their form load when a teacher asks for one (scripts/check-bundle.mjs,
// LOADED_ON_USER_ACTION): the lists that offer them stay light.
const LoadedStudentActionDialog = lazy(async () => ({
  default: (await import('./student-dialogs.tsx')).StudentActionDialog,
}));

/** Edit or reset one student's password, in a dialog loaded on demand. */
export function StudentActionDialog(props: {
  action: StudentAction;
  student: ManagedStudent;
  /** More lists to read again once saved (a class's roster); the students screen's always are. */
  onSaved?(): Promise<unknown>;
  onClose(): void;
}) {
  return (
    <Suspense fallback={null}>
      <LoadedStudentActionDialog {...props} />
    </Suspense>
  );
}

/** What a teacher does to one student through these dialogs. */
export type StudentAction = 'edit' | 'reset';

/**
 * Edit and Reset password for one student, named for screen readers (a list has many); a list's
 * own actions for the student follow (`children`).
 */
export function StudentActions<Student extends ManagedStudent>({
  student,
  onAction,
  className,
  children,
}: {
  student: Student;
  onAction(action: StudentAction, student: Student): void;
  className: string;
  children?: ReactNode;
}) {
  const { t } = useLingui();
  const studentName = student.name;
  return (
    <div className={className}>
      <Button
        size="sm"
        variant="secondary"
        aria-label={t`Edit ${studentName}`}
        onClick={() => onAction('edit', student)}
      >
        <Pencil className="size-3.5" aria-hidden="true" />
        {t({ comment: "Button: edit a student's details", message: 'Edit' })}
      </Button>
      <Button
        size="sm"
        variant="secondary"
        aria-label={t`Reset password: ${studentName}`}
        onClick={() => onAction('reset', student)}
      >
        <KeyRound className="size-3.5" aria-hidden="true" />
        {t`Reset password`}
      </Button>
      {children}
    </div>
  );
}
