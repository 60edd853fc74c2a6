import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { Archive } from 'lucide-react';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate } from 'react-router';
import { deleteQuiz, duplicateQuiz } from '#shared/contract/quiz-lifecycle';
import { duplicateQuizSchema } from '#shared/quiz-lifecycle';
import { QUIZ_LIMITS, type TeacherQuizDetail } from '#shared/quizzes';
import { useEndpointForm } from '../../../components/form/use-endpoint-form.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { ModalDialog } from '../../../components/ui/modal-dialog.tsx';
import { call } from '../../../lib/api.ts';
import { withLoading } from '../../../stores/app-store.ts';
import { ClassPicker } from '../../../components/class-picker.tsx';
import { quizQueries } from '../quiz-queries.ts';
import { teacherDetailQuery } from '../teacher-detail-query.ts';
import { toDeadlineIso } from './quiz-draft.ts';

const ALL_QUIZ_PATH = '/dashboard/teacher/all-quiz';

/** Duplicate: the copy's class, title and deadline (POST /api/quizzes/{id}/duplicate). */
export function DuplicateQuizDialog({ quiz, onClose }: { quiz: TeacherQuizDetail; onClose(): void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const quizTitle = quiz.title;
  const [values, setValues] = useState({ classId: '', title: quiz.title, deadline: '' });
  const setValue = (field: keyof typeof values, value: string) =>
    setValues((current) => ({ ...current, [field]: value }));
  const form = useEndpointForm({
    schema: duplicateQuizSchema,
    toBody: () => ({ classId: values.classId, title: values.title, deadline: toDeadlineIso(values.deadline) }),
    onSubmit: async (_copy, { body }) => {
      const { data } = await withLoading(() => call(duplicateQuiz, { params: { id: quiz._id }, body }));
      const { title } = data;
      toast.success(t`Quiz "${title}" created successfully`);
      void queryClient.invalidateQueries({ queryKey: quizQueries.all });
      await navigate(`/dashboard/teacher/quiz-analytics/${encodeURIComponent(data._id)}`);
    },
  });
  return (
    <ModalDialog title={t`Duplicate “${quizTitle}”`} onClose={onClose} initialFocus='[name="classId"]'>
      {(close) => (
        <form {...form.formProps} className="mt-4 flex flex-col gap-4">
          <p className="text-sm text-muted">
            <Trans>The copy has the same questions and no attempts.</Trans>
          </p>
          <ClassPicker
            value={values.classId}
            onChange={(classId) => setValue('classId', classId)}
            error={form.errors.classId}
          />
          <TextField
            label={t`Title`}
            name="title"
            value={values.title}
            onChange={(event) => setValue('title', event.target.value)}
            error={form.errors.title}
            maxLength={QUIZ_LIMITS.title}
            required
          />
          <TextField
            label={t`Deadline`}
            name="deadline"
            type="datetime-local"
            value={values.deadline}
            onChange={(event) => setValue('deadline', event.target.value)}
            error={form.errors.deadline}
            hint={t`Your local time.`}
            required
          />
          <div className="flex flex-wrap justify-end gap-3">
            <Button variant="ghost" onClick={close}>
              <Trans>Cancel</Trans>
            </Button>
            <Button type="submit" disabled={form.isSubmitting}>
              {form.isSubmitting ? t`Duplicating…` : t`Duplicate`}
            </Button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}

/**
 * Delete: a quiz nobody started goes at once; one with attempts asks a second question,
 * Archive (kept for analytics and averages) or Delete with results (averages recomputed).
 */
export function DeleteQuizDialog({ quiz, onClose }: { quiz: TeacherQuizDetail; onClose(): void }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isWorking, setIsWorking] = useState(false);
  const [confirmsResults, setConfirmsResults] = useState(false);
  const hasAttempts = quiz.attemptsStarted > 0;
  const { t } = useLingui();
  const quizTitle = quiz.title;

  const remove = async (withResults: boolean) => {
    setIsWorking(true);
    try {
      const { data } = await withLoading(() =>
        call(deleteQuiz, { params: { id: quiz._id }, query: withResults ? { withResults: 'true' } : {} }),
      );
      // Leaving the screen removes the dialog (its close would go back to the analytics).
      toast.success(data.outcome === 'archived' ? t`Quiz archived` : t`Quiz deleted`);
      await queryClient.invalidateQueries({ queryKey: quizQueries.all });
      await queryClient.invalidateQueries({ queryKey: teacherDetailQuery(quiz._id).queryKey });
      await navigate(ALL_QUIZ_PATH);
    } catch (error) {
      toast.error(error instanceof Error ? error.message : t`Something went wrong`);
    } finally {
      setIsWorking(false);
    }
  };

  const { attemptsStarted } = quiz;
  const attempts = plural(attemptsStarted, { one: '# attempt', other: '# attempts' });
  const description = !hasAttempts
    ? t`Nobody has started it: it is removed for good.`
    : confirmsResults
      ? t`This deletes the quiz and ${attempts} of your students for good, and their averages are recomputed without it.`
      : t`Students have taken it (${attempts}). Archive it: students who did not take it no longer see it; its results stay in analytics and averages. Or delete it with its results.`;

  return (
    <ModalDialog
      title={confirmsResults ? t`Delete the quiz and its results?` : t`Delete “${quizTitle}”?`}
      role="alertdialog"
      description={description}
      initialFocus="[data-safe-answer]"
      onClose={onClose}
    >
      {(close) => (
        <div className="mt-5 flex flex-wrap justify-end gap-2">
          <Button data-safe-answer variant="secondary" onClick={close} disabled={isWorking}>
            <Trans>Cancel</Trans>
          </Button>
          {!hasAttempts ? (
            <Button variant="danger" disabled={isWorking} onClick={() => void remove(false)}>
              <Trans>Delete</Trans>
            </Button>
          ) : confirmsResults ? (
            <Button variant="danger" disabled={isWorking} onClick={() => void remove(true)}>
              <Trans>Delete with results</Trans>
            </Button>
          ) : (
            <>
              <Button variant="secondary" disabled={isWorking} onClick={() => setConfirmsResults(true)}>
                <Trans>Delete with results…</Trans>
              </Button>
              {quiz.archivedAt ? null : (
                <Button variant="danger" disabled={isWorking} onClick={() => void remove(false)}>
                  <Archive className="size-4" aria-hidden="true" />
                  <Trans>Archive</Trans>
                </Button>
              )}
            </>
          )}
        </div>
      )}
    </ModalDialog>
  );
}

/** One of the two, for the analytics page's one lazy import. */
export function LifecycleDialog({
  kind,
  ...props
}: {
  kind: 'duplicate' | 'delete';
  quiz: TeacherQuizDetail;
  onClose(): void;
}) {
  return kind === 'duplicate' ? <DuplicateQuizDialog {...props} /> : <DeleteQuizDialog {...props} />;
}
