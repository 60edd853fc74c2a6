import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Save } from 'lucide-react';
import { lazy, Suspense, useRef, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { editQuiz } from '#shared/contract/quiz-lifecycle';
import { editInputOf, editQuizSchema } from '#shared/quiz-lifecycle';
import { fileKeyOfQuizImageUrl } from '#shared/quiz-images';
import { type TeacherQuizDetail } from '#shared/quizzes';
import { useEndpointForm } from '../../../components/form/use-endpoint-form.ts';
import { BackLink } from '../../../components/ui/back-link.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { PageTitle } from '../../../components/ui/page-title.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { LoadingStatus } from '../../../components/ui/spinner.tsx';
import { LoadFailure } from '../../../components/ui/status-cards.tsx';
import { call } from '../../../lib/api.ts';
import { withLoading } from '../../../stores/app-store.ts';
import { useProfile } from '../../session/profile.ts';
import { QUIZZES_KEY } from '../quiz-keys.ts';
import { teacherDetailQuery } from '../teacher-detail-query.ts';
import { QuizReviewSection } from './quiz-review-section.tsx';
import { QuizDetailsSection, QuizQuestionsSection } from './quiz-form-sections.tsx';
import { useQuizDraftEditing } from './use-quiz-draft.ts';
import {
  draftFromQuestion,
  errorSlot,
  refineMessages,
  toLocalInputValue,
  toQuizPayload,
  type QuizDraft,
} from './quiz-draft.ts';

// Loads when the teacher asks for Duplicate or Delete (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION).
const LifecycleDialog = lazy(async () => ({ default: (await import('./quiz-lifecycle-dialogs.tsx')).LifecycleDialog }));

const analyticsPath = (quizId: string) => `/dashboard/teacher/quiz-analytics/${encodeURIComponent(quizId)}`;

/** The editor's draft of a stored quiz: each question and option keeps its id (decision 036). */
export function draftOfQuiz(quiz: TeacherQuizDetail): QuizDraft {
  // The presented images' signed addresses, by file key: the editor's thumbnails.
  const previews = new Map<string, string>();
  for (const question of quiz.quiz.questions) {
    for (const image of [question.image, ...(question.options ?? []).map((option) => option.image)]) {
      const fileKey = image && fileKeyOfQuizImageUrl(image.url);
      if (image && fileKey) previews.set(fileKey, image.url);
    }
  }
  return {
    title: quiz.title,
    classId: quiz.classId,
    deadline: toLocalInputValue(new Date(quiz.deadline)),
    maxTime: String(quiz.maxTime),
    background: quiz.quiz.background,
    reviewAnswers: quiz.reviewAnswers,
    reviewScore: quiz.reviewScore,
    questions: quiz.quiz.questions.map((question) =>
      draftFromQuestion(editInputOf(question), (fileKey) => previews.get(fileKey)),
    ),
  };
}

function EditQuizForm({ quiz }: { quiz: TeacherQuizDetail }) {
  const teacher = useProfile('teacher');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const [initial] = useState(() => draftOfQuiz(quiz));
  const [draft, setDraft] = useState<QuizDraft>(initial);
  // Students have started it: its questions and options stay as they are (decision 036).
  const frozen = quiz.attemptsStarted > 0;

  const form = useEndpointForm({
    schema: editQuizSchema,
    toBody: () => {
      const payload = {
        ...toQuizPayload(draft, { _id: teacher?._id ?? '', subject: quiz.subject }),
        version: quiz.version,
      };
      // The picker shows minutes: an untouched deadline is sent as stored (it may have passed).
      return draft.deadline === initial.deadline ? { ...payload, deadline: quiz.deadline } : payload;
    },
    fieldOf: errorSlot,
    refineErrors: (found) => refineMessages(found, draft),
    onSubmit: async (_quiz, { body }) => {
      const { data } = await withLoading(() => call(editQuiz, { params: { id: quiz._id }, body }));
      const { title } = data.quiz;
      const regraded = data.regrade?.attemptsChanged;
      toast.success(
        regraded === undefined
          ? t`Quiz "${title}" saved`
          : t`Quiz "${title}" saved: ${plural(regraded, { one: '# attempt regraded', other: '# attempts regraded' })}`,
      );
      await queryClient.invalidateQueries({ queryKey: QUIZZES_KEY });
      await queryClient.invalidateQueries({ queryKey: teacherDetailQuery(quiz._id).queryKey });
      await navigate(analyticsPath(quiz._id));
    },
  });
  const { errors } = form;
  const addQuestionRef = useRef<HTMLButtonElement>(null);
  const editing = useQuizDraftEditing(draft, setDraft, form, () => addQuestionRef.current);

  return (
    <form {...form.formProps} className="mt-6 flex flex-col gap-8">
      {frozen ? (
        <p role="note" className="rounded-lg border border-line bg-surface-muted p-4 text-sm text-fg">
          <Trans>
            Students have started this quiz, so its questions and options can no longer be added, removed or reordered,
            no type can change, and it stays with its class. You can fix wording, the deadline, the time limit and the
            review options. Changing the correct answers or the points regrades every submitted attempt and updates the
            students’ averages. To change more, duplicate the quiz.
          </Trans>
        </p>
      ) : null}
      <QuizDetailsSection
        draft={draft}
        errors={errors}
        editing={editing}
        classField={frozen ? { locked: quiz.class } : { current: { _id: quiz.classId, name: quiz.class } }}
      />

      <QuizReviewSection values={draft} errors={errors} onChange={editing.setField} />

      <QuizQuestionsSection
        draft={draft}
        errors={errors}
        editing={editing}
        addQuestionRef={addQuestionRef}
        locked={frozen}
      />

      <div className="flex flex-col-reverse gap-2 border-t border-line pt-6 sm:flex-row sm:justify-end">
        <Button type="submit" disabled={form.isSubmitting}>
          <Save className="size-4" aria-hidden="true" />
          <Trans>Save changes</Trans>
        </Button>
      </div>
    </form>
  );
}

/** /dashboard/teacher/edit-quiz/:quizID (decision 036): the create page's editor, prefilled. */
export function Component() {
  const { quizID = '' } = useParams();
  const quiz = useQuery(teacherDetailQuery(quizID));
  const navigate = useNavigate();
  const { t } = useLingui();
  const title = quiz.data?.title;
  // Duplicate and Delete of the analytics page open here, over the quiz (?dialog=).
  const dialog = useSearchParams()[0].get('dialog');
  const lifecycleDialog =
    quiz.data && (dialog === 'duplicate' || dialog === 'delete') ? (
      <Suspense
        fallback={
          <LoadingStatus className="mt-4">
            <Trans>Loading…</Trans>
          </LoadingStatus>
        }
      >
        <LifecycleDialog
          kind={dialog}
          quiz={quiz.data}
          onClose={() => void navigate(analyticsPath(quizID), { replace: true })}
        />
      </Suspense>
    ) : null;
  return (
    <div className="mx-auto w-full max-w-3xl">
      <BackLink to={analyticsPath(quizID)}>
        <Trans>Quiz analytics</Trans>
      </BackLink>
      <PageTitle>{t`Edit quiz`}</PageTitle>
      <PageHeader
        className="mt-3"
        title={
          title === undefined ? (
            t`Edit quiz`
          ) : (
            <Trans>
              Edit “<bdi>{title}</bdi>”
            </Trans>
          )
        }
      />
      {quiz.isPending ? (
        <LoadingStatus className="mt-4">
          <Trans>Loading the quiz…</Trans>
        </LoadingStatus>
      ) : quiz.isError ? (
        <LoadFailure className="mt-4" title={t`The quiz could not be loaded.`} message={quiz.error.message} />
      ) : lifecycleDialog ? (
        lifecycleDialog
      ) : quiz.data.archivedAt ? (
        <LoadFailure
          className="mt-4"
          title={t`This quiz is archived`}
          message={t`An archived quiz can no longer be changed. Duplicate it from its analytics to use it again.`}
        />
      ) : (
        <EditQuizForm quiz={quiz.data} />
      )}
    </div>
  );
}
