import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { ArrowLeft, CalendarClock, Clock, ListChecks, Play } from 'lucide-react';
import { useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { Link, useParams } from 'react-router';
import { QUIZ_LIMITS, type StudentQuizDetail } from '#shared/quizzes';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { PageTitle } from '../../../components/ui/page-title.tsx';
import { startQuiz, submitQuiz } from '#shared/contract/quizzes';
import { ApiError, call } from '../../../lib/api.ts';
import { quizQueries } from '../quiz-queries.ts';
import { profileQueries } from '../../session/profile.ts';
import { formatDateTime, formatDuration, isolate } from '../../../lib/format.ts';
import { QuizResult } from '../attempt/quiz-result.tsx';
import { useSuppressLeaveConfirmation } from '../../student/study-mode/leave-confirmation.ts';
import { QuizRunner, type RunnerAnswers } from '../attempt/quiz-runner.tsx';
import type { DeliveryState } from '../attempt/answer-outbox.ts';
import { useAnswerSaver } from '../attempt/use-answer-saver.ts';
import { useCountdown } from '../attempt/use-countdown.ts';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { useNoBreakReminders } from '../../student/study-mode/quiet-time.ts';
import { cardVariants } from '../../../components/ui/card.tsx';
import { pointsLabel } from '../question-response.ts';

const quizKey = (quizId: string) => quizQueries.studentDetail(quizId).queryKey;
const SUBMIT_RETRY_DELAY_MS = 3000;
const SUBMIT_RETRIES = Math.floor((QUIZ_LIMITS.graceSeconds * 1000) / SUBMIT_RETRY_DELAY_MS);
const QUIZ_LIST_PATH = '/dashboard/student/quiz';

/** /dashboard/student/quiz/:id: start, take (server-timed, saved as it goes), then result and review. */
export function Component() {
  const { id = '' } = useParams();
  const quiz = useQuery(quizQueries.studentDetail(id));
  const { t } = useLingui();
  return (
    <>
      <PageTitle>{quiz.data ? isolate(quiz.data.title) : t`Quiz`}</PageTitle>
      <QuizScreen quiz={quiz} />
    </>
  );
}

function QuizScreen({ quiz }: { quiz: UseQueryResult<StudentQuizDetail> }) {
  const [hasJustSubmitted, setHasJustSubmitted] = useState(false);
  const { t } = useLingui();
  // A finished quiz has nothing left to lose: leaving its result asks no question.
  useSuppressLeaveConfirmation(Boolean(quiz.data?.attempt) && quiz.data?.attempt?.status !== 'in-progress');
  // The cache may hold this quiz as it was when the screen was last open (its answers, its
  // time left): the attempt is built only from what the server says now, so wait for it.
  if (quiz.isPending || !quiz.isFetchedAfterMount) {
    return <LoadingStatus className="justify-center">{t`Loading the quiz…`}</LoadingStatus>;
  }
  if (quiz.isError) {
    return (
      <div className="mx-auto max-w-xl text-center">
        <h1 className="text-2xl font-bold text-fg">{t`This quiz cannot be opened`}</h1>
        <p className="mt-2 text-muted">{quiz.error.message}</p>
        <BackToQuizzes />
      </div>
    );
  }
  const detail = quiz.data;
  if (!detail.attempt) return <QuizIntro detail={detail} />;
  if (detail.attempt.status === 'in-progress') {
    return (
      <AttemptInProgress
        key={detail.attempt.startedAt}
        detail={detail}
        remaining={detail.attempt.remainingSeconds}
        onSubmitted={() => setHasJustSubmitted(true)}
      />
    );
  }
  const attemptedAt = formatDateTime(detail.attempt.attemptedAt);
  const timeTaken = formatDuration(detail.attempt.timeTaken);
  return (
    <QuizResult
      title={detail.title}
      score={detail.attempt.score}
      totalPoints={detail.totalPoints}
      accuracy={detail.attempt.accuracy}
      endedBy={detail.attempt.endedBy}
      questions={detail.quiz.questions}
      review={detail.attempt}
      isJustSubmitted={hasJustSubmitted}
      details={
        <Trans>
          Attempted {attemptedAt} · time taken <bdi>{timeTaken}</bdi>
        </Trans>
      }
      actions={<BackToQuizzes />}
    />
  );
}

function BackToQuizzes() {
  return (
    <Link to={QUIZ_LIST_PATH} className={cn(buttonVariants({ variant: 'secondary' }), 'mt-4')}>
      <ArrowLeft className="size-4 rtl:-scale-x-100" aria-hidden="true" />
      <Trans>Back to quizzes</Trans>
    </Link>
  );
}

/** Before the start: what the quiz is, and the button that starts the server's timer. */
function QuizIntro({ detail }: { detail: StudentQuizDetail }) {
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: async () => (await call(startQuiz, { params: { id: detail._id } })).data,
    onSuccess: (started) => queryClient.setQueryData(quizKey(detail._id), started),
  });
  const [openedAt] = useState(() => Date.now());
  const isClosed = Date.parse(detail.deadline) <= openedAt;
  const { t } = useLingui();
  const { questionCount, maxTime } = detail;
  const questions = <Plural value={questionCount} one="# question" other="# questions" />;
  const points = pointsLabel(detail.totalPoints);
  const deadline = formatDateTime(detail.deadline);
  return (
    <section
      aria-labelledby="intro-title"
      className={cn(cardVariants({ rounded: '2xl' }), 'mx-auto w-full max-w-2xl overflow-hidden')}
    >
      <div
        className="h-32 bg-surface-inverse-raised bg-cover bg-center"
        style={{ backgroundImage: `url(${detail.quiz.background})` }}
      />
      <div className="p-6">
        <p className="text-sm font-semibold text-brand-700">
          {detail.subject} · {detail.createdBy.name}
        </p>
        <h1 id="intro-title" className="mt-1 text-2xl font-bold wrap-anywhere text-fg">
          {detail.title}
        </h1>
        <ul className="mt-4 flex flex-col gap-2 text-fg">
          <li className="flex items-center gap-2">
            <ListChecks className="size-4 text-brand-700" aria-hidden="true" />{' '}
            <span>
              {questions} · {points}
            </span>
          </li>
          <li className="flex items-center gap-2">
            <Clock className="size-4 text-brand-700" aria-hidden="true" />{' '}
            <Plural value={maxTime} one="# minute once you start" other="# minutes once you start" />
          </li>
          <li className="flex items-center gap-2">
            <CalendarClock className="size-4 text-brand-700" aria-hidden="true" />{' '}
            <Trans>Start before {deadline}</Trans>
          </li>
        </ul>
        {isClosed ? (
          <p className="mt-6 rounded-lg bg-warning-soft p-3 text-warning">{t`The deadline of this quiz has passed.`}</p>
        ) : (
          <p className="mt-6 text-sm text-muted">
            <Trans>
              The timer starts when you press Start and keeps running if you leave or reload the page. Your answers are
              saved as you pick them; when the time is up, the quiz is submitted with them.
            </Trans>
          </p>
        )}
        <div className="mt-6 flex flex-wrap gap-3">
          {isClosed ? null : (
            <Button onClick={() => start.mutate()} disabled={start.isPending}>
              <Play className="size-4" aria-hidden="true" />
              {start.isPending ? t`Starting…` : t`Start quiz`}
            </Button>
          )}
          <Link to={QUIZ_LIST_PATH} className={buttonVariants({ variant: 'secondary' })}>
            {t`Back to quizzes`}
          </Link>
        </div>
      </div>
    </section>
  );
}

