import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Trash2, X } from 'lucide-react';
import { lazy, Suspense } from 'react';
import {
  isWeighted,
  MULTIPLE_SCORING,
  QUESTION_LIMITS,
  QUESTION_TYPES,
  type MultipleScoring,
  type QuestionType,
} from '#shared/question-types';
import { Field, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { cardVariants } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatNumber, formatPercent } from '../../../lib/format.ts';
import { QUESTION_TYPE_MESSAGES } from './question-type-labels.ts';
import { newAccepted, newOption, type DraftImage, type DraftOption, type DraftQuestion } from './quiz-draft.ts';
import { QuizImageField } from './quiz-image-field.tsx';
import {
  AddRowButton,
  FieldError,
  removeRowButton,
  rowActions,
  rowInputClasses,
  rowInputId,
  RowList,
  type TypeFieldsProps,
} from './editor-rows.tsx';

/** Loaded when a quiz has a matching question (decision 045): most quizzes never need it. */
const MatchingFields = lazy(async () => ({ default: (await import('./matching-fields.tsx')).MatchingFields }));

type QuestionEditorProps = {
  index: number;
  question: DraftQuestion;
  /** Field problems keyed by slot (quiz.questions.N.question_text, .points, .options, .correct…). */
  errors: Record<string, string>;
  onChange(question: DraftQuestion): void;
  onRemove(): void;
  /** Focus the element with this id once the next render is on screen. */
  focusLater(id: string): void;
  /**
   * The quiz has attempts (edit screens): texts, points and the key (accepted answers included)
   * may change, its structure may not: no adding or removing questions or options, no change of type.
   */
  locked?: boolean;
};

const SCORING_LABELS: Record<MultipleScoring, MessageDescriptor> = {
  'all-or-nothing': msg`All or nothing`,
  partial: msg`Partial credit`,
};

export const questionTextId = (question: DraftQuestion) => `${question.key}-text`;
/**
 * One question of the editor (issue 20): its type, points and text, then what the type needs
 * (options marked correct, True/False, accepted answers, a value and tolerance). Self-contained:
 * the create and edit screens give it a DraftQuestion and take the changed one back.
 */
