import { Plus, Trash2, X } from 'lucide-react';
import { QUIZ_LIMITS } from '#shared/quizzes';
import { newOption, type DraftQuestion } from './quiz-draft.ts';
import { cardVariants } from '../../../components/ui/card.tsx';
import { cn } from '../../../lib/cn.ts';

type QuestionEditorProps = {
  index: number;
  question: DraftQuestion;
  /** Field problems keyed by slot (quiz.questions.N.question_text, .options, .answer). */
  errors: Record<string, string>;
  onChange(question: DraftQuestion): void;
  onRemove(): void;
  /** Focus the element with this id once the next render is on screen. */
  focusLater(id: string): void;
  /** Students have started the quiz: no option or question is added or removed (decision 036). */
  structureLocked?: boolean;
};

const inputClasses = (hasError: boolean) =>
  `w-full rounded-lg border bg-surface px-3 py-2.5 text-base text-fg shadow-sm outline-none focus:ring-2 focus:ring-brand-500 ${
    hasError ? 'border-danger' : 'border-line-strong'
  }`;

function RequiredMark() {
  return (
    <span aria-hidden="true" className="text-danger">
      {' '}
      *
    </span>
  );
}

function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className="text-sm text-danger">
      {message}
    </p>
  );
}

export const questionTextId = (question: DraftQuestion) => `${question.key}-text`;
const optionInputId = (key: string) => `${key}-option`;

/**
 * One question of the editor (SPEC §2 quiz editor, §3 Question): its text, a
 * list of options that grows and shrinks (at least one row), and the correct
 * answer chosen from the options that are filled in.
 */
