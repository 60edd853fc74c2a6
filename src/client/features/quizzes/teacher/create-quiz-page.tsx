import { Trans, useLingui } from '@lingui/react/macro';
import { useQueryClient } from '@tanstack/react-query';
import { Eye, ImageIcon, Save } from 'lucide-react';
import { lazy, Suspense, useEffect, useRef, useState, type RefObject } from 'react';
import toast from 'react-hot-toast/headless';
import { useBlocker, useNavigate, type Blocker } from 'react-router';
import { DEFAULT_QUIZ_SUBJECT } from '#shared/constants';
import { newQuizSchema } from '#shared/quizzes';
import { Button, buttonVariants } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { addQuiz } from '#shared/contract/quizzes';
import { call } from '../../../lib/api.ts';
import { useEndpointForm } from '../../../components/form/use-endpoint-form.ts';
import { withLoading } from '../../../stores/app-store.ts';
import { useProfile } from '../../session/profile.ts';
import { storeQuizPreview } from '../preview-storage.ts';
import { QUIZZES_KEY } from '../quiz-keys.ts';
import { QuizReviewSection } from './quiz-review-section.tsx';
import { QuizDetailsSection, QuizQuestionsSection } from './quiz-form-sections.tsx';
import { describeBackground } from './quiz-backgrounds.ts';
import { useQuizDraftEditing } from './use-quiz-draft.ts';
import { clearStoredDraft, hasUnsavedWork, readStoredDraft, storeDraft } from './quiz-draft-storage.ts';
import {
  emptyDraft,
  errorSlot,
  refineMessages,
  toLocalInputValue,
  toQuizPayload,
  type QuizDraft,
} from './quiz-draft.ts';
import { PageTitle } from '../../../components/ui/page-title.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';

const ALL_QUIZ_PATH = '/dashboard/teacher/all-quiz';

// Loads when the teacher asks to choose a background (scripts/check-bundle.mjs, LOADED_ON_USER_ACTION):
// the question types' editor took the page past its budget (issue 20, decision 036).
const BackgroundDialog = lazy(async () => ({ default: (await import('./background-dialog.tsx')).BackgroundDialog }));

/**
 * While the editor holds unsaved work: the browser asks before a reload or closing the tab
 * (beforeunload), and a move inside the app waits for the teacher's answer (the router's
 * blocker, answered in LeaveEditorDialog). Not once the quiz is saved.
 */
function useLeaveWarning(hasUnsaved: boolean, isSavedRef: RefObject<boolean>) {
  useEffect(() => {
    if (!hasUnsaved) return;
    const handleBeforeUnload = (event: BeforeUnloadEvent) => {
      if (isSavedRef.current) return;
      event.preventDefault();
      event.returnValue = ''; // older browsers need it set to show the question
    };
    window.addEventListener('beforeunload', handleBeforeUnload);
    return () => window.removeEventListener('beforeunload', handleBeforeUnload);
  }, [hasUnsaved, isSavedRef]);
  return useBlocker(
    ({ currentLocation, nextLocation }) =>
      hasUnsaved && !isSavedRef.current && currentLocation.pathname !== nextLocation.pathname,
  );
}

function LeaveEditorDialog({ blocker }: { blocker: Blocker }) {
  const isLeavingRef = useRef(false);
  const { t } = useLingui();
  return (
    <ConfirmDialog
      title={t`Leave without saving?`}
      description={t`This quiz is not saved yet. Its draft stays on this device: open Create quiz again to carry on.`}
      confirmLabel={t`Leave`}
      cancelLabel={t`Stay`}
      widthClassName="w-[min(28rem,calc(100%-2rem))]"
      onConfirm={() => {
        isLeavingRef.current = true;
        blocker.proceed?.();
      }}
      onClose={() => {
        if (!isLeavingRef.current) blocker.reset?.();
      }}
    />
  );
}

/**
 * /dashboard/teacher/create-quiz (SPEC §2 quiz editor, §5): details, questions,
 * background, preview in a new tab, and Save to all-quiz. The shared schema
 * validates before sending; problems show next to their fields.
 */
