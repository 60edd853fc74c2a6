import { useLingui } from '@lingui/react/macro';
import { accountPathFor } from '../../lib/session.ts';
import { useProfile } from '../session/profile.ts';
import { QuoteOfTheDay } from '../quote/quote-of-the-day.tsx';
import { ProfileSummary } from '../session/profile-summary.tsx';
import { TaskList } from '../tasks/task-list.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { RunningGamesBanners } from '../live-games/running-games-banner.tsx';

/**
 * /dashboard/teacher: the quote of the day on top, then the task list (SPEC §2); the live games
 * running in the teacher's classes, to go back to their projector (issue 34's review).
 */
export function Component() {
  const teacher = useProfile('teacher');
  const { t } = useLingui();
  if (!teacher) return null;
  const { name } = teacher;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <QuoteOfTheDay />
      <PageTitle>{t`Dashboard`}</PageTitle>
      <PageHeader
        title={t`Welcome, ${name}`}
        description={t`Your teaching space: quizzes, resources, students and more from the menu.`}
      />
      <TaskList role="teacher" ownerId={teacher._id} />
      <ProfileSummary
        accountPath={accountPathFor('teacher')}
        facts={[
          [t`Subject`, teacher.subject],
          [t`Email`, teacher.email],
        ]}
      />
      <RunningGamesBanners />
    </div>
  );
}
