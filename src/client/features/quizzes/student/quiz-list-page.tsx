import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { CalendarClock, CheckCircle2, Clock, ListChecks } from 'lucide-react';
import { Link } from 'react-router';
import type { StudentQuizSummary } from '#shared/quizzes';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { PageTitle } from '../../../components/ui/page-title.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { usePagedList } from '../../../lib/paged-list.ts';
import { quizQueries, type StudentQuizView } from '../quiz-queries.ts';
import { formatCountdown, formatDateTime, formatPercent, formatScore } from '../../../lib/format.ts';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { LoadMoreButton } from '../../../components/ui/load-more-button.tsx';
import { cardVariants } from '../../../components/ui/card.tsx';
import { scoreNotice } from '../review-notice.ts';
import { pointsLabel } from '../question-response.ts';

/** One view of the student's quizzes, paged by the server. */
const useStudentQuizzes = (view: StudentQuizView) => usePagedList(quizQueries.studentList(view));

/** /dashboard/student/quiz: Online (can be taken now) and Attempted (SPEC §2, §4). */
export function Component() {
  const online = useStudentQuizzes('online');
  const attempted = useStudentQuizzes('attempted');
  const { t } = useLingui();
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-10">
      <PageTitle>{t`Quizzes`}</PageTitle>
      <PageHeader title={t`Quizzes`} />
      <QuizSection
        headingId="online-quizzes"
        title={t({ comment: 'The quizzes a student can take now', message: 'Online' })}
        query={online}
        emptyText={t`There are no quizes available...`}
        renderCard={(quiz) => <OnlineCard key={quiz._id} quiz={quiz} />}
      />
      <QuizSection
        headingId="attempted-quizzes"
        title={t({ comment: 'The quizzes a student has taken', message: 'Attempted' })}
        query={attempted}
        emptyText={t`You have not attempted any quiz yet.`}
        renderCard={(quiz) => <AttemptedCard key={quiz._id} quiz={quiz} />}
      />
    </div>
  );
}

function QuizSection({
  headingId,
  title,
  query,
  emptyText,
  renderCard,
}: {
  headingId: string;
  title: string;
  query: ReturnType<typeof useStudentQuizzes>;
  emptyText: string;
  renderCard(quiz: StudentQuizSummary): React.ReactNode;
}) {
  const { t } = useLingui();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="text-xl font-bold text-fg">
        {title}
      </h2>
      {query.isPending ? (
        <LoadingStatus className="mt-4">{t`Loading…`}</LoadingStatus>
      ) : query.isError ? (
        <p className="mt-4 text-danger">{t`These quizzes could not be loaded.`}</p>
      ) : query.items.length === 0 ? (
        <p className="mt-4 rounded-xl border border-dashed border-line-strong bg-surface p-6 text-center text-muted">
          {emptyText}
        </p>
      ) : (
        <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">{query.items.map(renderCard)}</ul>
      )}
      <LoadMoreButton list={query} className="mt-4" />
    </section>
  );
}

function CardFrame({ quiz, children }: { quiz: StudentQuizSummary; children: React.ReactNode }) {
  const teacherName = quiz.createdBy.name;
  return (
    <li className={cn(cardVariants({ rounded: '2xl' }), 'flex min-w-0 flex-col overflow-hidden')}>
      <div
        className="h-20 bg-surface-inverse-raised bg-cover bg-center"
        style={{ backgroundImage: `url(${quiz.quiz.background})` }}
      />
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div>
          <p className="text-xs font-semibold tracking-wide text-brand-700 uppercase">{quiz.subject}</p>
          <h3 className="mt-1 text-lg font-semibold wrap-anywhere text-fg">{quiz.title}</h3>
          <p className="text-sm text-muted">
            <Trans comment="Under a quiz's title: the teacher who wrote it">
              by <bdi>{teacherName}</bdi>
            </Trans>
          </p>
          {quiz.archivedAt ? (
            <p className="mt-1 text-xs font-semibold text-muted">
              <Trans>Archived by the teacher: your attempt stays yours.</Trans>
            </p>
          ) : null}
        </div>
        {children}
      </div>
    </li>
  );
}

function OnlineCard({ quiz }: { quiz: StudentQuizSummary }) {
  const inProgress = quiz.attempt?.status === 'in-progress' ? quiz.attempt : null;
  const { t } = useLingui();
  const points = pointsLabel(quiz.totalPoints);
  const { questionCount, maxTime } = quiz;
  const deadline = formatDateTime(quiz.deadline);
  const timeLeft = inProgress ? formatCountdown(inProgress.remainingSeconds) : '';
  return (
    <CardFrame quiz={quiz}>
      <ul className="flex flex-col gap-1 text-sm text-fg">
        <li className="flex items-center gap-2">
          <ListChecks className="size-4 text-brand-700" aria-hidden="true" />{' '}
          <span>
            <Plural value={questionCount} one="# question" other="# questions" /> · {points}
          </span>
        </li>
        <li className="flex items-center gap-2">
          <Clock className="size-4 text-brand-700" aria-hidden="true" />{' '}
          <Plural value={maxTime} one="# minute" other="# minutes" />
        </li>
        <li className="flex items-center gap-2">
          <CalendarClock className="size-4 text-brand-700" aria-hidden="true" />{' '}
          <Trans comment="When the quiz must be started by">Due {deadline}</Trans>
        </li>
      </ul>
      <Link
        to={`/dashboard/student/quiz/${quiz._id}`}
        className={cn(buttonVariants({ variant: 'primary' }), 'mt-auto')}
      >
        {inProgress ? t`Resume (${timeLeft} left)` : t`Take quiz`}
        <span className="sr-only">: {quiz.title}</span>
      </Link>
    </CardFrame>
  );
}

function AttemptedCard({ quiz }: { quiz: StudentQuizSummary }) {
  const result = quiz.attempt?.status === 'submitted' ? quiz.attempt : null;
  const { t } = useLingui();
  if (!result) return null;
  return (
    <CardFrame quiz={quiz}>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        {result.score === undefined || result.accuracy === undefined ? (
          <div className="col-span-2">
            <dt className="text-muted">{t`Score`}</dt>
            <dd className="text-fg">{scoreNotice(result, quiz.totalPoints)}</dd>
          </div>
        ) : (
          <>
            <div>
              <dt className="text-muted">{t`Score`}</dt>
              <dd className="text-lg font-semibold text-fg">
                <bdi>{formatScore(result.score, quiz.totalPoints)}</bdi>
              </dd>
            </div>
            <div>
              <dt className="text-muted">{t`Accuracy`}</dt>
              <dd className="text-lg font-semibold text-fg">{formatPercent(result.accuracy)}</dd>
            </div>
          </>
        )}
        <div className="col-span-2">
          <dt className="text-muted">
            {t({ context: 'date', comment: 'Label of the date when the student took the quiz', message: 'Attempted' })}
          </dt>
          <dd className="text-fg">{formatDateTime(result.attemptedAt)}</dd>
        </div>
      </dl>
      <Link
        to={`/dashboard/student/quiz/${quiz._id}`}
        className={cn(buttonVariants({ variant: 'secondary' }), 'mt-auto')}
      >
        <CheckCircle2 className="size-4" aria-hidden="true" />
        {t({
          context: 'action',
          comment: 'Button: opens the student’s answers to a quiz they took',
          message: 'Review',
        })}
        <span className="sr-only">: {quiz.title}</span>
      </Link>
    </CardFrame>
  );
}
