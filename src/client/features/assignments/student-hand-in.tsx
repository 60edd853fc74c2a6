import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Send, Undo2 } from 'lucide-react';
import { useId, useState } from 'react';
import toast from 'react-hot-toast/headless';
import { takeBackHandIn } from '#shared/contract/assignments';
import { ASSIGNMENT_LIMITS, type StudentAssignment } from '#shared/assignments';
import { Button } from '../../components/ui/button.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import { ConfirmDialog } from '../../components/ui/confirm-dialog.tsx';
import { ApiError, call } from '../../lib/api.ts';
import { cn } from '../../lib/cn.ts';
import { formatDateTime, formatNumber } from '../../lib/format.ts';
import { HandInFiles } from './hand-in-files.tsx';
import { Badge, GradeText } from './student-assignment-parts.tsx';
import { storeStudentAssignment, studentAssignmentQueries } from './student-assignment-queries.ts';
import { useDraftSaver, type DraftConflict, type DraftStatus } from './student-draft-saver.ts';

type HandIn = NonNullable<StudentAssignment['handIn']>;

const TEXTAREA_CLASSES =
  'w-full rounded-lg border border-line-strong bg-surface p-3 text-fg focus-visible:outline-2 focus-visible:outline-brand-600';

/**
 * The student's text, saved as a draft while they type (decision 064), and the button that hands
 * it in. When another tab or device saved a different draft meanwhile, both texts show and the
 * student chooses; nothing is overwritten without them.
 */
export function HandInEditor({ assignment, studentId }: { assignment: StudentAssignment; studentId: string }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const { saver, state } = useDraftSaver(assignment, studentId);
  const [isAsking, setIsAsking] = useState(false);
  const fieldId = useId();
  const handIn = useMutation({
    mutationFn: saver.handIn,
    // Worded below, or shown as the conflict's choice.
    meta: { errorToast: false },
    onSuccess: () => toast.success(t`Handed in. Your teacher can see your work.`),
    onError: (error) => {
      if (error instanceof ApiError && error.code === 'HAND_IN_CHANGED') return;
      // The assignment closed or the work changed state meanwhile: show where it stands now.
      void queryClient.invalidateQueries({ queryKey: studentAssignmentQueries.detail(assignment._id).queryKey });
      const reason = error.message;
      toast.error(t`Not handed in: ${reason}`);
    },
  });

  if (state.conflict) return <ConflictChoice conflict={state.conflict} onChoose={(choice) => saver.resolve(choice)} />;
  const length = state.text.length;
  return (
    <div className="flex flex-col gap-3">
      <label htmlFor={fieldId} className="font-semibold text-fg">
        {t`Your answer`}
      </label>
      <textarea
        id={fieldId}
        dir="auto"
        rows={10}
        value={state.text}
        onChange={(event) => saver.type(event.target.value)}
        aria-describedby={`${fieldId}-status`}
        className={TEXTAREA_CLASSES}
      />
      <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
        <p id={`${fieldId}-status`} role="status" className="text-muted" data-testid="draft-status">
          <DraftStatusText status={state.status} hasDraft={assignment.handIn !== null} length={length} />
        </p>
        {length > ASSIGNMENT_LIMITS.handInText * 0.9 ? (
          <p className={length > ASSIGNMENT_LIMITS.handInText ? 'font-semibold text-danger' : 'text-muted'}>
            <Trans>
              Characters: <bdi>{formatNumber(length)}</bdi> of <bdi>{formatNumber(ASSIGNMENT_LIMITS.handInText)}</bdi>
            </Trans>
          </p>
        ) : null}
      </div>
      <HandInFiles of={{ assignmentId: assignment._id }} editable onVersion={saver.adoptOwnChange} />
      <div className="flex flex-wrap gap-2">
        <Button
          onClick={() => setIsAsking(true)}
          disabled={assignment.closed || handIn.isPending || length > ASSIGNMENT_LIMITS.handInText}
        >
          <Send className="size-4 rtl:-scale-x-100" aria-hidden="true" />
          {handIn.isPending ? t`Handing in…` : t`Hand in`}
        </Button>
      </div>
      {isAsking ? (
        <ConfirmDialog
          title={t`Hand in your work?`}
          description={
            assignment.group === 'missing'
              ? t`The due time has passed: your work will be marked late. You can take it back until it is graded.`
              : t`Your teacher will see it. You can take it back until it is graded.`
          }
          confirmLabel={t`Hand in`}
          widthClassName="w-[min(28rem,calc(100%-2rem))]"
          onConfirm={() => handIn.mutate()}
          onClose={() => setIsAsking(false)}
        />
      ) : null}
    </div>
  );
}

/** Saved, saving or not saved, and why; read out as it changes. */
function DraftStatusText({ status, hasDraft, length }: { status: DraftStatus; hasDraft: boolean; length: number }) {
  const { t } = useLingui();
  switch (status.kind) {
    case 'idle':
      return hasDraft ? t`Saved` : t`Your draft is saved as you type.`;
    case 'saving':
      return t`Saving…`;
    case 'saved':
      return t`Saved`;
    case 'not-saved': {
      if (status.willRetry)
        return t`Not saved: the server cannot be reached. Your text is kept on this device and sent as soon as it can be.`;
      if (length > ASSIGNMENT_LIMITS.handInText) {
        const over = formatNumber(length - ASSIGNMENT_LIMITS.handInText);
        return t`Not saved: the text is ${over} characters too long.`;
      }
      const reason = status.error.message;
      return t`Not saved: ${reason} Your text is kept on this device.`;
    }
  }
}

