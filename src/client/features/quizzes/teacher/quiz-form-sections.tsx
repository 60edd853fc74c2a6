import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Plus } from 'lucide-react';
import type { ReactNode, RefObject } from 'react';
import type { TypedQuestionInput } from '#shared/question-types';
import { QUIZ_LIMITS } from '#shared/quizzes';
import { ClassPicker } from '../../../components/class-picker.tsx';
import { buttonVariants } from '../../../components/ui/button.tsx';
import { Card, cardVariants } from '../../../components/ui/card.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { cn } from '../../../lib/cn.ts';
import { formatNumber } from '../../../lib/format.ts';
import { ImportQuestionsButton } from './import-questions-button.tsx';
import { QuestionEditor } from './question-editor.tsx';
import { draftFromQuestion, draftTotalPoints, type QuizDraft } from './quiz-draft.ts';
import type { useQuizDraftEditing } from './use-quiz-draft.ts';

// The quiz editor's form, written once for the create and the edit screen (issue 30 point 11):
// each screen keeps its own draft, its endpoint and what differs around them.

type DraftEditing = ReturnType<typeof useQuizDraftEditing>;
type SectionProps = { draft: QuizDraft; errors: Record<string, string>; editing: DraftEditing };

/**
 * "Quiz details": title, class, deadline and time limit. `classField` says how the class is
 * chosen: the teacher's active classes (`current` the quiz's own, when editing), or, once
 * students have started the quiz, its class shown read-only.
 */
export function QuizDetailsSection({
  draft,
  errors,
  editing: { setField, detailField },
  classField,
  subject,
  minDeadline,
  children,
}: SectionProps & {
  classField: { current?: { _id: string; name: string } } | { locked: string };
  /** The teacher's subject, shown read-only (a new quiz takes it from the profile). */
  subject?: string;
  /** The deadline picker's minimum (a new quiz: now). */
  minDeadline?: string;
  /** Shown under the fields (a new quiz's background). */
  children?: ReactNode;
}) {
  const { t } = useLingui();
  const maxTimeMin = formatNumber(QUIZ_LIMITS.maxTimeMin);
  const maxTimeMax = formatNumber(QUIZ_LIMITS.maxTimeMax);
  return (
    <section aria-labelledby="quiz-details-heading" className={cn(cardVariants(), 'p-4 sm:p-6')}>
      <h2 id="quiz-details-heading" className="text-lg font-semibold text-fg">
        <Trans>Quiz details</Trans>
      </h2>
      <div className="mt-4 grid gap-4 sm:grid-cols-2">
        <TextField
          className="sm:col-span-2"
          label={t`Title`}
          {...detailField('title')}
          required
          autoComplete="off"
          maxLength={QUIZ_LIMITS.title}
        />
        {'locked' in classField ? (
          <TextField
            label={t`Class`}
            name="class"
            value={classField.locked}
            readOnly
            hint={t`Students have started it here.`}
          />
        ) : (
          <ClassPicker
            value={draft.classId}
            onChange={(classId) => setField('classId', classId)}
            error={errors['classId']}
            {...(classField.current ? { current: classField.current } : {})}
          />
        )}
        {subject === undefined ? null : (
          <TextField
            label={t`Subject`}
            name="subject"
            value={subject}
            readOnly
            hint={t`Your subject, from your profile.`}
          />
        )}
        <TextField
          label={t`Deadline`}
          {...detailField('deadline')}
          type="datetime-local"
          required
          min={minDeadline}
          hint={t`Your local time.`}
        />
        <TextField
          label={t`Maximum time (minutes)`}
          {...detailField('maxTime')}
          type="number"
          inputMode="numeric"
          required
          min={QUIZ_LIMITS.maxTimeMin}
          max={QUIZ_LIMITS.maxTimeMax}
          step={1}
          hint={t`${maxTimeMin} to ${maxTimeMax} minutes.`}
        />
      </div>
      {children}
    </section>
  );
}

/**
 * "Questions": each question's editor, Add question and the GIFT or Aiken import. `locked`
 * (students have started the quiz): wording and keys only, no question added or removed.
 */
export function QuizQuestionsSection({
  draft,
  errors,
  editing: { focusById, updateQuestion, addQuestion, appendQuestions, removeQuestion },
  addQuestionRef,
  locked = false,
}: SectionProps & { addQuestionRef: RefObject<HTMLButtonElement | null>; locked?: boolean }) {
  const questionsError = errors['quiz.questions'];
  const importQuestions = (questions: TypedQuestionInput[]) =>
    appendQuestions(questions.map((question) => draftFromQuestion(question)));
  const { t } = useLingui();
  const count = formatNumber(draft.questions.length);
  const questionsMax = formatNumber(QUIZ_LIMITS.questionsMax);
  const totalPoints = draftTotalPoints(draft.questions);
  const total = plural(totalPoints, { one: '# point', other: '# points' });
  return (
    <section aria-labelledby="quiz-questions-heading" className="flex flex-col gap-4">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="quiz-questions-heading" className="text-lg font-semibold text-fg">
          <Trans>Questions</Trans>
        </h2>
        <p className="text-sm text-muted">
          {t`${count} of at most ${questionsMax}`} · <span data-testid="total-points">{t`Total: ${total}`}</span>
        </p>
      </div>
      {draft.questions.length === 0 ? (
        <Card tone="empty" padding="sm" className="text-start">
          <Trans>No questions yet. Add at least one.</Trans>
        </Card>
      ) : null}
      {draft.questions.map((question, index) => (
        <QuestionEditor
          key={question.key}
          index={index}
          question={question}
          errors={errors}
          onChange={(updated) => updateQuestion(index, updated)}
          onRemove={() => removeQuestion(index)}
          focusLater={focusById}
          locked={locked}
        />
      ))}
      {locked ? null : (
        <div className="flex flex-col items-start gap-2">
          <button
            ref={addQuestionRef}
            type="button"
            className={buttonVariants({ variant: 'secondary' })}
            data-field="quiz.questions"
            disabled={draft.questions.length >= QUIZ_LIMITS.questionsMax}
            aria-describedby={questionsError ? 'quiz-questions-error' : undefined}
            onClick={addQuestion}
          >
            <Plus className="size-4" aria-hidden="true" />
            <Trans>Add question</Trans>
          </button>
          {/* GIFT and Aiken (issue 20 point 6), into an existing quiz too while nobody has started it. */}
          <ImportQuestionsButton onImport={importQuestions} />
          {questionsError ? (
            <p id="quiz-questions-error" className="text-sm text-danger">
              {questionsError}
            </p>
          ) : null}
        </div>
      )}
    </section>
  );
}
