import { useAppStore } from '../../stores/app-store.ts';
import { ComingSoonPage } from '../placeholder/coming-soon-page.tsx';
import { ProfileSummary } from '../session/profile-summary.tsx';

/** /dashboard/teacher. The task list and quote of the day arrive with the class & progress release. */
export function Component() {
  const teacher = useAppStore((state) => state.teacher);
  if (!teacher) return null;
  return (
    <div className="flex flex-col gap-8">
      <div className="mx-auto w-full max-w-2xl">
        <h1 className="text-2xl font-bold text-slate-900">Welcome, {teacher.name}</h1>
        <p className="mt-1 text-slate-700">Your teaching space: quizzes, resources, students and more from the menu.</p>
        <div className="mt-6">
          <ProfileSummary
            facts={[
              ['Subject', teacher.subject],
              ['Email', teacher.email],
            ]}
          />
        </div>
      </div>
      <ComingSoonPage title="Tasks and quote of the day" release="class & progress" isSection />
    </div>
  );
}
