import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import toast from 'react-hot-toast/headless';
import type { BoardPen, PenMode } from '#shared/class-boards';
import { getClassBoardPen, setClassBoardPen } from '#shared/contract/class-boards';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { LoadFailure } from '../../components/ui/status-cards.tsx';
import { call } from '../../lib/api.ts';
import { classQueries } from '../classes/classes-queries.ts';

/**
 * Who draws on the class board (issue 35, decision 069), for its teachers: everyone, the
 * teachers only, or the students they name, with the class's roster as "hand the pen" switches
 * (handing it to one student names them). The change is PUT at once; the server tells everyone on
 * the board, this page's session too. `pen` is the session's when it has one (else it is read).
 * The students on the board now (`presentIds`, the board's participants) are marked in the roster,
 * which keeps its order: a row does not move while the teacher reaches for its switch.
 */
export function PenPanel({
  classId,
  pen,
  presentIds,
}: {
  classId: string;
  pen: BoardPen | null;
  presentIds: ReadonlySet<string>;
}) {
  const { t } = useLingui();
  const headingId = useId();
  const roster = useQuery(classQueries.roster(classId));
  const stored = useQuery({
    queryKey: ['class-boards', 'pen', classId],
    queryFn: async ({ signal }) => (await call(getClassBoardPen, { params: { classId } }, { signal })).data,
    enabled: pen === null,
  });
  // What the server last answered a change here, until the session hears of it.
  const [answered, setAnswered] = useState<{ pen: BoardPen; over: BoardPen | null } | null>(null);
  const change = useMutation({
    mutationFn: async (input: { mode: PenMode; studentIds: string[] }) =>
      (await call(setClassBoardPen, { params: { classId }, body: input })).data,
    onSuccess: (data, input) => {
      setAnswered({ pen: { mode: data.mode, studentIds: data.studentIds }, over: pen });
      toast.success(
        input.mode === 'everyone'
          ? t`Everyone in the class can draw now.`
          : input.mode === 'teachers'
            ? t`Only teachers can draw now.`
            : data.studentIds.length === 0
              ? t`Only teachers can draw until you choose students below.`
              : plural(data.studentIds.length, {
                  one: 'The teachers and # student can draw now.',
                  other: 'The teachers and # students can draw now.',
                }),
        // One toast for who draws: a choice made right after another replaces it.
        { id: 'class-board-pen' },
      );
    },
  });
  const current = (answered && answered.over === pen ? answered.pen : pen) ?? stored.data ?? null;
  const presentCount = (roster.data ?? []).filter((student) => presentIds.has(student._id)).length;

  const modes: { mode: PenMode; label: string }[] = [
    { mode: 'everyone', label: t`Everyone` },
    { mode: 'teachers', label: t`Teachers only` },
    { mode: 'named', label: t`Teachers and the students chosen below` },
  ];

  const send = (mode: PenMode, studentIds: readonly string[]) => {
    if (!change.isPending) change.mutate({ mode, studentIds: [...studentIds] });
  };

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <h2 id={headingId} className="text-base font-semibold text-fg">
        {t`Who draws`}
      </h2>
      {!current ? (
        stored.isError ? (
          <LoadFailure
            title={t`Who draws could not be loaded.`}
            message={stored.error.message}
            onRetry={() => void stored.refetch()}
          />
        ) : (
          <LoadingStatus>{t`Loading who draws…`}</LoadingStatus>
        )
      ) : (
        <>
          <fieldset className="flex flex-col gap-2" disabled={change.isPending}>
            <legend className="sr-only">{t`Who draws`}</legend>
            {modes.map(({ mode, label }) => (
              <label key={mode} className="flex items-center gap-2 text-sm text-fg">
                <input
                  type="radio"
                  name={`pen-mode-${classId}`}
                  value={mode}
                  checked={current.mode === mode}
                  onChange={() => send(mode, current.studentIds)}
                  className="size-4 accent-brand-600"
                />
                {label}
              </label>
            ))}
          </fieldset>
          <div className="flex flex-col gap-2">
            <h3 className="text-sm font-semibold text-fg">{t`Hand the pen`}</h3>
            {roster.isPending ? (
              <LoadingStatus>{t`Loading the students…`}</LoadingStatus>
            ) : roster.isError ? (
              <LoadFailure
                title={t`The students could not be loaded.`}
                message={roster.error.message}
                onRetry={() => void roster.refetch()}
              />
            ) : roster.data.length === 0 ? (
              <p className="text-sm text-muted">{t`This class has no students yet.`}</p>
            ) : (
              <>
                <p className="text-xs text-muted" aria-live="polite">
                  {plural(presentCount, {
                    0: 'No student is on the board now.',
                    one: '# student is on the board now.',
                    other: '# students are on the board now.',
                  })}
                </p>
                <ul className="flex max-h-80 flex-col gap-1 overflow-y-auto">
                  {roster.data.map((student) => {
                    const holds =
                      current.mode === 'everyone' ||
                      (current.mode === 'named' && current.studentIds.includes(student._id));
                    const studentName = student.name;
                    const isPresent = presentIds.has(student._id);
                    return (
                      <li key={student._id}>
                        <label className="flex min-h-10 items-center justify-between gap-3 rounded-lg px-2 text-sm text-fg hover:bg-surface-sunken">
                          <span className="flex min-w-0 flex-col">
                            <bdi className="truncate">{studentName}</bdi>
                            {isPresent ? (
                              <span className="flex items-center gap-1 text-xs text-success">
                                <span aria-hidden="true" className="size-2 rounded-full bg-success" />
                                {t({
                                  comment: 'Marks a student of the roster who has the class board open',
                                  message: 'On the board',
                                })}
                              </span>
                            ) : null}
                          </span>
                          <input
                            type="checkbox"
                            role="switch"
                            aria-label={t`Hand the pen to ${studentName}`}
                            checked={holds}
                            disabled={change.isPending || current.mode === 'everyone'}
                            onChange={(event) => {
                              const named = current.mode === 'named' ? current.studentIds : [];
                              const ids = event.target.checked
                                ? [...named.filter((id) => id !== student._id), student._id]
                                : named.filter((id) => id !== student._id);
                              send('named', ids);
                            }}
                            className="size-5 accent-brand-600"
                          />
                        </label>
                      </li>
                    );
                  })}
                </ul>
              </>
            )}
            {current.mode === 'everyone' ? (
              <p className="text-xs text-muted">{t`Everyone holds the pen. Choose another setting to hand it to some.`}</p>
            ) : null}
          </div>
        </>
      )}
    </section>
  );
}
