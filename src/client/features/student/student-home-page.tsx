import { formatPercent } from '../../lib/format.ts';
import { accountPathFor } from '../../lib/session.ts';
import { useAppStore } from '../../stores/app-store.ts';
import { ProfileSummary } from '../session/profile-summary.tsx';
import { TaskList } from '../tasks/task-list.tsx';

/** /dashboard/student: the task manager (SPEC §2) with the student's own facts. */
export function Component() {
  const student = useAppStore((state) => state.student);
  if (!student) return null;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Welcome, {student.name}</h1>
        <p className="mt-1 text-slate-700">Your study space: quizzes, resources and progress from the menu.</p>
      </div>
      <TaskList role="student" ownerId={student._id} />
      <ProfileSummary
        accountPath={accountPathFor('student')}
        facts={[
          ['Class', student.class],
          ['Account username', student.rollNumber],
          ['Average score', String(Math.round(student.averageScore * 100) / 100)],
          ['Average accuracy', formatPercent(student.averageAccuracy)],
        ]}
      />
    </div>
  );
}
