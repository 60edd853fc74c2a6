import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { CalendarClock, ClipboardList, Plus, Users } from 'lucide-react';
import { Suspense, useEffect, useRef } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import type { TeacherQuizSummary } from '#shared/quizzes';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { usePagedList } from '../../../lib/paged-list.ts';
import { quizQueries } from '../quiz-queries.ts';
import { formatDateTime, formatDay, formatNumber } from '../../../lib/format.ts';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { LoadMoreButton } from '../../../components/ui/load-more-button.tsx';
import { PageTitle } from '../../../components/ui/page-title.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { EmptyState, LoadFailure } from '../../../components/ui/status-cards.tsx';
import { cardVariants } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/cn.ts';
import { PlayLiveButton, PlayLiveDialog } from '../../live-games/play-live-button.tsx';

/** Within this, going back and forth inside the page does not refetch; arriving on it always does. */
const ATTEMPT_COUNTS_STALE_MS = 5_000;

function QuizCard({ quiz, now }: { quiz: TeacherQuizSummary; now: number }) {
  const isClosed = Date.parse(quiz.deadline) <= now;
  const titleId = `quiz-${quiz._id}-title`;
  const { t } = useLingui();
  const { questionCount, totalPoints, attemptCount } = quiz;
  const questions = plural(questionCount, { one: '# question', other: '# questions' });
  const points = plural(totalPoints, { one: '# point', other: '# points' });
  const attempts = plural(attemptCount, { one: '# attempt', other: '# attempts' });
  const minutes = formatNumber(quiz.maxTime);
  return (
    <li className="min-w-0">
      <article
        aria-labelledby={titleId}
        className={cn(
          cardVariants(),
          'group relative flex h-full flex-col overflow-hidden transition-shadow hover:shadow-md has-[a:focus-visible]:ring-3 has-[a:focus-visible]:ring-brand-500',
        )}
      >
        <div className="relative h-20 shrink-0 overflow-hidden border-b border-line">
          <img
            src={quiz.quiz.background}
            alt=""
            width={1280}
            height={720}
            loading="lazy"
            className="size-full object-cover opacity-80"
          />
          <span
            className={`absolute end-3 top-3 rounded-full px-2.5 py-0.5 text-xs font-semibold ${
              isClosed || quiz.archivedAt ? 'bg-surface-inverse-raised text-white' : 'bg-teal-700 text-white'
            }`}
          >
            {quiz.archivedAt
              ? t({ comment: 'A quiz’s state', message: 'Archived' })
              : isClosed
                ? t({ comment: 'A quiz’s state: past its deadline', message: 'Closed' })
                : t({ comment: 'A quiz’s state: students can take it', message: 'Open' })}
          </span>
        </div>
        <div className="flex flex-1 flex-col gap-3 p-4">
          <h2 id={titleId} className="text-lg leading-snug font-semibold text-fg">
            {/* The whole card is the link's target area and shows its focus; its name stays the title. */}
            <Link
              to={`/dashboard/teacher/quiz-analytics/${encodeURIComponent(quiz._id)}`}
              className="wrap-anywhere group-hover:text-brand-800 after:absolute after:inset-0 after:content-[''] focus-visible:outline-none!"
            >
              {quiz.title}
            </Link>
          </h2>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm">
            <div className="min-w-0">
              <dt className="text-xs font-semibold tracking-wide text-muted uppercase">
                <Trans>Class</Trans>
              </dt>
              <dd className="truncate text-fg">{quiz.class}</dd>
            </div>
            <div className="min-w-0">
              <dt className="text-xs font-semibold tracking-wide text-muted uppercase">
                <Trans>Subject</Trans>
              </dt>
              <dd className="truncate text-fg">{quiz.subject}</dd>
            </div>
            <div className="min-w-0">
              <dt className="text-xs font-semibold tracking-wide text-muted uppercase">
                <Trans>Created</Trans>
              </dt>
              <dd className="text-fg">
                <time dateTime={quiz.date}>{formatDay(quiz.date)}</time>
              </dd>
            </div>
            <div className="min-w-0">
              <dt className="text-xs font-semibold tracking-wide text-muted uppercase">
                <Trans>Deadline</Trans>
              </dt>
              <dd className="text-fg">
                <time dateTime={quiz.deadline}>{formatDateTime(quiz.deadline)}</time>
              </dd>
            </div>
          </dl>
          <p className="mt-auto flex flex-wrap gap-x-4 gap-y-1 border-t border-line pt-3 text-sm text-muted">
            <span className="inline-flex items-center gap-1.5">
              <ClipboardList className="size-4" aria-hidden="true" />
              {questions} · {points}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <Users className="size-4" aria-hidden="true" />
              {attempts}
            </span>
            <span className="inline-flex items-center gap-1.5">
              <CalendarClock className="size-4" aria-hidden="true" />
              <Trans>{minutes} min</Trans>
            </span>
          </p>
          {quiz.archivedAt ? null : (
            // Above the card's stretched link, so the button takes its own clicks.
            <div className="relative z-10 flex">
              <PlayLiveButton quiz={quiz} describedBy={titleId} />
            </div>
          )}
        </div>
      </article>
    </li>
  );
}

