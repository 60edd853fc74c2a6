import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Check, Download, RotateCw, X } from 'lucide-react';
import { useEffect } from 'react';
import toast from 'react-hot-toast/headless';
import { Link, useParams } from 'react-router';
import { formatAccuracy, type AttemptRecord, type TeacherQuizDetail } from '#shared/quizzes';
import { Button } from '../../../components/ui/button.tsx';
import { ApiError, apiRequest } from '../../../lib/api.ts';
import { attemptsCsv, attemptsCsvFileName } from './analytics-csv.ts';
import { QuestionHeader } from './question-header.tsx';
import { formatDateTime, formatDay } from '../../../lib/format.ts';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';

const ALL_QUIZ_PATH = '/dashboard/teacher/all-quiz';

/** Client errors (403 not yours, 404 unknown, 400 malformed id) do not get better by retrying. */
const isClientError = (error: unknown) => error instanceof ApiError && error.status >= 400 && error.status < 500;

function downloadCsv(quiz: TeacherQuizDetail) {
  // The byte order mark makes spreadsheet programs read the file as UTF-8.
  const blob = new Blob(['\uFEFF', attemptsCsv(quiz)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = attemptsCsvFileName(quiz.title);
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function BackLink() {
  return (
    <Link
      to={ALL_QUIZ_PATH}
      className="inline-flex items-center gap-1.5 rounded-md text-sm font-semibold text-brand-700 hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      All quizzes
    </Link>
  );
}

function AnswerCell({ selected, answer }: { selected: string | null | undefined; answer: string }) {
  const isAnswered = selected !== null && selected !== undefined && selected !== '';
  const isCorrect = isAnswered && selected === answer;
  return (
    <td
      className={`border-b border-l border-slate-200 px-3 py-2 align-top ${
        isCorrect ? 'bg-green-50 text-green-900' : 'bg-red-50 text-red-900'
      }`}
    >
      <span className="flex max-w-56 items-start gap-1.5">
        {isCorrect ? (
          <Check className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        ) : (
          <X className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        )}
        {isAnswered ? <span className="wrap-anywhere">{selected}</span> : <span aria-hidden="true">—</span>}
        <span className="sr-only">{isCorrect ? '(correct)' : isAnswered ? '(wrong)' : 'Unanswered (wrong)'}</span>
      </span>
    </td>
  );
}

function AttemptRow({ attempt, quiz }: { attempt: AttemptRecord; quiz: TeacherQuizDetail }) {
  const selected = new Map(attempt.quiz.questions.map((answer) => [answer._id, answer.selectedOption]));
  return (
    <tr>
      <th
        scope="row"
        className="sticky left-0 z-10 border-b border-slate-200 bg-white px-3 py-2 text-left align-top font-medium"
      >
        <span className="block max-w-48 wrap-anywhere text-slate-900">{attempt.user.name}</span>
        <span className="block text-xs font-normal text-slate-600">{attempt.user.rollNumber}</span>
      </th>
      <td className="whitespace-nowrap border-b border-slate-200 px-3 py-2 align-top tabular-nums">
        {attempt.score} / {quiz.quiz.questions.length}
      </td>
      <td className="whitespace-nowrap border-b border-slate-200 px-3 py-2 align-top tabular-nums">
        {formatAccuracy(attempt.accuracy)}%
      </td>
      <td className="whitespace-nowrap border-b border-slate-200 px-3 py-2 align-top">
        <time dateTime={attempt.attemptedAt}>{formatDateTime(attempt.attemptedAt)}</time>
      </td>
      {quiz.quiz.questions.map((question) => (
        <AnswerCell key={question._id} selected={selected.get(question._id)} answer={question.answer} />
      ))}
    </tr>
  );
}

function AttemptsTable({ quiz }: { quiz: TeacherQuizDetail }) {
  const headerCell = 'whitespace-nowrap border-b border-slate-300 bg-slate-100 px-3 py-2 text-left font-semibold';
  return (
    <div
      role="region"
      aria-label="Attempts table"
      tabIndex={0}
      // relative: the sr-only labels inside are absolutely placed and must scroll (and clip) with the table.
      className="relative mt-3 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <table className="min-w-full border-separate border-spacing-0 text-sm text-slate-900">
        <caption className="sr-only">
          One row per attempt. Each question column shows the option chosen, marked correct or wrong.
        </caption>
        <thead>
          <tr>
            <th scope="col" className={`${headerCell} sticky left-0 z-10`}>
              Name
            </th>
            <th scope="col" className={headerCell}>
              Score
            </th>
            <th scope="col" className={headerCell}>
              Accuracy
            </th>
            <th scope="col" className={headerCell}>
              Attempted at
            </th>
            {quiz.quiz.questions.map((question, index) => (
              <th key={question._id} scope="col" className={`${headerCell} border-l px-1.5`}>
                <QuestionHeader number={index + 1} text={question.question_text} />
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {quiz.attempts.map((attempt) => (
            <AttemptRow key={attempt._id} attempt={attempt} quiz={quiz} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function QuizAnalytics({ quiz }: { quiz: TeacherQuizDetail }) {
  const facts: [string, React.ReactNode][] = [
    ['Class', quiz.class],
    ['Subject', quiz.subject],
    ['Created', <time dateTime={quiz.date}>{formatDay(quiz.date)}</time>],
    ['Deadline', <time dateTime={quiz.deadline}>{formatDateTime(quiz.deadline)}</time>],
    ['Time limit', `${quiz.maxTime} min`],
    ['Total attempts', String(quiz.attempts.length)],
  ];
  return (
    <>
      <h1 className="mt-3 wrap-anywhere text-2xl font-bold text-slate-900">{quiz.title}</h1>
      <dl className="mt-4 grid grid-cols-2 gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 sm:p-5 lg:grid-cols-6">
        {facts.map(([label, value]) => (
          <div key={label} className="min-w-0">
            <dt className="text-xs font-semibold uppercase tracking-wide text-slate-600">{label}</dt>
            <dd className="mt-1 wrap-anywhere text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>

      <section aria-labelledby="attempts-heading" className="mt-8">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="attempts-heading" className="text-lg font-semibold text-slate-900">
            Attempts
          </h2>
          {quiz.attempts.length > 0 ? (
            <Button variant="secondary" onClick={() => downloadCsv(quiz)}>
              <Download className="size-4" aria-hidden="true" />
              Download CSV
            </Button>
          ) : null}
        </div>
        {quiz.attempts.length === 0 ? (
          <p className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
            No attempts made
          </p>
        ) : (
          <>
            <p className="mt-1 text-sm text-slate-700">
              Hover or focus a question number to read the question. Green with a tick: correct; red with a cross: wrong
              or unanswered.
            </p>
            <AttemptsTable quiz={quiz} />
          </>
        )}
      </section>

      <section aria-labelledby="questions-heading" className="mt-8">
        <h2 id="questions-heading" className="text-lg font-semibold text-slate-900">
          Questions
        </h2>
        <ol className="mt-3 flex flex-col gap-2">
          {quiz.quiz.questions.map((question, index) => (
            <li key={question._id} className="rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm">
              <p className="wrap-anywhere text-slate-900">
                <span className="font-semibold">Q{index + 1}.</span> {question.question_text}
              </p>
              <p className="mt-1 wrap-anywhere text-slate-700">
                Correct answer: <span className="font-medium text-green-900">{question.answer}</span>
              </p>
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}

function describeFailure(error: Error): { heading: string; detail: string; canRetry: boolean } {
  if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
    return { heading: 'Quiz not found', detail: 'There is no quiz at this address.', canRetry: false };
  }
  if (error instanceof ApiError && error.status === 403) {
    return {
      heading: 'Not your quiz',
      detail: 'Only the teacher who created a quiz can see its analytics.',
      canRetry: false,
    };
  }
  return { heading: 'Quiz analytics could not be loaded', detail: error.message, canRetry: true };
}

/** /dashboard/teacher/quiz-analytics/:quizID (SPEC §2 teacher quiz analytics). */
export function Component() {
  const { quizID = '' } = useParams();
  const quiz = useQuery({
    queryKey: ['quiz', quizID],
    queryFn: async () => (await apiRequest<TeacherQuizDetail>(`/api/quiz/${encodeURIComponent(quizID)}`)).data,
    retry: (failureCount, error) => !isClientError(error) && failureCount < 2,
  });

  useEffect(() => {
    if (quiz.error) toast.error(quiz.error.message);
  }, [quiz.error]);

  if (quiz.isPending) {
    return (
      <div className="mx-auto w-full max-w-6xl">
        <BackLink />
        <h1 className="mt-3 text-2xl font-bold text-slate-900">Quiz analytics</h1>
        <LoadingStatus className="mt-4">Loading the attempts…</LoadingStatus>
      </div>
    );
  }

  if (quiz.isError) {
    const failure = describeFailure(quiz.error);
    return (
      <div className="mx-auto w-full max-w-6xl">
        <BackLink />
        <h1 className="mt-3 text-2xl font-bold text-slate-900">{failure.heading}</h1>
        <div role="alert" className="mt-4 rounded-xl border border-red-200 bg-red-50 p-5 text-red-900">
          <p>{failure.detail}</p>
          {failure.canRetry ? (
            <Button variant="secondary" className="mt-4" onClick={() => void quiz.refetch()}>
              <RotateCw className="size-4" aria-hidden="true" />
              Try again
            </Button>
          ) : null}
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto w-full max-w-6xl">
      <BackLink />
      <QuizAnalytics quiz={quiz.data} />
    </div>
  );
}
