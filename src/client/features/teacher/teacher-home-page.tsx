import { accountPathFor } from '../../lib/session.ts';
import { useAppStore } from '../../stores/app-store.ts';
import { QuoteOfTheDay } from '../quote/quote-of-the-day.tsx';
import { ProfileSummary } from '../session/profile-summary.tsx';
import { TaskList } from '../tasks/task-list.tsx';

/** /dashboard/teacher: the quote of the day on top, then the task list (SPEC §2). */
export function Component() {
  const teacher = useAppStore((state) => state.teacher);
  if (!teacher) return null;
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <QuoteOfTheDay />
      <div>
        <h1 className="text-2xl font-bold text-slate-900">Welcome, {teacher.name}</h1>
        <p className="mt-1 text-slate-700">Your teaching space: quizzes, resources, students and more from the menu.</p>
      </div>
      <TaskList role="teacher" ownerId={teacher._id} />
      <ProfileSummary
        accountPath={accountPathFor('teacher')}
        facts={[
          ['Subject', teacher.subject],
          ['Email', teacher.email],
        ]}
      />
    </div>
  );
}
