import { useLingui } from '@lingui/react/macro';
import { Check, X } from 'lucide-react';
import { useEffect, useRef, type ReactNode } from 'react';
import { isAnswered, isMatchingAnswer } from '#shared/question-types';
import { isWorthCelebrating, type AttemptEnding, type QuizQuestion } from '#shared/quizzes';
import { formatNumber, formatPercent, formatScore } from '../../../lib/format.ts';
import { cardVariants } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/cn.ts';
import { answersNotice, scoreNotice, type ScoreState } from '../review-notice.ts';
import { QuestionImage, QuestionText } from '../question-text.tsx';
import {
  earnedOfLabel,
  hasKey,
  keyText,
  outcomeOf,
  pointsLabel,
  questionNumbers,
  trueFalseText,
} from '../question-response.ts';

type QuizResultProps = {
  title: string;
  /** Absent while the quiz's review options hide the score (decision 032). */
  score?: number | undefined;
  /** What the score is out of: the points of all questions. */
  totalPoints: number;
  accuracy?: string | undefined;
  endedBy: AttemptEnding;
  /** Questions with the student's choice, and the answer key once the review options show it. */
  questions: QuizQuestion[];
  /** When what is hidden will be shown (the student's attempt); the preview shows everything. */
  review?: { answersVisibleAt: string | null } & ScoreState;
  /** Extra facts under the score (attempted at, time taken). */
  details?: ReactNode;
  actions?: ReactNode;
  /**
   * Right after a submission (not when an old review is opened again): confetti, if the
   * result is worth celebrating (isWorthCelebrating: 60 % or more).
   */
  isJustSubmitted?: boolean;
};

/** The result screen and the review (SPEC §2): a celebration, then right answers green, wrong choices red. */
export function QuizResult({
  title,
  score,
  totalPoints,
  accuracy,
  endedBy,
  questions,
  details,
  actions,
  isJustSubmitted = false,
  review,
}: QuizResultProps) {
  const isCelebrating = isJustSubmitted && accuracy !== undefined && isWorthCelebrating(accuracy);
  const hasAnyKey = questions.some(hasKey);
  const numbers = questionNumbers(questions);
  const keyNotice = review ? answersNotice(review.answersVisibleAt, hasAnyKey) : null;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const { t } = useLingui();

  const questionLabel = (questionNumber: string) =>
    t({
      comment: 'Before a question’s text in the review: Q for question, then its number',
      message: `Q${questionNumber}.`,
    });
  /** "2 points", or with what it earned once shown: "1.5 / 2 points". */
  const earnedLabel = (question: QuizQuestion) => {
    const earnedPoints = earnedShown(question);
    return earnedPoints === undefined ? pointsLabel(question.points) : earnedOfLabel(earnedPoints, question.points);
  };

  // The result replaces the button that was pressed: take the focus to its heading.
  useEffect(() => headingRef.current?.focus(), []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!isCelebrating || !canvas) return;
    let stop: (() => void) | undefined;
    let isLeft = false;
    void import('./confetti.ts').then(({ celebrateOn }) => {
      if (!isLeft) stop = celebrateOn(canvas);
    });
    return () => {
      isLeft = true;
      stop?.();
    };
  }, [isCelebrating]);

  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      {isCelebrating ? (
        <canvas
          ref={canvasRef}
          data-confetti
          aria-hidden="true"
          className="pointer-events-none fixed inset-0 z-50 size-full"
        />
      ) : null}
      <section aria-labelledby="result-title" className={cn(cardVariants({ rounded: '2xl' }), 'p-6 text-center')}>
        <p className="text-sm font-semibold wrap-anywhere text-brand-700">{title}</p>
        <h1 id="result-title" ref={headingRef} tabIndex={-1} className="mt-1 text-2xl font-bold text-fg outline-none">
          {endedBy === 'time-up' ? t`Time is up: your answers were submitted` : t`Quiz submitted`}
        </h1>
        {score === undefined || accuracy === undefined ? (
          <p className="mt-6 rounded-xl bg-brand-50 p-4 text-fg" data-testid="score-notice">
            {review ? scoreNotice(review, totalPoints) : null}
          </p>
        ) : (
          <dl className="mt-6 grid grid-cols-2 gap-4">
            <div className="rounded-xl bg-brand-50 p-4">
              <dt className="text-sm text-muted">{t`Score`}</dt>
              <dd className="text-2xl font-bold text-fg sm:text-3xl" data-testid="result-score">
                <bdi>{formatScore(score, totalPoints)}</bdi>
              </dd>
            </div>
            <div className="rounded-xl bg-brand-50 p-4">
              <dt className="text-sm text-muted">{t`Accuracy`}</dt>
              <dd className="text-2xl font-bold text-fg sm:text-3xl" data-testid="result-accuracy">
                {formatPercent(accuracy)}
              </dd>
            </div>
          </dl>
        )}
        {details ? <div className="mt-4 text-sm text-muted">{details}</div> : null}
        {actions ? <div className="mt-6 flex flex-wrap justify-center gap-3">{actions}</div> : null}
      </section>

      <section aria-labelledby="review-title">
        <h2 id="review-title" className="text-xl font-bold text-fg">
          {t({
            comment: 'Heading of the list of questions with the student’s answers after a quiz',
            message: 'Review',
          })}
        </h2>
        {keyNotice ? (
          <p className="mt-2 rounded-lg bg-warning-soft p-3 text-warning" data-testid="answers-notice">
            {keyNotice}
          </p>
        ) : null}
        <ol className="mt-4 flex flex-col gap-4">
          {questions.map((question) => {
            const number = numbers.get(question._id);
            return (
              <li
                key={question._id}
                className={cn(cardVariants({ rounded: '2xl' }), 'p-5')}
                data-testid="review-question"
              >
                <div className="flex flex-wrap items-start justify-between gap-x-3 gap-y-1">
                  <p className={cn('min-w-0 flex-1 text-fg', number !== undefined && 'font-semibold')}>
                    {number !== undefined ? (
                      <span className="text-brand-700">{questionLabel(formatNumber(number))} </span>
                    ) : null}
                    <QuestionText text={question.question_text} />
                  </p>
                  {number !== undefined ? (
                    <p className="text-sm font-semibold whitespace-nowrap text-muted" data-testid="review-points">
                      {earnedLabel(question)}
                    </p>
                  ) : null}
                </div>
                {question.image ? (
                  <div className="mt-3">
                    <QuestionImage image={question.image} />
                  </div>
                ) : null}
                {number !== undefined && !isAnswered(question.response) ? (
                  <p className="mt-1 text-sm text-muted">{t`Not answered`}</p>
                ) : null}
                <ReviewAnswer question={question} />
              </li>
            );
          })}
        </ol>
      </section>
    </div>
  );
}

