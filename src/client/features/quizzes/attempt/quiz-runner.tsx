import { Plural, useLingui } from '@lingui/react/macro';
import { ArrowLeft, ArrowRight, Clock, Send } from 'lucide-react';
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { isAnswered, type AnswerValue } from '#shared/question-types';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatCountdown, formatNumber } from '../../../lib/format.ts';
import { QuestionImage, QuestionText } from '../question-text.tsx';
import { pointsLabel, questionNumbers, type Responses } from '../question-response.ts';
import { ResponseInput, type RunnerQuestion } from './response-input.tsx';

export type RunnerAnswers = Responses;

type QuizRunnerProps = {
  title: string;
  background: string;
  questions: RunnerQuestion[];
  answers: RunnerAnswers;
  /** `isTyping`: a keystroke in a text answer (the saver waits longer for those). */
  onAnswer(questionId: string, value: AnswerValue | null, isTyping: boolean): void;
  secondsLeft: number;
  onSubmit(): void;
  /** A submission is on its way (the button's or the timer's): the choices are locked until it fails. */
  isSubmitting: boolean;
  /** A line under the timer: save status for students, "not saved" for the preview. */
  status?: ReactNode;
};

/**
 * One question at a time with previous/next arrows; Submit only on the last
 * question (SPEC §2). Used by the student attempt and the teacher preview.
 */
export function QuizRunner({
  title,
  background,
  questions,
  answers,
  onAnswer,
  secondsLeft,
  onSubmit,
  isSubmitting,
  status,
}: QuizRunnerProps) {
  const [index, setIndex] = useState(0);
  const headingId = useId();
  const questionRef = useRef<HTMLSpanElement>(null);
  // Keyboard and screen-reader users land on the question each time it changes,
  // instead of on <body> when the button they pressed disappears.
  useEffect(() => questionRef.current?.focus(), [index]);
  const optionsRef = useRef<HTMLFieldSetElement>(null);
  // Locking disables the radio a keyboard user may stand on, which drops focus to <body>: move
  // it to the question first (before paint), where the next Tab still finds the arrows.
  useLayoutEffect(() => {
    const focused = document.activeElement;
    if (isSubmitting && (!focused || focused === document.body || optionsRef.current?.contains(focused)))
      questionRef.current?.focus({ preventScroll: true });
  }, [isSubmitting]);
  const question = questions[index];
  const isLast = index === questions.length - 1;
  const numbers = questionNumbers(questions);
  const unanswered = questions.filter((item) => numbers.has(item._id) && !isAnswered(answers[item._id])).length;
  const number = question ? numbers.get(question._id) : undefined;
  const isRunningOut = secondsLeft <= 60;
  const { t } = useLingui();
  if (!question) return null;
  const timeLeft = formatCountdown(secondsLeft);
  const questionCount = formatNumber(numbers.size);
  const points = pointsLabel(question.points);
  const questionHeading = (questionNumber: string) =>
    t({
      comment: 'Above the question being answered: its number, how many there are, and its points ("2 points")',
      message: `Question ${questionNumber} of ${questionCount} · ${points}`,
    });

  return (
    // The chosen background fills the stage around the question; the question sits on a light
    // panel over it, so the picture shows and the text stays readable (contrast is the panel's).
    <section
      aria-labelledby={headingId}
      data-testid="quiz-stage"
      className="mx-auto w-full max-w-3xl overflow-hidden rounded-2xl bg-surface-inverse-raised bg-cover bg-center shadow-sm"
      style={{ backgroundImage: `url(${background})` }}
    >
      <div className="flex flex-wrap items-center justify-between gap-3 bg-surface-inverse/70 px-5 py-4 text-white">
        <h1 id={headingId} className="text-xl font-bold wrap-anywhere">
          {title}
        </h1>
        <p
          role="timer"
          aria-label={t`Time left ${timeLeft}`}
          className={cn(
            'inline-flex items-center gap-2 rounded-full px-3 py-1 font-mono text-lg font-semibold tabular-nums',
            isRunningOut ? 'bg-danger' : 'bg-surface-inverse/60',
          )}
        >
          <Clock className="size-4" aria-hidden="true" />
          <bdi>{timeLeft}</bdi>
        </p>
      </div>

      <div className="p-3 sm:p-6">
        {status ? (
          <div className="mb-2 flex justify-end">
            <div className="rounded-md bg-surface/90 px-2 py-0.5 text-sm text-muted">{status}</div>
          </div>
        ) : null}

        <div className="rounded-2xl bg-surface/95 p-5 shadow-lg ring-1 ring-black/5 sm:p-8">
          {/* Disabled as a whole while submitting: no radio takes focus, arrows or clicks, and
            screen readers announce the group as unavailable; the status below says why. */}
          <fieldset ref={optionsRef} disabled={isSubmitting} className="min-w-0">
            <legend className="w-full">
              <span ref={questionRef} tabIndex={-1} className="block outline-none">
                <span className="block text-sm font-semibold text-brand-700">
                  {number === undefined ? t`Read this before going on` : questionHeading(formatNumber(number))}
                </span>
                <span className="mt-2 block text-lg font-semibold text-fg" data-testid="question-text">
                  <QuestionText text={question.question_text} />
                </span>
              </span>
            </legend>
            {question.image ? (
              <div className="mt-4">
                <QuestionImage image={question.image} />
              </div>
            ) : null}
            <div className="mt-5">
              <ResponseInput
                key={question._id}
                question={question}
                value={answers[question._id]}
                onAnswer={(value, isTyping) => onAnswer(question._id, value, isTyping)}
                isSubmitting={isSubmitting}
              />
            </div>
          </fieldset>
          {/* Always in the page, so screen readers announce the text when it appears. */}
          <p role="status" className={isSubmitting ? 'mt-4 text-sm font-semibold text-brand-800' : ''}>
            {isSubmitting ? t`Submitting… Your answers can no longer be changed.` : null}
          </p>

          <div className="mt-8 flex flex-wrap items-center justify-between gap-3">
            <Button
              variant="secondary"
              onClick={() => setIndex(index - 1)}
              disabled={index === 0}
              aria-label={t`Previous question`}
              className="disabled:opacity-50"
            >
              <ArrowLeft className="size-4 rtl:-scale-x-100" aria-hidden="true" />
              <span className="hidden sm:inline">{t`Previous`}</span>
            </Button>
            {isLast ? (
              <div className="flex flex-wrap items-center justify-end gap-3">
                {unanswered > 0 ? (
                  <span className="text-sm text-muted">
                    <Plural value={unanswered} one="# unanswered question" other="# unanswered questions" />
                  </span>
                ) : null}
                {/* aria-disabled, not disabled: a keyboard user who pressed it keeps focus on it. */}
                <Button
                  onClick={isSubmitting ? undefined : onSubmit}
                  aria-disabled={isSubmitting}
                  className="aria-disabled:cursor-not-allowed aria-disabled:bg-brand-600/60 aria-disabled:hover:bg-brand-600/60"
                >
                  <Send className="size-4 rtl:-scale-x-100" aria-hidden="true" />
                  {isSubmitting ? t`Submitting…` : t`Submit`}
                </Button>
              </div>
            ) : (
              <Button variant="secondary" onClick={() => setIndex(index + 1)} aria-label={t`Next question`}>
                <span className="hidden sm:inline">{t`Next`}</span>
                <ArrowRight className="size-4 rtl:-scale-x-100" aria-hidden="true" />
              </Button>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}
