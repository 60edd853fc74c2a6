import { useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { StudentGrade } from '#shared/gradebook';
import { Card } from '../../components/ui/card.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { STACKED_TABLE } from '../../components/ui/stacked-table.ts';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { cn } from '../../lib/cn.ts';
import { formatDay, formatPercent } from '../../lib/format.ts';
import { classQueries } from '../classes/classes-queries.ts';
import { formatPoints, GradeCell } from './grade-cell.tsx';
import { gradebookQueries } from './gradebook-queries.ts';

/**
 * /dashboard/student/grades (issue 33 point 4, decision 062): the student's own row of the
 * gradebook, one class at a time, with their teachers' feedback on returned work.
 */
export function Component() {
  const { t } = useLingui();
  const classes = useQuery(classQueries.ofStudent());
  const [chosen, setChosen] = useState('');
  const classId = chosen || classes.data?.[0]?._id || '';
  return (
    <div className="mx-auto flex w-full max-w-5xl flex-col gap-6 pb-16">
      <PageTitle>{t`Grades`}</PageTitle>
      <PageHeader
        title={t`Grades`}
        description={t`Your scores in each class, with your teachers' feedback. Your average weighs each item by its points and counts what has been returned to you.`}
      />
      {classes.isPending ? (
        <LoadingStatus>{t`Loading your classes…`}</LoadingStatus>
      ) : classes.isError ? (
        <LoadFailure
          title={t`Your classes could not be loaded.`}
          message={classes.error.message}
          onRetry={() => void classes.refetch()}
        />
      ) : classes.data.length === 0 ? (
        <EmptyState title={t`You are in no class yet`} hint={t`Join a class with its code on the My classes page.`} />
      ) : (
        <>
          {classes.data.length > 1 ? (
            <label className="flex max-w-xs flex-col gap-1 text-sm font-semibold text-fg">
              {t`Class`}
              <select
                value={classId}
                onChange={(event) => setChosen(event.target.value)}
                className="rounded-lg border border-line bg-surface px-3 py-2 font-normal text-fg"
              >
                {classes.data.map((entry) => (
                  <option key={entry._id} value={entry._id}>
                    {entry.name}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <ClassGrades classId={classId} />
        </>
      )}
    </div>
  );
}

function ClassGrades({ classId }: { classId: string }) {
  const { t } = useLingui();
  const grades = useQuery(gradebookQueries.ofStudent(classId));
  if (grades.isPending) return <LoadingStatus>{t`Loading your grades…`}</LoadingStatus>;
  if (grades.isError)
    return (
      <LoadFailure
        title={t`Your grades could not be loaded.`}
        message={grades.error.message}
        onRetry={() => void grades.refetch()}
      />
    );
  const book = grades.data;
  const itemLabel = t`Item`;
  const scoreLabel = t`Score`;
  const feedbackLabel = t`Feedback`;
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-2">
        <Card padding="md">
          <p className="text-sm text-muted">{t`Average in ${book.class.name}`}</p>
          <p className="mt-1 text-3xl font-bold text-fg">
            {book.average === null ? '—' : <bdi>{formatPercent(book.average)}</bdi>}
          </p>
          <p className="mt-1 text-sm text-muted">
            {t`${formatPoints(book.earned)} of ${formatPoints(book.possible)} points`}
          </p>
        </Card>
        <Card padding="md">
          <p className="text-sm text-muted">{t`Missing work`}</p>
          <p className={cn('mt-1 text-3xl font-bold', book.missing > 0 ? 'text-danger' : 'text-fg')}>
            <bdi>{book.missing}</bdi>
          </p>
        </Card>
      </div>
      {book.grades.length === 0 ? (
        <EmptyState title={t`Nothing graded yet`} hint={t`Quizzes and assignments of this class show here.`} />
      ) : (
        <div
          className={cn(
            'rounded-xl border border-line bg-surface shadow-sm',
            'max-sm:border-0 max-sm:bg-transparent max-sm:shadow-none',
          )}
        >
          <table className={cn('w-full text-sm', STACKED_TABLE.table)}>
            <caption className="sr-only">{t`Your grades in ${book.class.name}`}</caption>
            <thead className={STACKED_TABLE.head}>
              <tr className="border-b border-line text-start text-xs text-muted">
                <th scope="col" className="px-4 py-2 text-start font-semibold">
                  {itemLabel}
                </th>
                <th scope="col" className="px-4 py-2 text-start font-semibold">
                  {scoreLabel}
                </th>
                <th scope="col" className="px-4 py-2 text-start font-semibold">
                  {feedbackLabel}
                </th>
              </tr>
            </thead>
            <tbody className={STACKED_TABLE.body}>
              {book.grades.map((grade) => (
                <GradeRow key={grade.item._id} grade={grade} labels={{ scoreLabel, feedbackLabel }} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function GradeRow({ grade, labels }: { grade: StudentGrade; labels: { scoreLabel: string; feedbackLabel: string } }) {
  const { t } = useLingui();
  const { item } = grade;
  return (
    <tr
      className={cn(
        'border-b border-line last:border-0',
        STACKED_TABLE.row,
        'max-sm:mb-3 max-sm:rounded-xl max-sm:border max-sm:bg-surface max-sm:px-4 max-sm:shadow-sm',
      )}
    >
      <th scope="row" className={cn('px-4 py-2 text-start align-top font-semibold text-fg', STACKED_TABLE.heading)}>
        <span className="block">{item.title}</span>
        <span className="block text-xs font-normal text-muted">
          {item.kind === 'quiz' ? t`Quiz` : t`Assignment`}
          {item.dueAt ? ` · ${formatDay(item.dueAt)}` : ''}
        </span>
      </th>
      <td className={cn('px-4 py-2 align-top', STACKED_TABLE.line)} data-label={labels.scoreLabel}>
        <GradeCell cell={grade.cell} viewer="student" outOf={item.points} />
        {grade.changedAfterReturn ? (
          <span className="ms-2 text-xs text-warning">{t`changed after it was returned`}</span>
        ) : null}
      </td>
      <td
        className={cn('px-4 py-2 align-top whitespace-pre-wrap', STACKED_TABLE.line)}
        data-label={labels.feedbackLabel}
      >
        {grade.feedback ?? <span className="text-muted">—</span>}
      </td>
    </tr>
  );
}