export function QuestionEditor({
  index,
  question,
  errors,
  onChange,
  onRemove,
  focusLater,
  locked = false,
}: QuestionEditorProps) {
  // The question's number as the reader writes numbers (Arabic: its own digits).
  const number = formatNumber(index + 1);
  const slot = `quiz.questions.${index}`;
  const error = (field: string) => errors[`${slot}.${field}`];
  const headingId = `${question.key}-heading`;
  const update = (changes: Partial<DraftQuestion>) => onChange({ ...question, ...changes });
  const isDescription = question.type === 'description';
  const { t, i18n } = useLingui();
  const pointsMin = formatNumber(QUESTION_LIMITS.pointsMin);
  const pointsMax = formatNumber(QUESTION_LIMITS.pointsMax);

  return (
    <section aria-labelledby={headingId} className={cn(cardVariants(), 'flex flex-col gap-4 p-4 sm:p-5')}>
      <div className="flex items-center justify-between gap-3">
        <h3 id={headingId} className="text-lg font-semibold text-fg">
          <Trans>Question {number}</Trans>
        </h3>
        {locked ? null : (
          <button
            type="button"
            onClick={onRemove}
            aria-label={t`Remove question ${number}`}
            className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold text-danger hover:bg-danger-soft"
          >
            <Trash2 className="size-4" aria-hidden="true" />
            <Trans>Remove</Trans>
          </button>
        )}
      </div>

      <div className={cn('grid gap-4', !isDescription && 'sm:grid-cols-[2fr_1fr]')}>
        <Field
          label={t`Question type`}
          id={`${question.key}-type`}
          error={error('type')}
          hint={locked ? t`Students have started this quiz: the type cannot change.` : undefined}
          control={(attributes) => (
            <select
              {...attributes}
              data-field={`${slot}.type`}
              value={question.type}
              disabled={locked}
              onChange={(event) => update({ type: event.target.value as QuestionType })}
            >
              {QUESTION_TYPES.map((type) => (
                <option key={type} value={type}>
                  {i18n._(QUESTION_TYPE_MESSAGES[type])}
                </option>
              ))}
            </select>
          )}
        />
        {/* A description earns nothing and counts in no total (decision 045): no points to give. */}
        {isDescription ? null : (
          <TextField
            label={t`Points`}
            id={`${question.key}-points`}
            data-field={`${slot}.points`}
            required
            inputMode="decimal"
            autoComplete="off"
            value={question.points}
            onChange={(event) => update({ points: event.target.value })}
            error={error('points')}
            hint={t`${pointsMin} to ${pointsMax}, in halves.`}
          />
        )}
      </div>

      <TextAreaField
        label={isDescription ? t`Text to show` : t`Question text`}
        hint={
          isDescription
            ? t`Shown to students before the questions after it; it takes no answer and earns no points.`
            : undefined
        }
        id={questionTextId(question)}
        data-field={`${slot}.question_text`}
        required
        rows={2}
        maxLength={QUESTION_LIMITS.text}
        value={question.question_text}
        onChange={(event) => update({ question_text: event.target.value })}
        error={error('question_text')}
      />
      <QuizImageField
        label={t`Image of question ${number}`}
        removeLabel={t`Remove image of question ${number}`}
        value={question.image ?? null}
        onChange={(image) => onChange(image ? { ...question, image } : withoutImage(question))}
        altField={`${slot}.image.alt`}
        altError={error('image.alt') ?? error('image.fileKey')}
      />

      <TypeFields
        question={question}
        number={number}
        slot={slot}
        error={error}
        update={update}
        {...{ focusLater, locked }}
      />
    </section>
  );
}

const withoutImage = (question: DraftQuestion): DraftQuestion => {
  const { image: _image, ...rest } = question;
  return rest;
};

/** How a teacher writes a star that is only a star, when * matches any text (decision 049). */
const escapedStar = '\\*';

