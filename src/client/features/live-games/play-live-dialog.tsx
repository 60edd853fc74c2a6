import { useLingui } from '@lingui/react/macro';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LIVE_GAME_LIMITS, newLiveGameSchema } from '#shared/live-games';
import { ClassPicker } from '../../components/class-picker.tsx';
import { useEndpointForm } from '../../components/form/use-endpoint-form.ts';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { ApiError, isInputFailure } from '../../lib/api.ts';
import { formatNumber } from '../../lib/format.ts';
import { createLiveGame } from './live-games-api.ts';
import { liveHostPath } from './play-live-path.ts';

/**
 * "Play live" (issue 34 point 2): one of the teacher's active classes and the seconds per
 * question, then a game in the lobby and its host page. A refusal (NO_LIVE_QUESTIONS,
 * QUIZ_ARCHIVED, CLASS_ARCHIVED…) is said in the dialog, in the client's words for its code.
 */
export function PlayLiveDialog({
  quiz,
  onClose,
}: {
  /** The title is unknown when the address alone names the quiz (`?play=` on the quiz list). */
  quiz: { _id: string; title: string | undefined; classId?: string | undefined };
  onClose(): void;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  // The quiz's own class first: the one a teacher most often plays it with.
  const [classId, setClassId] = useState(quiz.classId ?? '');
  const [seconds, setSeconds] = useState(String(LIVE_GAME_LIMITS.questionSecondsDefault));
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const quizTitle = quiz.title;
  const least = formatNumber(LIVE_GAME_LIMITS.questionSecondsMin);
  const most = formatNumber(LIVE_GAME_LIMITS.questionSecondsMax);
  const form = useEndpointForm({
    schema: newLiveGameSchema,
    labels: { classId: t`Class`, questionSeconds: t`Seconds per question` },
    toBody: () => ({ quizId: quiz._id, classId, questionSeconds: seconds.trim() === '' ? NaN : Number(seconds) }),
    onSubmit: async (_input, { body }) => {
      setRefusal(null);
      try {
        const game = await createLiveGame(body);
        await navigate(liveHostPath(game._id));
      } catch (error) {
        // A rule's refusal is said here, in the dialog; an input's problems show at their fields.
        if (error instanceof ApiError && !isInputFailure(error.code)) {
          setRefusal(error);
          return;
        }
        throw error;
      }
    },
  });
  return (
    <ModalDialog
      title={quizTitle ? t`Play ${quizTitle} live` : t`Play this quiz live`}
      description={t`Your class joins on their phones with a PIN; each question shows on your screen with a countdown.`}
      onClose={onClose}
    >
      {(close) => (
        <form {...form.formProps} className="mt-5 flex flex-col gap-4">
          <ClassPicker
            error={form.errors.classId}
            value={classId}
            onChange={(chosen) => {
              setClassId(chosen);
              setRefusal(null);
            }}
          />
          <Field
            label={t`Seconds per question`}
            error={form.errors.questionSeconds}
            hint={t`From ${least} to ${most} seconds. You can change it in the lobby.`}
            id={undefined}
            isRequired
            control={(attributes) => (
              <input
                {...attributes}
                name="questionSeconds"
                type="number"
                inputMode="numeric"
                min={LIVE_GAME_LIMITS.questionSecondsMin}
                max={LIVE_GAME_LIMITS.questionSecondsMax}
                step={1}
                required
                value={seconds}
                onChange={(event) => setSeconds(event.target.value)}
              />
            )}
          />
          {refusal ? (
            <p
              role="alert"
              className="rounded-lg border border-danger/25 bg-danger-soft p-3 text-sm text-danger-strong"
            >
              {refusal.wording()}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="button" variant="ghost" onClick={close}>
              {t`Cancel`}
            </Button>
            <Button type="submit" disabled={form.isSubmitting}>
              {t`Open the lobby`}
            </Button>
          </div>
        </form>
      )}
    </ModalDialog>
  );
}
