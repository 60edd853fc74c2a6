import { Trans, useLingui } from '@lingui/react/macro';
import { Link } from 'react-router';
import { PageTitle } from '../../components/ui/page-title.tsx';

function RoleChoice({
  to,
  label,
  picture,
  description,
}: {
  to: string;
  label: string;
  picture: string;
  description: string;
}) {
  return (
    <Link
      to={to}
      className="group flex w-full max-w-xs flex-col items-center gap-3 rounded-2xl border-2 border-line bg-surface p-5 shadow-sm transition hover:-translate-y-0.5 hover:border-brand-500 hover:shadow-md"
    >
      <img src={picture} alt="" width={320} height={240} className="h-auto w-full rounded-xl" />
      <span className="text-xl font-bold text-fg group-hover:text-brand-700">{label}</span>
      <span className="text-center text-sm text-muted">{description}</span>
    </Link>
  );
}

/** /auth: choose a role, then log in (SPEC §2). */
export function Component() {
  const { t } = useLingui();
  return (
    <main id="main" className="flex flex-1 flex-col items-center px-4 py-10 sm:py-16">
      <PageTitle>{t`Who is learning today?`}</PageTitle>
      <h1 className="text-center text-3xl font-bold text-fg">
        <Trans>Who is learning today?</Trans>
      </h1>
      <p className="mt-2 text-center text-muted">
        <Trans>Choose your role to log in or to create an account.</Trans>
      </p>
      <div className="mt-10 flex w-full flex-col items-center justify-center gap-6 md:flex-row md:gap-10">
        <RoleChoice
          to="/auth/student/login"
          label={t`Student`}
          picture="/images/role-student.svg"
          description={t`Take quizzes, browse resources and see your progress.`}
        />
        <span className="text-lg font-bold tracking-widest text-muted">
          <Trans>OR</Trans>
        </span>
        <RoleChoice
          to="/auth/teacher/login"
          label={t`Teacher`}
          picture="/images/role-teacher.svg"
          description={t`Create quizzes, share resources and manage students.`}
        />
      </div>
      <p className="mt-10 text-center text-sm text-muted">
        <Trans>
          New to StudyHall?{' '}
          <Link to="/auth/student/register" className="font-semibold text-brand-700 underline">
            Create a student account
          </Link>{' '}
          or{' '}
          <Link to="/auth/teacher/register" className="font-semibold text-brand-700 underline">
            a teacher account
          </Link>
          .
        </Trans>
      </p>
    </main>
  );
}