function TypeFields(props: TypeFieldsProps) {
  const { question, number, slot, error, update } = props;
  const { t } = useLingui();
  switch (question.type) {
    case 'single':
    case 'multiple':
      return <ChoiceFields {...props} />;
    case 'true-false': {
      const id = `${question.key}-truth`;
      const message = error('correct');
      return (
        <fieldset className="flex flex-col gap-2" aria-describedby={message ? `${id}-error` : undefined}>
          <legend className="mb-1.5 text-sm font-medium text-fg">
            <Trans>The statement is</Trans>
            <span aria-hidden="true" className="text-danger">
              {' '}
              *
            </span>
          </legend>
          <div className="flex flex-wrap gap-3">
            {[true, false].map((value) => (
              <label
                key={String(value)}
                className="flex min-h-11 items-center gap-2 rounded-lg border border-line-strong px-4 py-2 focus-within:ring-2 focus-within:ring-brand-500"
              >
                <input
                  type="radio"
                  name={id}
                  data-field={value ? `${slot}.correct` : undefined}
                  checked={question.correct === value}
                  onChange={() => update({ correct: value })}
                  className="size-4 accent-brand-600"
                />
                {value ? t`True` : t`False`}
              </label>
            ))}
          </div>
          <FieldError id={`${id}-error`} message={message} />
        </fieldset>
      );
    }
    case 'short-text': {
      const id = `${question.key}-accepted`;
      const message = error('accepted');
      const { add, remove } = rowActions('accepted', props, newAccepted);
      // Accepted answers are the key, not the structure (decision 036): a locked question still
      // takes a new one, and changing them regrades.
      return (
        <>
          <RowList
            id={id}
            legend={t`Accepted answers`}
            error={message}
            hint={
              question.wildcards
                ? t`Capital letters and extra spaces do not count. * matches any text (“*colour*” matches “the colour red”); write ${escapedStar} for a star.`
                : t`Capital letters and extra spaces do not count: “paris” matches “Paris”.`
            }
            footer={
              <AddRowButton
                label={t`Add accepted answer`}
                locked={false}
                disabled={question.accepted.length >= QUESTION_LIMITS.acceptedMax}
                onClick={add}
              />
            }
          >
            {question.accepted.map((item, index) => {
              const position = formatNumber(index + 1);
              return (
                <li key={item.key} className="flex items-center gap-2">
                  <RowInput
                    rowKey={item.key}
                    label={t`Accepted answer ${position} of question ${number}`}
                    removeLabel={t`Remove accepted answer ${position} of question ${number}`}
                    field={index === 0 ? `${slot}.accepted` : undefined}
                    maxLength={QUESTION_LIMITS.shortTextMax}
                    value={item.text}
                    onChange={(text) =>
                      update({
                        accepted: question.accepted.map((row) => (row.key === item.key ? { ...row, text } : row)),
                      })
                    }
                    isInvalid={Boolean(message)}
                    onRemove={() => remove(index)}
                    canRemove={question.accepted.length > 1}
                  />
                </li>
              );
            })}
          </RowList>
          {/* Moodle's wildcards (decision 049): off, a * in an answer is a star like any other character. */}
          <div className="flex min-h-11 items-center gap-2 text-sm">
            <input
              id={`${question.key}-wildcards`}
              type="checkbox"
              checked={question.wildcards}
              onChange={(event) => update({ wildcards: event.target.checked })}
              className="size-4 accent-brand-600"
            />
            <label htmlFor={`${question.key}-wildcards`}>
              <Trans>* matches any text</Trans>
            </label>
          </div>
          <PartialAnswers
            answers={question.partialAccepted?.map((answer) => ({ label: answer.text, weight: answer.weight }))}
            onRemove={() => update({ partialAccepted: [] })}
          />
        </>
      );
    }
    case 'matching':
      return (
        <Suspense
          fallback={
            <p className="text-sm text-muted">
              <Trans>Loading the pairs…</Trans>
            </p>
          }
        >
          <MatchingFields {...props} />
        </Suspense>
      );
    case 'description':
      return null;
    case 'numeric':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label={t`Correct value`}
            id={`${question.key}-value`}
            data-field={`${slot}.value`}
            required
            inputMode="decimal"
            autoComplete="off"
            value={question.value}
            onChange={(event) => update({ value: event.target.value })}
            error={error('value')}
            hint={t`Use “.” or “,” for decimals.`}
          />
          <TextField
            label={t`Tolerance (±)`}
            id={`${question.key}-tolerance`}
            data-field={`${slot}.tolerance`}
            required
            inputMode="decimal"
            autoComplete="off"
            value={question.tolerance}
            onChange={(event) => update({ tolerance: event.target.value })}
            error={error('tolerance')}
            hint={t`0: only the exact value is right.`}
          />
          <PartialAnswers
            answers={question.partialNumbers?.map((answer) => ({
              label: `${answer.value} ± ${answer.tolerance}`,
              weight: answer.weight,
            }))}
            onRemove={() => update({ partialNumbers: [] })}
          />
        </div>
      );
    // Marked by hand (decision 046): no key, only guidance for whoever marks it.
    case 'essay':
      return (
        <TextAreaField
          label={t`Marking guidance (optional)`}
          id={`${question.key}-guidance`}
          data-field={`${slot}.guidance`}
          rows={3}
          maxLength={QUESTION_LIMITS.guidanceMax}
          value={question.guidance}
          onChange={(event) => update({ guidance: event.target.value })}
          error={error('guidance')}
          hint={t`Students write a long answer that you mark by hand. This guidance is shown to markers only, never to students.`}
        />
      );
  }
}