/** The draft changed elsewhere: both texts, and the student's choice of which to keep. */
function ConflictChoice({
  conflict,
  onChoose,
}: {
  conflict: DraftConflict;
  onChoose(choice: 'mine' | 'theirs'): void;
}) {
  const { t } = useLingui();
  const mineId = useId();
  const theirsId = useId();
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-lg border border-warning-line bg-warning-soft p-4">
      <h3 className="font-bold text-warning">{t`Your draft was changed in another tab or on another device`}</h3>
      <p className="text-sm text-fg">
        {t`This page's text and the text saved elsewhere differ. Choose the one to keep: the other one is discarded.`}
      </p>
      <div className="grid gap-3 md:grid-cols-2">
        <div className="flex flex-col gap-1">
          <label htmlFor={mineId} className="text-sm font-semibold text-fg">
            {t`Your text on this page`}
          </label>
          <textarea id={mineId} readOnly dir="auto" rows={6} value={conflict.mine} className={TEXTAREA_CLASSES} />
          <Button variant="secondary" onClick={() => onChoose('mine')}>
            {t`Keep the text on this page`}
          </Button>
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={theirsId} className="text-sm font-semibold text-fg">
            {t`The text saved elsewhere`}
          </label>
          <textarea
            id={theirsId}
            readOnly
            dir="auto"
            rows={6}
            value={conflict.theirs.text}
            className={TEXTAREA_CLASSES}
          />
          <Button variant="secondary" onClick={() => onChoose('theirs')}>
            {t`Keep the saved text`}
          </Button>
        </div>
      </div>
    </div>
  );
}

/** Handed in (graded, returned): the text as sent, when, and taking it back or why not. */
export function HandedInWork({ assignment, handIn }: { assignment: StudentAssignment; handIn: HandIn }) {
  const { t } = useLingui();
  const queryClient = useQueryClient();
  const takeBack = useMutation({
    mutationFn: async () =>
      (await call(takeBackHandIn, { params: { id: assignment._id }, body: { version: handIn.version } })).data,
    meta: { errorToast: false },
    onSuccess: (answer) => {
      storeStudentAssignment(queryClient, answer);
      toast.success(t`Taken back. Change your work and hand it in again.`);
    },
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: studentAssignmentQueries.detail(assignment._id).queryKey });
      const reason = error.message;
      toast.error(t`Not taken back: ${reason}`);
    },
  });
  const submittedAt = handIn.submittedAt ? formatDateTime(handIn.submittedAt) : '';
  return (
    <div className="flex flex-col gap-3">
      <p className="flex flex-wrap items-center gap-2 text-fg">
        <Trans>Handed in {submittedAt}</Trans>
        {handIn.late ? (
          <Badge tone="warning">
            <Trans comment="Badge: handed in after the due time">Late</Trans>
          </Badge>
        ) : null}
      </p>
      {handIn.text ? (
        <div
          dir="auto"
          className="rounded-lg border border-line bg-surface-sunken p-3 wrap-anywhere whitespace-pre-wrap text-fg"
        >
          {handIn.text}
        </div>
      ) : (
        <p className="text-muted">{t`No text handed in.`}</p>
      )}
      <HandInFiles of={{ assignmentId: assignment._id }} />
      {handIn.state === 'handed-in' && !assignment.closed ? (
        <div>
          <Button variant="secondary" onClick={() => takeBack.mutate()} disabled={takeBack.isPending}>
            <Undo2 className="size-4 rtl:-scale-x-100" aria-hidden="true" />
            {takeBack.isPending ? t`Taking back…` : t`Take back`}
          </Button>
          <p className="mt-1 text-sm text-muted">{t`Taking it back lets you change it; hand it in again when done.`}</p>
        </div>
      ) : (
        <p className="text-sm text-muted">
          {handIn.state === 'handed-in'
            ? t`The due time has passed and late work is not accepted: taken back, it could not be handed in again, so it stays handed in.`
            : t`Your teacher has graded this work, so it can no longer be taken back.`}
        </p>
      )}
    </div>
  );
}

/** The grade and feedback of returned work, and whether the teacher changed them after returning it. */
export function ReturnedGrade({ assignment, handIn }: { assignment: StudentAssignment; handIn: HandIn }) {
  const { t } = useLingui();
  return (
    <section
      aria-labelledby="grade-title"
      className={cn(cardVariants({ tone: 'success', padding: 'md' }), 'flex flex-col gap-3')}
    >
      <h2 id="grade-title" className="text-lg font-bold text-fg">
        {t`Grade and feedback`}
      </h2>
      <p className="text-2xl font-bold text-success" data-testid="returned-grade">
        <GradeText points={handIn.points} outOf={assignment.points} />
      </p>
      {handIn.gradeChangedAfterReturn ? (
        <p role="note" className="rounded-lg bg-warning-soft p-3 text-sm font-semibold text-warning">
          {t`Your teacher changed this grade or feedback after returning it.`}
        </p>
      ) : null}
      {handIn.feedback ? (
        <div>
          <h3 className="font-semibold text-fg">{t`Feedback from your teacher`}</h3>
          <p dir="auto" className="mt-1 wrap-anywhere whitespace-pre-wrap text-fg">
            {handIn.feedback}
          </p>
        </div>
      ) : (
        <p className="text-muted">{t`No feedback was written.`}</p>
      )}
    </section>
  );
}
