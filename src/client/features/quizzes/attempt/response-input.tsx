import { plural } from '@lingui/core/macro';
import { Plural, useLingui } from '@lingui/react/macro';
import { QUESTION_LIMITS, isAnswered, isMatchingAnswer, parseNumber, type AnswerValue } from '#shared/question-types';
import type { QuizQuestion } from '#shared/quizzes';
import { formatNumber } from '../../../lib/format.ts';
import { QuestionImage, QuestionText } from '../question-text.tsx';
import { trueFalseText } from '../question-response.ts';

export type RunnerQuestion = Pick<
  QuizQuestion,
  '_id' | 'type' | 'question_text' | 'points' | 'image' | 'options' | 'scoring' | 'prompts' | 'choices'
>;

type ResponseInputProps = {
  question: RunnerQuestion;
  value: AnswerValue | null | undefined;
  /** `isTyping`: a text input's keystroke (saved after a longer pause than a click). */
  onAnswer(value: AnswerValue | null, isTyping: boolean): void;
  isSubmitting: boolean;
};

const choiceClasses = (isChosen: boolean, isSubmitting: boolean) =>
  `flex items-start gap-3 rounded-xl border-2 px-4 py-3 transition-colors focus-within:ring-2 focus-within:ring-brand-500 ${
    isChosen ? 'border-brand-600 bg-brand-50' : 'border-line'
  } ${isSubmitting ? 'cursor-not-allowed' : 'hover:border-brand-300 cursor-pointer'}`;

const textInputClasses =
  'w-full rounded-lg border border-line-strong bg-surface px-3 py-2.5 text-base text-fg shadow-sm outline-none focus:ring-2 focus:ring-brand-500';

/**
 * The answer control of one question, by its type (issue 20): radios, checkboxes, True/False, a
 * text, a number, or a native select per prompt of a matching question (keyboard and screen
 * readers know it; decision 045). A description takes no answer: nothing.
 */
