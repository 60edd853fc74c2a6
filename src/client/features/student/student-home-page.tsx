import { useLingui } from '@lingui/react/macro';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { accountPathFor } from '../../lib/session.ts';
import { useProfile } from '../session/profile.ts';
import { ProfileSummary } from '../session/profile-summary.tsx';
import { TaskList } from '../tasks/task-list.tsx';
import { StudentAssignmentsSummary } from '../assignments/student-assignments-summary.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { LiveGameBanners } from '../live-games/live-game-banner.tsx';

/** /dashboard/student: the task manager (SPEC §2) with the student's own facts. */
export function Component() {
  const student = useProfile('student');
  const { t } = useLingui();
  if (!student) return null;
  const name = student.name;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <PageTitle>{t`Dashboard`}</PageTitle>
      <PageHeader
        title={t`Welcome, ${name}`}
        description={t`Your study space: quizzes, resources and progress from the menu.`}
      />
      <StudentAssignmentsSummary />
      <TaskList role="student" ownerId={student._id} />
      <ProfileSummary
        accountPath={accountPathFor('student')}
        facts={[
          [t`Class`, student.class],
          [t`Account username`, student.rollNumber],
          [t`Average score`, formatNumber(student.averageScore, { maximumFractionDigits: 2 })],
          [t`Average accuracy`, formatPercent(student.averageAccuracy)],
        ]}
      />
      <LiveGameBanners />
    </div>
  );
}
