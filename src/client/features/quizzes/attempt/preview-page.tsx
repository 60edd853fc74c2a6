import { Trans, useLingui } from '@lingui/react/macro';
import { Eye } from 'lucide-react';
import { useMemo, useState } from 'react';
import {
  isChoiceQuestion,
  toStoredQuestions,
  shuffledAroundDescriptions,
  type AnswerValue,
  type StoredQuestion,
} from '#shared/question-types';
import { scoreAttempt, scoreQuestion, totalPointsOf } from '#shared/question-scoring';
import { DEFAULT_QUIZ_BACKGROUND, questionInputSchema, type AttemptEnding, type QuizQuestion } from '#shared/quizzes';
import { Button } from '../../../components/ui/button.tsx';
import { PageTitle } from '../../../components/ui/page-title.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { readQuizPreview, type QuizPreview } from '../preview-storage.ts';
import { QuizResult } from './quiz-result.tsx';
import { QuizRunner, type RunnerAnswers } from './quiz-runner.tsx';
import { useCountdown } from './use-countdown.ts';
import { isolate } from '../../../lib/format.ts';

/** SPEC §4: the timer's placeholder when the editor's maximum time is not a usable number. */
const PLACEHOLDER_SECONDS = 10;

const shuffled = <T,>(items: T[]) => {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(Math.random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
};

/**
 * The preview's questions as the server would store them (local ids, as toStoredQuestions
 * gives), options shuffled like a real attempt. A question the schema refuses (half written)
 * is left out: the editor shows what it lacks.
 */
export function previewQuestions(preview: QuizPreview): StoredQuestion[] {
  // Stored data may be old or edited by hand: read it defensively, never trust its shape.
  const stored: unknown = preview.quiz?.questions;
  const valid = (Array.isArray(stored) ? stored : []).flatMap((question: unknown) => {
    const parsed = questionInputSchema.safeParse(question);
    return parsed.success ? [parsed.data] : [];
  });
  let drawn = 0;
  const questions = toStoredQuestions(
    valid.map((question) => ({ ...question, _id: undefined })),
    (count) => Array.from({ length: count }, () => `preview-${drawn++}`),
  );
  return shuffledAroundDescriptions(
    questions.map((question) =>
      isChoiceQuestion(question)
        ? { ...question, options: shuffled(question.options) }
        : question.type === 'matching'
          ? { ...question, choices: shuffled(question.choices) }
          : question,
    ),
    shuffled,
  );
}

/** A stored question as the server presents it to its teacher: with the key, and the answer given. */
export function presentWithKey(question: StoredQuestion, response?: AnswerValue | null): QuizQuestion {
  const { image: _image, ...rest } = question;
  const presented: QuizQuestion = {
    ...rest,
    options: isChoiceQuestion(question)
      ? question.options.map(({ image: _optionImage, ...option }) => option)
      : undefined,
  };
  if (presented.options === undefined) delete presented.options;
  return response === undefined
    ? presented
    : { ...presented, response, earnedPoints: scoreQuestion(question, response) };
}

const PreviewBanner = () => (
  <p className="mx-auto mb-4 flex w-full max-w-3xl items-center gap-2 rounded-lg bg-warning-soft px-4 py-2 text-sm text-warning">
    <Eye className="size-4 shrink-0" aria-hidden="true" />
    <Trans>Preview: this runs like a student’s attempt, but nothing is saved.</Trans>
  </p>
);

/** /dashboard/teacher/preview/:quizTitle, opened in a new tab from the editor's stored preview. */
export function Component() {
  const [preview] = useState(readQuizPreview);
  const [run, setRun] = useState(0);
  const { t } = useLingui();
  const title = String(preview?.title ?? '').trim();
  const previewTitle = (title: string) => t`Preview: ${title}`;
  if (!preview) {
    return (
      <div className="mx-auto max-w-xl text-center">
        <PageTitle>{t`Nothing to preview`}</PageTitle>
        <PageHeader
          align="center"
          title={t`Nothing to preview`}
          description={t`Open the preview from the quiz editor with the “preview quiz” button.`}
        />
      </div>
    );
  }
  return (
    <>
      <PageTitle>{previewTitle(isolate(title))}</PageTitle>
      <PreviewRun key={run} preview={preview} onRestart={() => setRun(run + 1)} />
    </>
  );
}

function PreviewRun({ preview, onRestart }: { preview: QuizPreview; onRestart(): void }) {
  const questions = useMemo(() => previewQuestions(preview), [preview]);
  const presented = useMemo(() => questions.map((question) => presentWithKey(question)), [questions]);
  const [answers, setAnswers] = useState<RunnerAnswers>({});
  const [endedBy, setEndedBy] = useState<AttemptEnding | null>(null);
  const maxTime = Number(preview.maxTime);
  const seconds = Number.isFinite(maxTime) && maxTime > 0 ? Math.round(maxTime * 60) : PLACEHOLDER_SECONDS;
  const secondsLeft = useCountdown(seconds, () => setEndedBy((ended) => ended ?? 'time-up'));
  const title = String(preview.title ?? '').trim();
  const background = String(preview.quiz?.background ?? DEFAULT_QUIZ_BACKGROUND);
  const { t } = useLingui();

  if (questions.length === 0) {
    return (
      <div className="mx-auto max-w-xl text-center">
        <PreviewBanner />
        <PageHeader
          align="center"
          title={title}
          description={t`This quiz has no questions yet. Add one in the editor and preview again.`}
        />
      </div>
    );
  }
  if (endedBy) {
    const result = scoreAttempt(questions, answers);
    return (
      <>
        <PreviewBanner />
        <QuizResult
          title={title}
          score={result.score}
          totalPoints={totalPointsOf(questions)}
          accuracy={result.accuracy}
          endedBy={endedBy}
          isJustSubmitted
          questions={questions.map((question) => presentWithKey(question, answers[question._id] ?? null))}
          actions={<Button onClick={onRestart}>{t`Run the preview again`}</Button>}
        />
      </>
    );
  }
  return (
    <>
      <PreviewBanner />
      <QuizRunner
        title={title}
        background={background}
        questions={presented}
        answers={answers}
        onAnswer={(questionId, value) => setAnswers((current) => ({ ...current, [questionId]: value }))}
        secondsLeft={secondsLeft}
        onSubmit={() => setEndedBy('submitted')}
        isSubmitting={false}
      />
    </>
  );
}
