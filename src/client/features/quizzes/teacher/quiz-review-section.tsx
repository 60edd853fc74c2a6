import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import type { ReviewAnswers, ReviewScore } from '#shared/quizzes';
import { cardVariants } from '../../../components/ui/card.tsx';
import { Field } from '../../../components/ui/field.tsx';
import { cn } from '../../../lib/cn.ts';

const REVIEW_ANSWER_CHOICES: { value: ReviewAnswers; label: MessageDescriptor }[] = [
  { value: 'after-deadline', label: msg`After the deadline` },
  { value: 'after-submit', label: msg`Right after submitting` },
  { value: 'never', label: msg`Never` },
];
const REVIEW_SCORE_CHOICES: { value: ReviewScore; label: MessageDescriptor }[] = [
  { value: 'after-submit', label: msg`Right after submitting` },
  { value: 'after-deadline', label: msg`After the deadline` },
];

/** "After submitting": the quiz's review options (decision 032), in the create and the edit page. */
export function QuizReviewSection({
  values,
  errors,
  onChange,
}: {
  values: { reviewAnswers: ReviewAnswers; reviewScore: ReviewScore };
  errors: Record<string, string>;
  onChange(field: 'reviewAnswers' | 'reviewScore', value: ReviewAnswers | ReviewScore): void;
}) {
  const { t, i18n } = useLingui();
  return (
    <section aria-labelledby="quiz-review-heading" className={cn(cardVariants(), 'p-4 sm:p-6')}>
      <h2 id="quiz-review-heading" className="text-lg font-semibold text-fg">
        <Trans>After submitting</Trans>
      </h2>
      <p className="mt-1 text-sm text-muted">
        <Trans>
          What a student sees once they have submitted. “After the deadline” waits until every attempt started before
          the deadline has ended, so nobody still answering can be told.
        </Trans>
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <Field
          label={t`Show the correct answers`}
          id="quiz-review-answers"
          hint={t`Never: students see only their own choices.`}
          error={errors.reviewAnswers}
          control={(attributes) => (
            <select
              {...attributes}
              name="reviewAnswers"
              data-field="reviewAnswers"
              value={values.reviewAnswers}
              onChange={(event) => onChange('reviewAnswers', event.target.value as ReviewAnswers)}
            >
              {REVIEW_ANSWER_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {i18n._(choice.label)}
                </option>
              ))}
            </select>
          )}
        />
        <Field
          label={t`Show the score`}
          id="quiz-review-score"
          hint={t`A hidden score also stays out of averages and the leaderboard until then.`}
          error={errors.reviewScore}
          control={(attributes) => (
            <select
              {...attributes}
              name="reviewScore"
              data-field="reviewScore"
              value={values.reviewScore}
              onChange={(event) => onChange('reviewScore', event.target.value as ReviewScore)}
            >
              {REVIEW_SCORE_CHOICES.map((choice) => (
                <option key={choice.value} value={choice.value}>
                  {i18n._(choice.label)}
                </option>
              ))}
            </select>
          )}
        />
      </div>
    </section>
  );
}
