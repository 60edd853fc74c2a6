import { Trash2, X } from 'lucide-react';
import { lazy, Suspense } from 'react';
import {
  isWeighted,
  MULTIPLE_SCORING,
  QUESTION_LIMITS,
  QUESTION_TYPE_LABELS,
  QUESTION_TYPES,
  type MultipleScoring,
  type QuestionType,
} from '#shared/question-types';
import { Field, TextAreaField, TextField } from '../../../components/ui/field.tsx';
import { cardVariants } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/cn.ts';
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

const SCORING_LABELS: Record<MultipleScoring, string> = {
  'all-or-nothing': 'All or nothing',
  partial: 'Partial credit',
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
  const number = index + 1;
  const slot = `quiz.questions.${index}`;
  const error = (field: string) => errors[`${slot}.${field}`];
  const headingId = `${question.key}-heading`;
  const update = (changes: Partial<DraftQuestion>) => onChange({ ...question, ...changes });
  const isDescription = question.type === 'description';

  return (
    <section aria-labelledby={headingId} className={cn(cardVariants(), 'flex flex-col gap-4 p-4 sm:p-5')}>
      <div className="flex items-center justify-between gap-3">
        <h3 id={headingId} className="text-lg font-semibold text-fg">
          Question {number}
        </h3>
        {locked ? null : (
          <button
            type="button"
            onClick={onRemove}
            aria-label={`Remove question ${number}`}
            className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold text-danger hover:bg-danger-soft"
          >
            <Trash2 className="size-4" aria-hidden="true" />
            Remove
          </button>
        )}
      </div>

      <div className={cn('grid gap-4', !isDescription && 'sm:grid-cols-[2fr_1fr]')}>
        <Field
          label="Question type"
          id={`${question.key}-type`}
          error={error('type')}
          hint={locked ? 'Students have started this quiz: the type cannot change.' : undefined}
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
                  {QUESTION_TYPE_LABELS[type]}
                </option>
              ))}
            </select>
          )}
        />
        {/* A description earns nothing and counts in no total (decision 045): no points to give. */}
        {isDescription ? null : (
          <TextField
            label="Points"
            id={`${question.key}-points`}
            data-field={`${slot}.points`}
            required
            inputMode="decimal"
            autoComplete="off"
            value={question.points}
            onChange={(event) => update({ points: event.target.value })}
            error={error('points')}
            hint={`${QUESTION_LIMITS.pointsMin} to ${QUESTION_LIMITS.pointsMax}, in halves.`}
          />
        )}
      </div>

      <TextAreaField
        label={isDescription ? 'Text to show' : 'Question text'}
        hint={
          isDescription
            ? 'Shown to students before the questions after it; it takes no answer and earns no points.'
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
        label={`Image of question ${number}`}
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

function TypeFields(props: TypeFieldsProps) {
  const { question, number, slot, error, update } = props;
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
            The statement is
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
                {value ? 'True' : 'False'}
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
            legend="Accepted answers"
            error={message}
            hint={
              question.wildcards
                ? 'Capital letters and extra spaces do not count. * matches any text (“*colour*” matches “the colour red”); write \\* for a star.'
                : 'Capital letters and extra spaces do not count: “paris” matches “Paris”.'
            }
            footer={
              <AddRowButton
                label="Add accepted answer"
                locked={false}
                disabled={question.accepted.length >= QUESTION_LIMITS.acceptedMax}
                onClick={add}
              />
            }
          >
            {question.accepted.map((item, position) => (
              <li key={item.key} className="flex items-center gap-2">
                <RowInput
                  rowKey={item.key}
                  label={`Accepted answer ${position + 1} of question ${number}`}
                  field={position === 0 ? `${slot}.accepted` : undefined}
                  maxLength={QUESTION_LIMITS.shortTextMax}
                  value={item.text}
                  onChange={(text) =>
                    update({
                      accepted: question.accepted.map((row) => (row.key === item.key ? { ...row, text } : row)),
                    })
                  }
                  isInvalid={Boolean(message)}
                  onRemove={() => remove(position)}
                  canRemove={question.accepted.length > 1}
                />
              </li>
            ))}
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
            <label htmlFor={`${question.key}-wildcards`}>* matches any text</label>
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
        <Suspense fallback={<p className="text-sm text-muted">Loading the pairs…</p>}>
          <MatchingFields {...props} />
        </Suspense>
      );
    case 'description':
      return null;
    case 'numeric':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Correct value"
            id={`${question.key}-value`}
            data-field={`${slot}.value`}
            required
            inputMode="decimal"
            autoComplete="off"
            value={question.value}
            onChange={(event) => update({ value: event.target.value })}
            error={error('value')}
            hint="Use “.” or “,” for decimals."
          />
          <TextField
            label="Tolerance (±)"
            id={`${question.key}-tolerance`}
            data-field={`${slot}.tolerance`}
            required
            inputMode="decimal"
            autoComplete="off"
            value={question.tolerance}
            onChange={(event) => update({ tolerance: event.target.value })}
            error={error('tolerance')}
            hint="0: only the exact value is right."
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
          label="Marking guidance (optional)"
          id={`${question.key}-guidance`}
          data-field={`${slot}.guidance`}
          rows={3}
          maxLength={QUESTION_LIMITS.guidanceMax}
          value={question.guidance}
          onChange={(event) => update({ guidance: event.target.value })}
          error={error('guidance')}
          hint="Students write a long answer that you mark by hand. This guidance is shown to markers only, never to students."
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
      <p>Other answers imported from Moodle, with the share of the points each earns:</p>
      <ul className="list-disc ps-5">
        {answers.map((answer, index) => (
          <li key={index}>
            <span className="wrap-anywhere text-fg">{answer.label}</span>: {answer.weight} %
          </li>
        ))}
      </ul>
      <button type="button" onClick={onRemove} className="self-start rounded-lg px-1 py-2 underline">
        Remove these answers
      </button>
    </div>
  );
}