/**
 * /dashboard/teacher/all-quiz (SPEC §2): the teacher's own quizzes as cards,
 * newest first, paged by the server; each card opens the quiz's analytics.
 */
export function Component() {
  const quizzes = usePagedList({
    ...quizQueries.teacherList(),
    // Attempt counts change while the teacher looks elsewhere: fresh on every visit and when the
    // tab is shown again, without refetching on every re-render in between (issue 18).
    staleTime: ATTEMPT_COUNTS_STALE_MS,
    refetchOnMount: 'always',
    refetchOnWindowFocus: 'always',
  });

  // "Quiz" in the menu while the list is on screen is a navigation to the same route: a new
  // location key, no remount. The teacher clicked it to see the latest, so fetch.
  const location = useLocation();
  const locationKey = location.key;
  const shownLocationKey = useRef(locationKey);
  const { refetch } = quizzes;
  useEffect(() => {
    if (shownLocationKey.current === locationKey) return;
    shownLocationKey.current = locationKey;
    void refetch();
  }, [locationKey, refetch]);

  const list = quizzes.items;
  // "Play live" from a quiz's analytics (`?play=<quiz id>`): the dialog over this list.
  const [searchParams, setSearchParams] = useSearchParams();
  const playId = searchParams.get('play');
  const arrivedTitle = (location.state as { quizTitle?: unknown } | null)?.quizTitle;
  const playQuiz = list.find((quiz) => quiz._id === playId);
  const playTitle = playQuiz?.title ?? (typeof arrivedTitle === 'string' ? arrivedTitle : undefined);
  const closePlay = () =>
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('play');
        return next;
      },
      { replace: true },
    );
  // Read once per fetch so "Open/Closed" does not flicker between renders.
  const now = quizzes.dataUpdatedAt || 0;
  const { t } = useLingui();

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageTitle>{t`Your quizzes`}</PageTitle>
      <PageHeader
        title={t`Your quizzes`}
        description={t`Open a quiz to see how your students did.`}
        actions={
          <Link to="/dashboard/teacher/create-quiz" className={buttonVariants()}>
            <Plus className="size-4" aria-hidden="true" />
            <Trans>Create quiz</Trans>
          </Link>
        }
      />

      {playId ? (
        <Suspense fallback={null}>
          <PlayLiveDialog quiz={{ _id: playId, title: playTitle, classId: playQuiz?.classId }} onClose={closePlay} />
        </Suspense>
      ) : null}
      <div className="mt-6">
        {quizzes.isPending ? (
          <LoadingStatus>
            <Trans>Loading your quizzes…</Trans>
          </LoadingStatus>
        ) : quizzes.isError && list.length === 0 ? (
          <LoadFailure
            title={t`Your quizzes could not be loaded.`}
            message={quizzes.error.message}
            onRetry={() => void quizzes.refetch()}
          />
        ) : list.length === 0 ? (
          <EmptyState
            title={t`You haven't created any quiz`}
            hint={t`Create one: your students see it in their quiz list.`}
          />
        ) : (
          <>
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
              {list.map((quiz) => (
                <QuizCard key={quiz._id} quiz={quiz} now={now} />
              ))}
            </ul>
            <LoadMoreButton list={quizzes} />
          </>
        )}
      </div>
    </div>
  );
}
