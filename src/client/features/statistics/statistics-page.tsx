import { Trans, useLingui } from '@lingui/react/macro';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ChartPie } from 'lucide-react';
import { getStudentStatistics } from '#shared/contract/progress';
import type { StudentStatistics, SubjectStatistics } from '#shared/progress';
import { Card, cardVariants } from '../../components/ui/card.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { call } from '../../lib/api.ts';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { useProfile } from '../session/profile.ts';
import { twoDecimals } from './statistics-display.ts';
import { SubjectPieChart } from './subject-pie-chart.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { STACKED_TABLE } from '../../components/ui/stacked-table.ts';
import { cn } from '../../lib/cn.ts';

/** The statistics feature's queries. */
export const statisticsQueries = {
  /** The signed-in student's own figures, computed by the server. */
  student: () =>
    queryOptions({
      queryKey: ['statistics', 'student'],
      queryFn: async () => (await call(getStudentStatistics)).data,
    }),
};

/** /dashboard/student/statistics: "{name}'s Analytics", computed by the server from the student's own attempts. */
export function Component() {
  const statistics = useQuery(statisticsQueries.student());
  const storedName = useProfile('student')?.name;
  const name = statistics.data?.name ?? storedName;
  const { t } = useLingui();

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageTitle>{t`Statistics`}</PageTitle>
      <PageHeader title={name ? t`${name}'s Analytics` : t`Analytics`} />
      <div className="mt-6">
        {statistics.isPending ? (
          <LoadingStatus>{t`Loading your statistics…`}</LoadingStatus>
        ) : statistics.isError ? (
          <LoadFailure
            title={t`Your statistics could not be loaded.`}
            message={statistics.error.message}
            onRetry={() => void statistics.refetch()}
          />
        ) : statistics.data.quizzesAttempted === 0 ? (
          <EmptyState
            icon={<ChartPie className="mx-auto mb-3 size-10 text-muted" aria-hidden="true" />}
            title={t`No quizzes attempted yet`}
            hint={t`Take some quizzes to see your analytics here.`}
          />
        ) : (
          <Analytics statistics={statistics.data} />
        )}
      </div>
    </div>
  );
}

function Analytics({ statistics }: { statistics: StudentStatistics }) {
  const { t } = useLingui();
  // [the test id, the same in every locale; the label; the value]
  const facts: [string, string, string][] = [
    ['Average score', t`Average score`, twoDecimals(statistics.averageScore)],
    ['Average accuracy', t`Average accuracy`, formatPercent(statistics.averageAccuracy)],
    ['Quizzes attempted', t`Quizzes attempted`, formatNumber(statistics.quizzesAttempted)],
  ];
  return (
    <>
      {/* A phone has no room for three numbers abreast ("66.67%" spilled out): one per row, label beside it. */}
      <dl className="grid gap-2 sm:grid-cols-3 sm:gap-4">
        {facts.map(([testId, label, value]) => (
          <Card
            key={testId}
            className="flex min-w-0 items-baseline justify-between gap-3 px-4 py-3 sm:flex-col sm:items-start sm:p-5"
          >
            <dt className="text-sm font-medium text-muted">{label}</dt>
            <dd
              className="text-xl font-bold text-fg tabular-nums sm:mt-1 sm:text-3xl"
              data-testid={`statistic-${testId}`}
            >
              {value}
            </dd>
          </Card>
        ))}
      </dl>
      <section aria-labelledby="subject-performance" className="mt-8">
        <h2 id="subject-performance" className="text-xl font-bold text-fg">
          <Trans>Performance by Subject</Trans>
        </h2>
        <p className="mt-1 text-sm text-muted">
          <Trans>
            Each slice is a subject, sized by your average accuracy in it. Point at a slice or focus its entry in the
            legend for its numbers; the table below lists them all.
          </Trans>
        </p>
        <SubjectPieChart subjects={statistics.subjects} />
        <SubjectTable subjects={statistics.subjects} />
      </section>
    </>
  );
}

/** The chart's numbers as text, for everyone and for screen readers. */
function SubjectTable({ subjects }: { subjects: SubjectStatistics[] }) {
  const { t } = useLingui();
  const header = 'px-3 py-3 text-xs font-semibold tracking-wide text-muted uppercase';
  const cell = cn('px-3 py-3 text-end text-fg tabular-nums', STACKED_TABLE.line);
  return (
    <div
      role="region"
      aria-label={t`Subject details`}
      tabIndex={0}
      className={cn(cardVariants(), 'mt-6 overflow-x-auto')}
    >
      {/* A card per subject on a phone (no sideways scrolling); a table from sm up. */}
      <table className={cn('w-full text-sm sm:min-w-[34rem]', STACKED_TABLE.table)}>
        <caption className="px-3 pt-3 text-start text-base font-semibold text-fg">
          <Trans>Subject details</Trans>
        </caption>
        <thead className={cn('border-b border-line', STACKED_TABLE.head)}>
          <tr>
            <th scope="col" className={`${header} text-start`}>
              <Trans>Subject</Trans>
            </th>
            <th scope="col" className={`${header} text-end`}>
              <Trans>Avg. accuracy</Trans>
            </th>
            <th scope="col" className={`${header} text-end`}>
              <Trans>Avg. score</Trans>
            </th>
            <th scope="col" className={`${header} text-end`}>
              <Trans>Tests attempted</Trans>
            </th>
            <th scope="col" className={`${header} text-end`}>
              <Trans>Avg. time (min)</Trans>
            </th>
          </tr>
        </thead>
        <tbody className={cn('divide-y divide-line', STACKED_TABLE.body)}>
          {subjects.map((subject) => (
            <tr key={subject.subject} className={STACKED_TABLE.row}>
              <th
                scope="row"
                className={cn(
                  'min-w-32 px-3 py-3 text-start font-semibold wrap-break-word text-fg max-sm:py-1',
                  STACKED_TABLE.heading,
                )}
              >
                {subject.subject}
              </th>
              <td data-label={t`Avg. accuracy`} className={cell}>
                {formatPercent(subject.averageAccuracy)}
              </td>
              <td data-label={t`Avg. score`} className={cell}>
                {twoDecimals(subject.averageScore)}
              </td>
              <td data-label={t`Tests attempted`} className={cell}>
                {formatNumber(subject.testsAttempted)}
              </td>
              <td data-label={t`Avg. time (min)`} className={cell}>
                {twoDecimals(subject.averageTimeMinutes)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