const SAVE_STATUS_TEXT: Record<DeliveryState['status'], MessageDescriptor> = {
  idle: msg`Your answers are saved as you pick them`,
  saving: msg`Saving…`,
  saved: msg`All answers saved`,
  retrying: msg`Not saved yet: reconnecting…`,
  over: msg`Time is up`,
  refused: msg`Not saved`,
};

/** Under the timer: how the choices are doing; an alert when some can never be saved. */
function SaveStatusLine({ state }: { state: DeliveryState }) {
  const { t } = useLingui();
  if (state.status === 'refused') {
    const reason = state.message;
    return (
      <span role="alert" className="font-semibold text-danger-strong">
        {t`Your last answers could not be saved: ${reason} Submitting still sends them.`}
      </span>
    );
  }
  return <span aria-live="polite">{t(SAVE_STATUS_TEXT[state.status])}</span>;
}

/** The running attempt: choices saved as they are made, submitted by the student or by the timer. */
function AttemptInProgress({
  detail,
  remaining,
  onSubmitted,
}: {
  detail: StudentQuizDetail;
  remaining: number;
  onSubmitted(): void;
}) {
  useNoBreakReminders();
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: quizKey(detail._id) });
  const saver = useAnswerSaver(detail._id, detail.title, refresh);
  // The server's answers, under any choice of this page it has not acknowledged yet (still retrying).
  const [answers, setAnswers] = useState<RunnerAnswers>(() => ({
    ...Object.fromEntries(detail.quiz.questions.map((question) => [question._id, question.response ?? null])),
    ...saver.unacknowledged(),
  }));
  // The timer and the button may both ask at 0:00: one submission only. Set at once (a ref),
  // so a click landing before the options are drawn disabled is refused too.
  const isSubmitStarted = useRef(false);
  // From the start of a submission to its failure, the choices are locked: the submission
  // could not include a later one (decision 022).
  const [isLocked, setIsLocked] = useState(false);

  const submit = useMutation({
    mutationFn: async () => {
      // Save first, whoever submits (the student or the timer): if the submission then fails,
      // the choices are on the server anyway, and the attempt closes with them when its time
      // runs out. The submission carries only what the server has not acknowledged (normally
      // nothing): the server scores its saved answers, so an answer saved since this screen
      // drew it (another tab) is never overwritten with what this screen shows. Built here,
      // after the flush and on every retry, never from a render's copy of the answers.
      const unacknowledged = await saver.flushForSubmission();
      const questions = Object.entries(unacknowledged).map(([_id, response]) => ({ _id, response }));
      return (await call(submitQuiz, { body: { quiz: { _id: detail._id, questions } } })).data;
    },
    // Lost connection: keep trying through the grace period the server allows.
    retry: (failures, error) => error instanceof ApiError && error.code === 'UNREACHABLE' && failures < SUBMIT_RETRIES,
    retryDelay: SUBMIT_RETRY_DELAY_MS,
    // Its own toast below, or none when the attempt was already closed.
    meta: { errorToast: false },
    onSuccess: (submitted) => {
      saver.close();
      onSubmitted();
      queryClient.setQueryData(quizKey(detail._id), submitted);
      void queryClient.invalidateQueries({ queryKey: quizQueries.all });
      void queryClient.invalidateQueries({ queryKey: profileQueries.profile('student').queryKey });
    },
    onError: (error) => {
      // Already closed (time up elsewhere, another tab): show what the server holds.
      if (error instanceof ApiError && (error.code === 'QUIZ_ALREADY_SUBMITTED' || error.code === 'QUIZ_NOT_STARTED'))
        return refresh();
      isSubmitStarted.current = false;
      setIsLocked(false);
      // The choices unlock again: the student may change them and submit once more.
      const reason = error.message;
      toast.error(t`Your quiz was not submitted: ${reason}`);
    },
  });

  const submitOnce = () => {
    if (isSubmitStarted.current) return;
    isSubmitStarted.current = true;
    setIsLocked(true);
    submit.mutate();
  };
  const secondsLeft = useCountdown(remaining, submitOnce);

  return (
    <QuizRunner
      title={detail.title}
      background={detail.quiz.background}
      questions={detail.quiz.questions}
      answers={answers}
      onAnswer={(questionId, value, isTyping) => {
        if (isSubmitStarted.current) return;
        setAnswers((current) => ({ ...current, [questionId]: value }));
        saver.queue(questionId, value, { isTyping });
      }}
      secondsLeft={secondsLeft}
      onSubmit={submitOnce}
      isSubmitting={isLocked}
      status={<SaveStatusLine state={saver.state} />}
    />
  );
}