/**
 * What a question earned, shown only beside its key: a question's points are a piece of the key
 * (a true-false question's are its answer), so they wait for it (issue 30 point 1, decision 032).
 * The server sends neither before then; this keeps the page from showing one without the other.
 */
const earnedShown = (question: QuizQuestion) =>
  // An essay has no key: its mark comes when the key's moment does, and the server sends it only then.
  hasKey(question) || question.type === 'essay' ? question.earnedPoints : undefined;

/** A question's answer in the review, by type: the options (or True/False) marked, or the typed answer beside the key. */
function ReviewAnswer({ question }: { question: QuizQuestion }) {
  const { t } = useLingui();
  const withKey = hasKey(question);
  const { response } = question;
  if (question.type === 'single' || question.type === 'multiple') {
    const chosen = Array.isArray(response) ? response : typeof response === 'string' ? [response] : [];
    return (
      <ul className="mt-3 flex flex-col gap-2">
        {(question.options ?? []).map((option) => (
          <ReviewOption
            key={option._id}
            option={option.text}
            image={option.image}
            hasKey={withKey}
            isAnswer={option.correct === true}
            isChosen={chosen.includes(option._id)}
          />
        ))}
      </ul>
    );
  }
  if (question.type === 'description') return null;
  if (question.type === 'matching') return <ReviewMatching question={question} />;
  if (question.type === 'true-false') {
    return (
      <ul className="mt-3 flex flex-col gap-2">
        {[true, false].map((value) => (
          <ReviewOption
            key={String(value)}
            option={trueFalseText(value)}
            hasKey={withKey}
            isAnswer={withKey && question.correct === value}
            isChosen={response === value}
          />
        ))}
      </ul>
    );
  }
  if (question.type === 'essay') return <ReviewEssay question={question} />;
  // Short text and numbers: what was typed, judged by the points it earned when they are known.
  const typed = typeof response === 'string' && response !== '' ? response : null;
  const earned = earnedShown(question);
  const outcome = earned === undefined ? null : outcomeOf(earned, question.points);
  const tone =
    outcome === 'full'
      ? 'border-success bg-success-soft text-success'
      : outcome === null
        ? 'border-brand-700 text-fg'
        : 'border-danger bg-danger-soft text-danger-strong';
  return (
    <dl className="mt-3 flex flex-col gap-2">
      {typed !== null ? (
        <div
          className={`flex flex-wrap items-start gap-x-2 gap-y-1 rounded-lg border-2 px-3 py-2 ${tone}`}
          data-review={outcome === 'full' ? 'correct' : outcome === null ? 'chosen' : 'wrong'}
        >
          <dt className="text-xs font-semibold uppercase">{t`Your answer`}</dt>
          <dd className="min-w-0 flex-1 wrap-anywhere whitespace-pre-wrap">{typed}</dd>
        </div>
      ) : null}
      {withKey ? (
        <div
          className="flex flex-wrap items-start gap-x-2 gap-y-1 rounded-lg border-2 border-success bg-success-soft px-3 py-2 text-success"
          data-review="key"
        >
          <dt className="text-xs font-semibold uppercase">
            {question.type === 'numeric' ? t`Correct answer` : t`Accepted answers`}
          </dt>
          <dd className="min-w-0 flex-1 wrap-anywhere whitespace-pre-wrap">{keyText(question)}</dd>
        </div>
      ) : null}
    </dl>
  );
}