export function Component() {
  const teacher = useProfile('teacher');
  const subject = teacher?.subject || DEFAULT_QUIZ_SUBJECT;
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const backgroundButtonRef = useRef<HTMLButtonElement>(null);
  const addQuestionRef = useRef<HTMLButtonElement>(null);

  const teacherId = teacher?._id ?? '';
  // Unsaved work survives a reload or a wrong click (issue 18): kept per teacher on this device.
  const [draft, setDraft] = useState<QuizDraft>(() => readStoredDraft(localStorage, teacherId) ?? emptyDraft());
  // After a reload the profile may arrive after the first render: restore the draft then, once.
  const [draftOwner, setDraftOwner] = useState(teacherId);
  if (draftOwner !== teacherId) {
    setDraftOwner(teacherId);
    const stored = readStoredDraft(localStorage, teacherId);
    if (stored && !hasUnsavedWork(draft)) setDraft(stored);
  }
  useEffect(() => {
    if (teacherId) storeDraft(localStorage, teacherId, draft);
  }, [teacherId, draft]);
  const isSavedRef = useRef(false);
  const hasUnsaved = hasUnsavedWork(draft);
  const leaveBlocker = useLeaveWarning(hasUnsaved, isSavedRef);
  const [isBackgroundDialogOpen, setIsBackgroundDialogOpen] = useState(false);
  // The deadline picker's minimum (SPEC §5): now, in local time, when the editor opened.
  const [minDeadline] = useState(() => toLocalInputValue(new Date()));

  const teacherFacts = { _id: teacher?._id ?? '', subject };
  const form = useEndpointForm({
    schema: newQuizSchema,
    toBody: () => toQuizPayload(draft, teacherFacts),
    fieldOf: errorSlot,
    refineErrors: (found) => refineMessages(found, draft),
    onSubmit: async (_quiz, { body }) => {
      const { data } = await withLoading(() => call(addQuiz, { body }));
      const { title } = data;
      toast.success(t`Quiz "${title}" created successfully`);
      isSavedRef.current = true;
      clearStoredDraft(localStorage, teacherId);
      void queryClient.invalidateQueries({ queryKey: QUIZZES_KEY });
      await navigate(ALL_QUIZ_PATH);
    },
  });
  const { errors, clearErrors } = form;

  const editing = useQuizDraftEditing(draft, setDraft, form, () => addQuestionRef.current);

  const handlePreview = () => {
    const title = draft.title.trim();
    if (title === '') {
      window.alert(t`Please provide a title for the quiz.`);
      return;
    }
    storeQuizPreview(toQuizPayload(draft, teacherFacts));
    window.open(`/dashboard/teacher/preview/${encodeURIComponent(title)}`, '_blank');
  };

  const backgroundError = errors['quiz.background'];
  const backgroundName = describeBackground(draft.background);

  return (
    <div className="mx-auto w-full max-w-3xl">
      <PageTitle>{t`Create a quiz`}</PageTitle>
      <PageHeader
        title={t`Create a quiz`}
        description={
          <Trans>
            Fields marked <span className="text-danger">*</span> are required.
          </Trans>
        }
      />

      <form {...form.formProps} className="mt-6 flex flex-col gap-8">
        <QuizDetailsSection
          draft={draft}
          errors={errors}
          editing={editing}
          classField={{}}
          subject={subject}
          minDeadline={minDeadline}
        >
          <div className="mt-6 flex flex-col items-start gap-3 border-t border-line pt-5 sm:flex-row sm:items-center sm:gap-4">
            <div className="flex min-w-0 items-center gap-3">
              <img
                src={draft.background}
                alt=""
                width={1280}
                height={720}
                className="aspect-video w-24 shrink-0 rounded-lg border border-line object-cover"
              />
              <p className="text-sm text-muted">
                <Trans>
                  <span className="font-medium text-fg">Background:</span> {backgroundName}
                </Trans>
              </p>
            </div>
            <div className="flex flex-col items-start gap-2 sm:ms-auto sm:items-end">
              <button
                ref={backgroundButtonRef}
                type="button"
                className={buttonVariants({ variant: 'secondary' })}
                data-field="quiz.background"
                aria-describedby={backgroundError ? 'quiz-background-error' : undefined}
                onClick={() => setIsBackgroundDialogOpen(true)}
              >
                <ImageIcon className="size-4" aria-hidden="true" />
                <Trans>Select quiz background</Trans>
              </button>
              {backgroundError ? (
                <p id="quiz-background-error" className="text-sm text-danger">
                  {backgroundError}
                </p>
              ) : null}
            </div>
          </div>
        </QuizDetailsSection>

        <QuizReviewSection values={draft} errors={errors} onChange={editing.setField} />

        <QuizQuestionsSection draft={draft} errors={errors} editing={editing} addQuestionRef={addQuestionRef} />

        <div className="flex flex-col-reverse gap-2 border-t border-line pt-6 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={handlePreview}>
            <Eye className="size-4" aria-hidden="true" />
            <Trans>Preview quiz</Trans>
          </Button>
          <Button type="submit" disabled={form.isSubmitting}>
            <Save className="size-4" aria-hidden="true" />
            <Trans>Save quiz</Trans>
          </Button>
        </div>
      </form>

      {leaveBlocker.state === 'blocked' ? <LeaveEditorDialog blocker={leaveBlocker} /> : null}

      {isBackgroundDialogOpen ? (
        <Suspense fallback={null}>
          <BackgroundDialog
            selected={draft.background}
            onSave={(background) => {
              setDraft((current) => ({ ...current, background }));
              clearErrors((slot) => slot === 'quiz.background');
            }}
            onClose={() => {
              setIsBackgroundDialogOpen(false);
              backgroundButtonRef.current?.focus();
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
