import { useAppStore } from '../../stores/app-store.ts';
import { ComingSoonPage } from '../placeholder/coming-soon-page.tsx';
import { ProfileSummary } from '../session/profile-summary.tsx';

/** /dashboard/student. The task manager arrives with the class & progress release. */
export function Component() {
  const student = useAppStore((state) => state.student);
  if (!student) return null;
  return (
    <div className="flex flex-col gap-8">
      <div className="mx-auto w-full max-w-2xl">
        <h1 className="text-2xl font-bold text-slate-900">Welcome, {student.name}</h1>
        <p className="mt-1 text-slate-700">Your study space: quizzes, resources and progress from the menu.</p>
        <div className="mt-6">
          <ProfileSummary
            facts={[
              ['Class', student.class],
              ['Account username', student.rollNumber],
              ['Average score', String(student.averageScore)],
              ['Average accuracy', `${student.averageAccuracy}%`],
            ]}
          />
        </div>
      </div>
      <ComingSoonPage title="Task manager" release="class & progress" isSection />
    </div>
  );
}
