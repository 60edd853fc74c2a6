import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import toast from 'react-hot-toast/headless';
import { setAccommodation } from '#shared/contract/quiz-accommodations';
import {
  ACCOMMODATION_LIMITS,
  accommodationInputSchema,
  type Accommodation,
  type AccommodationPayload,
} from '#shared/quiz-accommodations';
import type { TeacherQuizDetail } from '#shared/quizzes';
import { useEndpointForm } from '../../../components/form/use-endpoint-form.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Field, TextField } from '../../../components/ui/field.tsx';
import { call } from '../../../lib/api.ts';
import { formatNumber } from '../../../lib/format.ts';
import { classQueries } from '../../classes/classes-queries.ts';
import { accommodationQueries } from './accommodation-queries.ts';
import { toDeadlineIso, toLocalInputValue } from './quiz-draft.ts';

/**
 * The form that gives or changes one student's accommodation (decision 036). Loaded when the
 * teacher asks for it (Add accommodation, Change), so the analytics page does not carry the
 * form layer and the class roster's queries on first paint.
 */
/** An empty box is none; anything else is read as a number (the schema says what is wrong with it). */
const numberOrNull = (text: FormDataEntryValue | null) => {
  const value = typeof text === 'string' ? text.trim() : '';
  return value === '' ? null : Number(value);
};

export function AccommodationForm({
  quiz,
  editing,
  onDone,
}: {
  quiz: TeacherQuizDetail;
  editing: Accommodation | null;
  onDone(): void;
}) {
  const queryClient = useQueryClient();
  const { t } = useLingui();
  const roster = useQuery(classQueries.roster(quiz.classId));
  const [studentId, setStudentId] = useState(editing?.student._id ?? '');
  const form = useEndpointForm({
    schema: accommodationInputSchema,
    toBody: (element): AccommodationPayload => {
      const data = new FormData(element);
      const entered = data.get('deadline');
      const deadline = typeof entered === 'string' ? entered : '';
      return {
        extraMinutes: numberOrNull(data.get('extraMinutes')),
        extraPercent: numberOrNull(data.get('extraPercent')),
        deadline: deadline === '' ? null : toDeadlineIso(deadline),
      };
    },
    // Its problems say the fields by name: "Extra time in percent must be at most 300".
    labels: { extraMinutes: t`Extra minutes`, extraPercent: t`Extra time in percent`, deadline: t`Later deadline` },
    refineErrors: (found) => (studentId ? found : { studentId: () => t`Choose a student`, ...found }),
    onSubmit: async (_input, { body }) => {
      await call(setAccommodation, { params: { id: quiz._id, studentId }, body });
      toast.success(t`Accommodation saved`);
      await queryClient.invalidateQueries({ queryKey: accommodationQueries.list(quiz._id).queryKey });
      onDone();
    },
  });
  const field = (name: 'extraMinutes' | 'extraPercent' | 'deadline') => form.field(name);
  const studentName = editing?.student.name;
  const minutesMax = formatNumber(ACCOMMODATION_LIMITS.extraMinutesMax);
  const percentMax = formatNumber(ACCOMMODATION_LIMITS.extraPercentMax);
  const zero = formatNumber(0);
  const quizMinutes = quiz.maxTime;
  return (
    <form
      {...form.formProps}
      aria-label={studentName === undefined ? t`New accommodation` : t`Accommodation of ${studentName}`}
      className="mt-4 grid gap-4 rounded-xl border border-line bg-surface p-4 sm:grid-cols-2 lg:grid-cols-4"
    >
      <Field
        label={t`Student`}
        id={undefined}
        error={form.errors['studentId']}
        control={(attributes) => (
          <select
            {...attributes}
            data-field="studentId"
            value={studentId}
            disabled={editing !== null}
            onChange={(event) => {
              setStudentId(event.target.value);
              form.clearErrors((name) => name === 'studentId');
            }}
          >
            <option value="">{roster.isPending ? t`Loading the class…` : t`Choose a student`}</option>
            {(roster.data ?? []).map((student) => (
              <option key={student._id} value={student._id}>
                {student.name} ({student.rollNumber})
              </option>
            ))}
          </select>
        )}
      />
      <TextField
        label={t`Extra minutes`}
        {...field('extraMinutes')}
        type="number"
        inputMode="numeric"
        min={0}
        max={ACCOMMODATION_LIMITS.extraMinutesMax}
        step={1}
        defaultValue={editing?.extraMinutes ?? ''}
        hint={t`${zero} to ${minutesMax}.`}
      />
      <TextField
        label={t`Extra time (%)`}
        {...field('extraPercent')}
        type="number"
        inputMode="numeric"
        min={0}
        max={ACCOMMODATION_LIMITS.extraPercentMax}
        step={1}
        defaultValue={editing?.extraPercent ?? ''}
        hint={t`Of the ${plural(quizMinutes, { one: '# minute', other: '# minutes' })}; ${zero} to ${percentMax}.`}
      />
      <TextField
        label={t`Later deadline`}
        {...field('deadline')}
        type="datetime-local"
        min={toLocalInputValue(new Date(quiz.deadline))}
        defaultValue={editing?.deadline ? toLocalInputValue(new Date(editing.deadline)) : ''}
        hint={t`Optional. Your local time, after the quiz’s.`}
      />
      <div className="flex flex-wrap gap-3 sm:col-span-2 lg:col-span-4">
        <Button type="submit" disabled={form.isSubmitting}>
          <Trans>Save accommodation</Trans>
        </Button>
        <Button type="button" variant="secondary" onClick={onDone}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </form>
  );
}

/**
 * The analytics page's accommodations: each student's extra time and later deadline, added,
 * changed and removed here. The server moves a running attempt's end at once.
 */