/**
 * Answers worth part of the points, as imported from Moodle (decision 043), and a number
 * question's further answers worth all of them (100 %, each with its own tolerance): listed
 * with their percent, kept on save, and removable at once (the editor has no boxes to write
 * new ones).
 */
function PartialAnswers({
  answers,
  onRemove,
}: {
  answers: { label: string; weight: number }[] | undefined;
  onRemove: () => void;
}) {
  if (!answers?.length) return null;
  return (
    <div className="flex flex-col gap-1 text-sm text-muted sm:col-span-2">
      <p>
        <Trans>Other answers imported from Moodle, with the share of the points each earns:</Trans>
      </p>
      <ul className="list-disc ps-5">
        {answers.map((answer, index) => (
          <li key={index}>
            <bdi className="wrap-anywhere text-fg">{answer.label}</bdi>: {formatPercent(answer.weight)}
          </li>
        ))}
      </ul>
      <button type="button" onClick={onRemove} className="self-start rounded-lg px-1 py-2 underline">
        <Trans>Remove these answers</Trans>
      </button>
    </div>
  );
}

/** One row's text box of a list, labelled, with its remove button (none when the question is locked). */
function RowInput({
  rowKey,
  label,
  removeLabel,
  placeholder,
  field,
  maxLength,
  value,
  onChange,
  isInvalid,
  onRemove,
  canRemove,
}: {
  rowKey: string;
  label: string;
  /** The remove button's name, e.g. "Remove option 2 of question 1". */
  removeLabel: string;
  placeholder?: string;
  /** data-field of the list's first row: where the form layer moves focus to the list's problem. */
  field: string | undefined;
  maxLength: number;
  value: string;
  onChange(text: string): void;
  isInvalid: boolean;
  onRemove: (() => void) | undefined;
  canRemove: boolean;
}) {
  return (
    <>
      <label htmlFor={rowInputId(rowKey)} className="sr-only">
        {label}
      </label>
      <input
        id={rowInputId(rowKey)}
        data-field={field}
        type="text"
        autoComplete="off"
        placeholder={placeholder}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={isInvalid ? true : undefined}
        className={rowInputClasses(isInvalid)}
      />
      {onRemove ? (
        <button
          type="button"
          onClick={onRemove}
          disabled={!canRemove}
          aria-label={removeLabel}
          className={removeRowButton}
        >
          <X className="size-5" aria-hidden="true" />
        </button>
      ) : null}
    </>
  );
}