export function QuestionEditor({
  index,
  question,
  errors,
  onChange,
  onRemove,
  focusLater,
  structureLocked = false,
}: QuestionEditorProps) {
  const number = index + 1;
  const slot = `quiz.questions.${index}`;
  const textError = errors[`${slot}.question_text`];
  const optionsError = errors[`${slot}.options`];
  const answerError = errors[`${slot}.answer`];
  const headingId = `${question.key}-heading`;
  const answerId = `${question.key}-answer`;
  const filledOptions = question.options.filter((option) => option.text.trim() !== '');
  const answerValue = filledOptions.some((option) => option.key === question.answerKey) ? question.answerKey : '';
  const canAddOption = !structureLocked && question.options.length < QUIZ_LIMITS.optionsMax;

  const updateOption = (key: string, text: string) =>
    onChange({
      ...question,
      options: question.options.map((option) => (option.key === key ? { ...option, text } : option)),
    });

  const addOption = () => {
    const option = newOption();
    onChange({ ...question, options: [...question.options, option] });
    focusLater(optionInputId(option.key));
  };

  const removeOption = (position: number) => {
    const removed = question.options[position];
    if (!removed || question.options.length <= 1) return;
    const options = question.options.filter((option) => option.key !== removed.key);
    onChange({ ...question, options, answerKey: question.answerKey === removed.key ? '' : question.answerKey });
    const neighbour = options[Math.max(0, position - 1)];
    if (neighbour) focusLater(optionInputId(neighbour.key));
  };

  return (
    <section aria-labelledby={headingId} className={cn(cardVariants(), 'flex flex-col gap-4 p-4 sm:p-5')}>
      <div className="flex items-center justify-between gap-3">
        <h3 id={headingId} className="text-lg font-semibold text-fg">
          Question {number}
        </h3>
        <button
          type="button"
          onClick={onRemove}
          disabled={structureLocked}
          aria-label={`Remove question ${number}`}
          className="inline-flex items-center gap-1.5 rounded-lg px-3 py-2 text-sm font-semibold text-danger hover:bg-danger-soft disabled:cursor-not-allowed disabled:text-muted/70 disabled:hover:bg-transparent"
        >
          <Trash2 className="size-4" aria-hidden="true" />
          Remove
        </button>
      </div>

      <div className="flex flex-col gap-1.5">
        <label htmlFor={questionTextId(question)} className="text-sm font-medium text-fg">
          Question text
          <RequiredMark />
        </label>
        <textarea
          id={questionTextId(question)}
          data-field={`${slot}.question_text`}
          required
          rows={2}
          maxLength={QUIZ_LIMITS.text}
          value={question.question_text}
          onChange={(event) => onChange({ ...question, question_text: event.target.value })}
          aria-invalid={textError ? true : undefined}
          aria-describedby={textError ? `${questionTextId(question)}-error` : undefined}
          className={inputClasses(Boolean(textError))}
        />
        <FieldError id={`${questionTextId(question)}-error`} message={textError} />
      </div>

      <fieldset
        className="flex flex-col gap-2"
        aria-describedby={optionsError ? `${question.key}-options-error` : `${question.key}-options-hint`}
      >
        <legend className="mb-1.5 text-sm font-medium text-fg">
          Options
          <RequiredMark />
        </legend>
        <ol className="flex flex-col gap-2">
          {question.options.map((option, position) => (
            <li key={option.key} className="flex items-center gap-2">
              <label
                htmlFor={optionInputId(option.key)}
                className="w-6 shrink-0 text-right text-sm font-medium text-muted sm:w-16 sm:text-left sm:font-normal"
              >
                <span className="sr-only sm:not-sr-only">Option </span>
                {position + 1}
              </label>
              <input
                id={optionInputId(option.key)}
                data-field={position === 0 ? `${slot}.options` : undefined}
                type="text"
                maxLength={QUIZ_LIMITS.text}
                value={option.text}
                onChange={(event) => updateOption(option.key, event.target.value)}
                aria-invalid={optionsError ? true : undefined}
                className={inputClasses(Boolean(optionsError))}
              />
              <button
                type="button"
                onClick={() => removeOption(position)}
                disabled={structureLocked || question.options.length <= 1}
                aria-label={`Remove option ${position + 1} of question ${number}`}
                className="inline-flex size-10 shrink-0 items-center justify-center rounded-lg text-muted hover:bg-surface-muted disabled:cursor-not-allowed disabled:text-muted/50 disabled:hover:bg-transparent"
              >
                <X className="size-5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ol>
        <div className="flex flex-wrap items-center gap-3">
          <button
            type="button"
            onClick={addOption}
            disabled={!canAddOption}
            className="inline-flex items-center gap-1.5 rounded-lg border border-line-strong bg-surface px-3 py-2 text-sm font-semibold text-fg hover:bg-surface-sunken disabled:cursor-not-allowed disabled:text-muted/70"
          >
            <Plus className="size-4" aria-hidden="true" />
            Add option
          </button>
          {optionsError ? null : (
            <p id={`${question.key}-options-hint`} className="text-xs text-muted">
              {QUIZ_LIMITS.optionsMin} to {QUIZ_LIMITS.optionsMax} different options; empty ones are left out.
            </p>
          )}
        </div>
        <FieldError id={`${question.key}-options-error`} message={optionsError} />
      </fieldset>

      <div className="flex flex-col gap-1.5">
        <label htmlFor={answerId} className="text-sm font-medium text-fg">
          Correct answer
          <RequiredMark />
        </label>
        <select
          id={answerId}
          data-field={`${slot}.answer`}
          required
          value={answerValue}
          onChange={(event) => onChange({ ...question, answerKey: event.target.value })}
          aria-invalid={answerError ? true : undefined}
          aria-describedby={answerError ? `${answerId}-error` : undefined}
          className={inputClasses(Boolean(answerError))}
        >
          <option value="">
            {filledOptions.length === 0 ? 'Fill in the options first' : 'Choose the correct answer'}
          </option>
          {filledOptions.map((option) => (
            <option key={option.key} value={option.key}>
              {option.text.trim()}
            </option>
          ))}
        </select>
        <FieldError id={`${answerId}-error`} message={answerError} />
      </div>
    </section>
  );
}
