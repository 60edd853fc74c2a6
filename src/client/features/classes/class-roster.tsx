import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowRightLeft, UserMinus, UserPlus } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { removeClassStudent } from '#shared/contract/classes';
import type { RosterEntry, TeacherClass } from '#shared/classes';
import { Button } from '../../components/ui/button.tsx';
import { call } from '../../lib/api.ts';
import { StaffTable } from '../../components/staff-table.tsx';
import { StudentActionDialog, StudentActions } from '../students/student-actions.tsx';
import { studentQueries } from '../students/students-queries.ts';
import { classQueries } from './classes-queries.ts';
import { ListQueryContent } from './class-parts.tsx';
import { PendingChangeConfirm, type PendingChange } from '../../components/ui/confirm-dialog.tsx';
import { ExportRosterButton } from '../roster-import/export-roster-button.tsx';
import { RosterImportButton } from '../roster-import/roster-import-dialog.tsx';
import { RollNumber } from '../../components/ui/roll-number.tsx';

// Load when a teacher asks to move or add a student (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION):
// the account form is most of the class page's weight otherwise.
const MoveStudentDialog = lazy(async () => ({
  default: (await import('./move-student-dialog.tsx')).MoveStudentDialog,
}));
const AddStudentDialog = lazy(async () => ({
  default: (await import('./add-class-student-dialog.tsx')).AddClassStudentDialog,
}));

type Managing = { action: 'edit' | 'reset' | 'move'; student: RosterEntry } | { action: 'add' };

/**
 * The roster of a class (decision 031): its students with their contact details, a new student
 * straight into the class, removal from it (their account and attempts stay), and the students
 * screen's edit and reset-password dialogs.
 */
export function ClassRoster({ entry }: { entry: TeacherClass }) {
  const queryClient = useQueryClient();
  const roster = useQuery(classQueries.roster(entry._id));
  const [managing, setManaging] = useState<Managing | null>(null);
  const [pending, setPending] = useState<PendingChange | null>(null);
  const { t } = useLingui();
  const className = entry.name;
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: classQueries.all }),
      queryClient.invalidateQueries({ queryKey: studentQueries.all }),
    ]);
  const remove = useMutation({
    mutationFn: (studentId: string) => call(removeClassStudent, { params: { id: entry._id, memberId: studentId } }),
    onSuccess: async ({ data }) => {
      toast.success(t`Student removed from the class; their account and results stay`);
      queryClient.setQueryData(classQueries.roster(entry._id).queryKey, data);
      await refresh();
    },
  });
  const askRemove = ({ _id, name: studentName }: RosterEntry) =>
    setPending({
      title: t`Remove ${studentName} from ${className}?`,
      description: t`${studentName} no longer sees the class's quizzes and resources. Their account and their past attempts stay.`,
      confirmLabel: t`Remove from class`,
      run: () => remove.mutate(_id),
    });

  return (
    <div className="flex flex-col gap-3">
      <div role="toolbar" aria-label={t`Roster actions`} className="flex flex-wrap items-center gap-2">
        <Button
          size="sm"
          disabled={entry.isArchived}
          onClick={() => setManaging({ action: 'add' })}
          aria-describedby={entry.isArchived ? 'roster-archived' : undefined}
        >
          <UserPlus className="size-4" aria-hidden="true" />
          {t`Add student`}
        </Button>
        {entry.isArchived ? null : (
          <RosterImportButton classId={entry._id} className={entry.name} onImported={() => void refresh()} />
        )}
        <ExportRosterButton classId={entry._id} className={entry.name} />
      </div>
      {entry.isArchived ? (
        <p id="roster-archived" className="text-sm text-muted">
          {t`The class is archived: unarchive it to add students.`}
        </p>
      ) : null}
      <ListQueryContent
        query={roster}
        loading={t`Loading the roster…`}
        failure={t`The roster could not be loaded.`}
        empty={{ title: t`No students yet`, hint: t`Students join with the class's code, or you add them here.` }}
      >
        {(students) => {
          const count = students.length;
          return (
            <>
              <p className="text-sm text-muted">
                {plural(count, { one: '# student, by name', other: '# students, by name' })}
              </p>
              <StaffTable
                caption={t`Students of ${className}`}
                headers={[t`Name`, t`Roll number`, t`Email`, t`Parent's name`, t`Parent's email`, t`Actions`]}
                rows={students.map((student) => {
                  const studentName = student.name;
                  return {
                    key: student._id,
                    heading: student.name,
                    cells: [
                      <RollNumber key="roll-number" value={student.rollNumber} />,
                      <Wrapping key="email">{student.email}</Wrapping>,
                      <Wrapping key="parent">{student.parentName}</Wrapping>,
                      <Wrapping key="parent-email">{student.parentEmail}</Wrapping>,
                      <StudentActions
                        key="actions"
                        student={student}
                        onAction={(action, chosen) => setManaging({ action, student: chosen })}
                        className="flex flex-col items-start gap-1.5"
                      >
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={remove.isPending}
                          aria-label={t`Remove from class: ${studentName}`}
                          onClick={() => askRemove(student)}
                        >
                          <UserMinus className="size-3.5" aria-hidden="true" />
                          {t`Remove from class`}
                        </Button>
                        <Button
                          size="sm"
                          variant="secondary"
                          disabled={entry.isArchived}
                          aria-label={t`Move to class: ${studentName}`}
                          onClick={() => setManaging({ action: 'move', student })}
                        >
                          <ArrowRightLeft className="size-3.5" aria-hidden="true" />
                          {t`Move to class`}
                        </Button>
                      </StudentActions>,
                    ],
                  };
                })}
              />
            </>
          );
        }}
      </ListQueryContent>
      {managing?.action === 'add' ? (
        <Suspense fallback={null}>
          <AddStudentDialog entry={entry} onAdded={refresh} onClose={() => setManaging(null)} />
        </Suspense>
      ) : managing?.action === 'edit' || managing?.action === 'reset' ? (
        <StudentActionDialog
          action={managing.action}
          student={managing.student}
          onSaved={refresh}
          onClose={() => setManaging(null)}
        />
      ) : managing?.action === 'move' ? (
        <Suspense fallback={null}>
          <MoveStudentDialog
            entry={entry}
            student={managing.student}
            onMoved={refresh}
            onClose={() => setManaging(null)}
          />
        </Suspense>
      ) : null}
      {pending ? <PendingChangeConfirm pending={pending} onClose={() => setPending(null)} /> : null}
    </div>
  );
}

/** Long contact details wrap, so the actions stay in view on a laptop's width. */
function Wrapping({ children }: { children: string }) {
  return <span className="block min-w-32 wrap-anywhere whitespace-normal">{children}</span>;
}