/** Options of a single or multiple choice question, each with its "correct" radio or checkbox. */
function ChoiceFields({ question, number, slot, error, update, focusLater, locked }: TypeFieldsProps) {
  const isMultiple = question.type === 'multiple';
  const message = error('options');
  const id = `${question.key}-options`;
  const weighted = isWeighted(question);
  // Moodle's weights (decision 043) hold until the teacher changes which options are correct:
  // then the question scores by our rules, and the percent shown beside each option goes.
  const withoutWeight = ({ weight: _weight, ...option }: DraftOption): DraftOption => option;
  const setOption = (key: string, changes: { text?: string; correct?: boolean }) =>
    update({
      options: question.options
        .map((option) => (changes.correct === undefined ? option : withoutWeight(option)))
        .map((option) =>
          option.key === key
            ? { ...option, ...changes }
            : // One correct option in a single choice question: marking one unmarks the others.
              changes.correct && !isMultiple
              ? { ...option, correct: false }
              : option,
        ),
    });
  const setOptionImage = (key: string, image: DraftImage | null) =>
    update({
      options: question.options.map((option) => {
        if (option.key !== key) return option;
        const { image: _image, ...rest } = option;
        return image ? { ...rest, image } : rest;
      }),
    });
  const { add, remove } = rowActions('options', { question, update, focusLater }, newOption);
  const { t, i18n } = useLingui();
  const optionsMin = formatNumber(QUESTION_LIMITS.optionsMin);
  const optionsMax = formatNumber(QUESTION_LIMITS.optionsMax);

  return (
    <>
      <RowList
        id={id}
        legend={t`Options`}
        error={message}
        hint={
          isMultiple
            ? t`${optionsMin} to ${optionsMax} different options; empty ones are left out. Tick every correct option.`
            : t`${optionsMin} to ${optionsMax} different options; empty ones are left out. Mark the one correct option.`
        }
        footer={
          <AddRowButton
            label={t`Add option`}
            locked={locked}
            disabled={question.options.length >= QUESTION_LIMITS.optionsMax}
            onClick={add}
          />
        }
      >
        {question.options.map((option, index) => {
          const position = formatNumber(index + 1);
          return (
            <li key={option.key} className="flex flex-col gap-1">
              <div className="flex items-center gap-2">
                <label className="flex min-h-11 shrink-0 items-center gap-1.5 rounded-lg px-1 text-sm text-muted focus-within:ring-2 focus-within:ring-brand-500">
                  <input
                    type={isMultiple ? 'checkbox' : 'radio'}
                    name={`${question.key}-correct`}
                    checked={option.correct}
                    aria-label={t`Option ${position} of question ${number} is correct`}
                    onChange={(event) => setOption(option.key, { correct: event.target.checked })}
                    className="size-5 accent-brand-600"
                  />
                  <span aria-hidden="true" className="hidden sm:inline">
                    {t({ comment: 'A checkbox beside an option: this option is a right answer', message: 'Correct' })}
                  </span>
                </label>
                <RowInput
                  rowKey={option.key}
                  label={t`Option ${position} of question ${number}`}
                  removeLabel={t`Remove option ${position} of question ${number}`}
                  placeholder={t`Option ${position}`}
                  field={index === 0 ? `${slot}.options` : undefined}
                  maxLength={QUESTION_LIMITS.text}
                  value={option.text}
                  onChange={(text) => setOption(option.key, { text })}
                  isInvalid={Boolean(message)}
                  onRemove={locked ? undefined : () => remove(index)}
                  canRemove={question.options.length > 1}
                />
                {option.weight !== undefined ? (
                  <span className="shrink-0 text-sm text-muted" title={t`Moodle weight of this option`}>
                    {formatPercent(option.weight)}
                  </span>
                ) : null}
              </div>
              <QuizImageField
                compact
                label={t`Image of option ${position} of question ${number}`}
                removeLabel={t`Remove image of option ${position} of question ${number}`}
                addLabel={t`Add image to option ${position} of question ${number}`}
                value={option.image ?? null}
                onChange={(image) => setOptionImage(option.key, image)}
                altField={`${slot}.options.${index}.image.alt`}
                altError={error(`options.${index}.image.alt`) ?? error(`options.${index}.image.fileKey`)}
              />
            </li>
          );
        })}
      </RowList>
      {weighted ? (
        <p className="text-sm text-muted">
          {isMultiple ? (
            <Trans>
              Scored by the weights imported from Moodle: the option chosen earns its percent of the points (added up,
              between none and all of them). Changing which options are correct removes the weights.
            </Trans>
          ) : (
            <Trans>
              Scored by the weights imported from Moodle: the option chosen earns its percent of the points, a negative
              one takes points away. Changing which options are correct removes the weights.
            </Trans>
          )}
        </p>
      ) : isMultiple ? (
        <Field
          label={t`Scoring`}
          id={`${question.key}-scoring`}
          error={error('scoring')}
          hint={t`Partial credit: each correct option ticked earns its share, each wrong one takes a share away.`}
          control={(attributes) => (
            <select
              {...attributes}
              data-field={`${slot}.scoring`}
              value={question.scoring}
              onChange={(event) => update({ scoring: event.target.value as MultipleScoring })}
            >
              {MULTIPLE_SCORING.map((scoring) => (
                <option key={scoring} value={scoring}>
                  {i18n._(SCORING_LABELS[scoring])}
                </option>
              ))}
            </select>
          )}
        />
      ) : null}
    </>
  );
}