/** Each prompt with the student's match, and the right one beside it once the key shows. */
function ReviewMatching({ question }: { question: QuizQuestion }) {
  const { t } = useLingui();
  const matched = isMatchingAnswer(question.response) ? question.response : {};
  const textOf = (id: string | undefined) => question.choices?.find((choice) => choice._id === id)?.text;
  return (
    <ul className="mt-3 flex flex-col gap-2">
      {(question.prompts ?? []).map((prompt) => {
        const chosen = textOf(matched[prompt._id]);
        const withKey = prompt.match !== undefined;
        const isRight = withKey && matched[prompt._id] === prompt.match;
        const rightChoice = textOf(prompt.match) ?? '';
        const verdict = [
          chosen === undefined ? t`Your match: none` : t`Your match: ${chosen}`,
          withKey && !isRight ? t`correct match: ${rightChoice}` : null,
          isRight ? t({ comment: 'The student’s match is the right one', message: 'correct' }) : null,
        ]
          .filter(Boolean)
          .join(' · ');
        const tone = !withKey
          ? 'border-line text-fg'
          : isRight
            ? 'border-success bg-success-soft text-success'
            : 'border-danger bg-danger-soft text-danger-strong';
        return (
          <li
            key={prompt._id}
            className={`flex flex-wrap items-start gap-x-2 gap-y-1 rounded-lg border-2 px-3 py-2 ${tone}`}
            data-review={!withKey ? 'chosen' : isRight ? 'correct' : 'wrong'}
          >
            {!withKey ? (
              <span className="size-4 shrink-0" aria-hidden="true" />
            ) : isRight ? (
              <Check className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            ) : (
              <X className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            )}
            <span className="flex min-w-0 flex-1 flex-col gap-1">
              <QuestionText text={prompt.text} className="font-medium wrap-anywhere whitespace-pre-wrap" />
              <span className="wrap-anywhere">{verdict}</span>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

/** An essay in the review (decision 046): what was written, then awaiting marking or the teacher's comment. */
function ReviewEssay({ question }: { question: QuizQuestion }) {
  const { t } = useLingui();
  const written = typeof question.response === 'string' && question.response !== '' ? question.response : null;
  return (
    <dl className="mt-3 flex flex-col gap-2">
      {written !== null ? (
        <div
          className="flex flex-col gap-1 rounded-lg border-2 border-brand-700 px-3 py-2 text-fg"
          data-review="chosen"
        >
          <dt className="text-xs font-semibold uppercase">{t`Your answer`}</dt>
          <dd className="wrap-anywhere whitespace-pre-wrap">{written}</dd>
        </div>
      ) : null}
      {question.awaitingMarking ? (
        <div className="rounded-lg bg-warning-soft px-3 py-2 text-warning" data-review="awaiting">
          <dt className="sr-only">{t`Marking`}</dt>
          <dd>{t`Awaiting marking by your teacher`}</dd>
        </div>
      ) : null}
      {question.comment ? (
        <div className="flex flex-col gap-1 rounded-lg bg-surface-muted px-3 py-2 text-fg" data-review="comment">
          <dt className="text-xs font-semibold uppercase">{t`Teacher’s comment`}</dt>
          <dd className="wrap-anywhere whitespace-pre-wrap">{question.comment}</dd>
        </div>
      ) : null}
    </dl>
  );
}

function ReviewOption({
  option,
  image,
  hasKey,
  isAnswer,
  isChosen,
}: {
  option: string;
  image?: { url: string; alt: string } | undefined;
  /** Without the key a choice is neither right nor wrong yet: only "your answer". */
  hasKey: boolean;
  isAnswer: boolean;
  isChosen: boolean;
}) {
  const tone = isAnswer
    ? 'border-success bg-success-soft text-success'
    : isChosen && hasKey
      ? 'border-danger bg-danger-soft text-danger-strong'
      : isChosen
        ? 'border-brand-700 text-fg'
        : 'border-line text-fg';
  const { t } = useLingui();
  const label =
    isAnswer && isChosen
      ? t`correct answer, your answer`
      : isAnswer
        ? t`correct answer`
        : isChosen
          ? t`your answer`
          : '';
  return (
    <li
      className={`flex flex-wrap items-start gap-x-2 gap-y-1 rounded-lg border-2 px-3 py-2 ${tone}`}
      data-review={isAnswer ? 'correct' : isChosen && hasKey ? 'wrong' : isChosen ? 'chosen' : 'other'}
    >
      {isAnswer ? (
        <Check className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      ) : isChosen && hasKey ? (
        <X className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      ) : (
        <span className="size-4 shrink-0" aria-hidden="true" />
      )}
      <span className="flex min-w-0 flex-1 flex-col gap-2">
        <QuestionText text={option} className="wrap-anywhere whitespace-pre-wrap" />
        {image ? (
          <QuestionImage
            image={image}
            className="max-h-40 w-auto max-w-full self-start rounded-md border border-line bg-surface-muted object-contain"
          />
        ) : null}
      </span>
      {label ? (
        <span className="basis-full ps-6 text-xs font-semibold uppercase sm:basis-auto sm:ps-0">{label}</span>
      ) : null}
    </li>
  );
}
