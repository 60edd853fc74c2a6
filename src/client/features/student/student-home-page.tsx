import { formatPercent } from '../../lib/format.ts';
import { accountPathFor } from '../../lib/session.ts';
import { useProfile } from '../session/profile.ts';
import { ProfileSummary } from '../session/profile-summary.tsx';
import { TaskList } from '../tasks/task-list.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';

/** /dashboard/student: the task manager (SPEC §2) with the student's own facts. */
export function Component() {
  const student = useProfile('student');
  if (!student) return null;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageHeader
        title={`Welcome, ${student.name}`}
        description="Your study space: quizzes, resources and progress from the menu."
      />
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