/** One row's text box of a list, labelled, with its remove button (none when the question is locked). */
function RowInput({
  rowKey,
  label,
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
          aria-label={`Remove ${label.charAt(0).toLowerCase()}${label.slice(1)}`}
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

  return (
    <>
      <RowList
        id={id}
        legend="Options"
        error={message}
        hint={`${QUESTION_LIMITS.optionsMin} to ${QUESTION_LIMITS.optionsMax} different options; empty ones are left out. ${
          isMultiple ? 'Tick every correct option.' : 'Mark the one correct option.'
        }`}
        footer={
          <AddRowButton
            label="Add option"
            locked={locked}
            disabled={question.options.length >= QUESTION_LIMITS.optionsMax}
            onClick={add}
          />
        }
      >
        {question.options.map((option, position) => (
          <li key={option.key} className="flex flex-col gap-1">
            <div className="flex items-center gap-2">
              <label className="flex min-h-11 shrink-0 items-center gap-1.5 rounded-lg px-1 text-sm text-muted focus-within:ring-2 focus-within:ring-brand-500">
                <input
                  type={isMultiple ? 'checkbox' : 'radio'}
                  name={`${question.key}-correct`}
                  checked={option.correct}
                  aria-label={`Option ${position + 1} of question ${number} is correct`}
                  onChange={(event) => setOption(option.key, { correct: event.target.checked })}
                  className="size-5 accent-brand-600"
                />
                <span aria-hidden="true" className="hidden sm:inline">
                  Correct
                </span>
              </label>
              <RowInput
                rowKey={option.key}
                label={`Option ${position + 1} of question ${number}`}
                placeholder={`Option ${position + 1}`}
                field={position === 0 ? `${slot}.options` : undefined}
                maxLength={QUESTION_LIMITS.text}
                value={option.text}
                onChange={(text) => setOption(option.key, { text })}
                isInvalid={Boolean(message)}
                onRemove={locked ? undefined : () => remove(position)}
                canRemove={question.options.length > 1}
              />
              {option.weight !== undefined ? (
                <span className="shrink-0 text-sm text-muted" title="Moodle weight of this option">
                  {option.weight} %
                </span>
              ) : null}
            </div>
            <QuizImageField
              compact
              label={`Image of option ${position + 1} of question ${number}`}
              value={option.image ?? null}
              onChange={(image) => setOptionImage(option.key, image)}
              altField={`${slot}.options.${position}.image.alt`}
              altError={error(`options.${position}.image.alt`) ?? error(`options.${position}.image.fileKey`)}
            />
          </li>
        ))}
      </RowList>
      {weighted ? (
        <p className="text-sm text-muted">
          Scored by the weights imported from Moodle: the option chosen earns its percent of the points
          {isMultiple ? ' (added up, between none and all of them)' : ', a negative one takes points away'}. Changing
          which options are correct removes the weights.
        </p>
      ) : isMultiple ? (
        <Field
          label="Scoring"
          id={`${question.key}-scoring`}
          error={error('scoring')}
          hint="Partial credit: each correct option ticked earns its share, each wrong one takes a share away."
          control={(attributes) => (
            <select
              {...attributes}
              data-field={`${slot}.scoring`}
              value={question.scoring}
              onChange={(event) => update({ scoring: event.target.value as MultipleScoring })}
            >
              {MULTIPLE_SCORING.map((scoring) => (
                <option key={scoring} value={scoring}>
                  {SCORING_LABELS[scoring]}
                </option>
              ))}
            </select>
          )}
        />
      ) : null}
    </>
  );
}