export function ResponseInput({ question, value, onAnswer, isSubmitting }: ResponseInputProps) {
  const name = `question-${question._id}`;
  const maxLength = QUESTION_LIMITS.shortTextMax;
  const { t } = useLingui();
  switch (question.type) {
    case 'single':
    case 'multiple': {
      const isMultiple = question.type === 'multiple';
      const chosen = isMultiple ? (Array.isArray(value) ? value : []) : typeof value === 'string' ? [value] : [];
      return (
        <div className="flex flex-col gap-3">
          {isMultiple ? (
            <p className="text-sm font-medium text-muted" id={`${name}-hint`}>
              {t`Select all that apply`}
            </p>
          ) : null}
          {(question.options ?? []).map((option) => {
            const isChosen = chosen.includes(option._id);
            return (
              <label key={option._id} className={choiceClasses(isChosen, isSubmitting)}>
                <input
                  type={isMultiple ? 'checkbox' : 'radio'}
                  name={name}
                  value={option._id}
                  checked={isChosen}
                  onChange={() => {
                    if (!isMultiple) return onAnswer(option._id, false);
                    const next = isChosen ? chosen.filter((id) => id !== option._id) : [...chosen, option._id];
                    // In the options' order, so the saved list reads like the screen.
                    const ordered = (question.options ?? []).map((item) => item._id).filter((id) => next.includes(id));
                    onAnswer(ordered.length > 0 ? ordered : null, false);
                  }}
                  className="mt-1 size-4 accent-brand-600"
                />
                <span className="flex min-w-0 flex-col gap-2">
                  <QuestionText text={option.text} className="wrap-anywhere whitespace-pre-wrap text-fg" />
                  {option.image ? (
                    <QuestionImage
                      image={option.image}
                      className="max-h-40 w-auto max-w-full rounded-md border border-line bg-surface-muted object-contain"
                    />
                  ) : null}
                </span>
              </label>
            );
          })}
        </div>
      );
    }
    case 'true-false':
      return (
        <div className="flex flex-col gap-3 sm:flex-row">
          {[true, false].map((option) => (
            <label key={String(option)} className={`${choiceClasses(value === option, isSubmitting)} sm:flex-1`}>
              <input
                type="radio"
                name={name}
                value={String(option)}
                checked={value === option}
                onChange={() => onAnswer(option, false)}
                className="mt-1 size-4 accent-brand-600"
              />
              <span className="text-fg">{trueFalseText(option)}</span>
            </label>
          ))}
        </div>
      );
    case 'essay':
      return <EssayInput name={name} value={value} onAnswer={onAnswer} />;
    case 'short-text':
    case 'numeric': {
      const isNumeric = question.type === 'numeric';
      const text = typeof value === 'string' ? value : '';
      const isUnreadable = isNumeric && isAnswered(text) && parseNumber(text) === undefined;
      return (
        <div className="flex flex-col gap-1.5">
          <label htmlFor={`${name}-input`} className="text-sm font-medium text-fg">
            {isNumeric ? t`Your answer (a number)` : t`Your answer`}
          </label>
          <input
            id={`${name}-input`}
            type="text"
            inputMode={isNumeric ? 'decimal' : 'text'}
            autoComplete="off"
            spellCheck={isNumeric ? false : undefined}
            maxLength={QUESTION_LIMITS.shortTextMax}
            value={text}
            onChange={(event) => onAnswer(event.target.value === '' ? null : event.target.value, true)}
            aria-invalid={isUnreadable ? true : undefined}
            aria-describedby={`${name}-hint`}
            className={textInputClasses}
          />
          <p id={`${name}-hint`} className={isUnreadable ? 'text-sm text-danger' : 'text-xs text-muted'}>
            {isUnreadable ? (
              t`This is not a number: use digits, with “.” or “,” for decimals.`
            ) : isNumeric ? (
              t`Use “.” or “,” for decimals.`
            ) : (
              <Plural value={maxLength} one="At most # character." other="At most # characters." />
            )}
          </p>
        </div>
      );
    }
    case 'matching': {
      const matched = isMatchingAnswer(value) ? value : {};
      const choose = (promptId: string, choiceId: string) => {
        const next = { ...matched };
        if (choiceId === '') delete next[promptId];
        else next[promptId] = choiceId;
        onAnswer(Object.keys(next).length > 0 ? next : null, false);
      };
      return (
        <div className="flex flex-col gap-3">
          <p className="text-sm font-medium text-muted">{t`Choose the match of each item`}</p>
          {(question.prompts ?? []).map((prompt, index) => {
            const selectId = `${name}-prompt-${index}`;
            return (
              <div
                key={prompt._id}
                className="flex flex-col gap-2 rounded-xl border-2 border-line px-4 py-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <label htmlFor={selectId} className="min-w-0 text-fg sm:flex-1">
                  <QuestionText text={prompt.text} className="wrap-anywhere whitespace-pre-wrap" />
                </label>
                <select
                  id={selectId}
                  value={matched[prompt._id] ?? ''}
                  onChange={(event) => choose(prompt._id, event.target.value)}
                  className={`${textInputClasses} sm:w-64 sm:flex-none`}
                >
                  <option value="">
                    {t({ comment: 'The empty choice of a matching question’s list', message: 'Choose…' })}
                  </option>
                  {(question.choices ?? []).map((choice) => (
                    <option key={choice._id} value={choice._id}>
                      {choice.text}
                    </option>
                  ))}
                </select>
              </div>
            );
          })}
        </div>
      );
    }
    case 'description':
      return null;
  }
}

/**
 * An essay (decision 046): a long text, saved as it is written (as short answers are, after a
 * pause in the typing), marked later by the teacher. The count says how much room is left.
 */
function EssayInput({
  name,
  value,
  onAnswer,
}: {
  name: string;
  value: AnswerValue | null | undefined;
  onAnswer: ResponseInputProps['onAnswer'];
}) {
  const text = typeof value === 'string' ? value : '';
  const { t } = useLingui();
  const left = formatNumber(QUESTION_LIMITS.essayMax - text.length);
  const maxLength = QUESTION_LIMITS.essayMax;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={`${name}-input`} className="text-sm font-medium text-fg">
        {t`Your answer`}
      </label>
      <textarea
        id={`${name}-input`}
        rows={10}
        maxLength={QUESTION_LIMITS.essayMax}
        value={text}
        onChange={(event) => onAnswer(event.target.value === '' ? null : event.target.value, true)}
        aria-describedby={`${name}-hint`}
        className={`${textInputClasses} min-h-48 resize-y leading-relaxed`}
      />
      <p id={`${name}-hint`} className="text-xs text-muted">
        {t`Your teacher marks this answer. ${plural(maxLength, {
          one: `${left} of # character left.`,
          other: `${left} of # characters left.`,
        })}`}
      </p>
    </div>
  );
}
