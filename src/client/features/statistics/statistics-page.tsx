import { useQuery } from '@tanstack/react-query';
import { ChartPie, RotateCw } from 'lucide-react';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import {
  Pie,
  PieChart,
  Sector,
  Tooltip,
  type PieSectorShapeProps,
  type TooltipContentProps,
  type TooltipValueType,
} from 'recharts';
import type { StudentStatistics, SubjectStatistics } from '#shared/progress';
import { formatAccuracy } from '#shared/quizzes';
import { Button } from '../../components/ui/button.tsx';
import { PageTitle } from '../../components/ui/page-title.tsx';
import { LoadingStatus } from '../../components/ui/spinner.tsx';
import { apiRequest } from '../../lib/api.ts';
import { useAppStore } from '../../stores/app-store.ts';

/** SPEC §9: the pie is 300 by 300 pixels. */
const PIE_SIZE_PX = 300;

/**
 * Slice colours: each at least 3:1 against the white page and the white
 * separators (WCAG 1.4.11); the legend and the table carry the same facts in text.
 */
const SLICE_COLOURS = [
  '#4f46e5', // indigo 600
  '#0f766e', // teal 700
  '#c2410c', // orange 700
  '#be185d', // pink 700
  '#0369a1', // sky 700
  '#7e22ce', // purple 700
  '#4d7c0f', // lime 700
  '#b91c1c', // red 700
  '#334155', // slate 700
  '#a16207', // yellow 700
];
const colourOf = (index: number) => SLICE_COLOURS[index % SLICE_COLOURS.length]!;

/** SPEC §2: numbers of the statistics to 2 decimals. */
const twoDecimals = (value: number) => value.toFixed(2);

function useStatistics() {
  const query = useQuery({
    queryKey: ['statistics', 'student'],
    queryFn: async () => (await apiRequest<StudentStatistics>('/api/student/statistics')).data,
  });
  useEffect(() => {
    if (query.error) toast.error(query.error.message);
  }, [query.error]);
  return query;
}

/** /dashboard/student/statistics: "{name}'s Analytics", computed by the server from the student's own attempts. */
export function Component() {
  const statistics = useStatistics();
  const storedName = useAppStore((state) => state.student?.name);
  const name = statistics.data?.name ?? storedName;

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageTitle>Statistics</PageTitle>
      <h1 className="text-2xl font-bold wrap-anywhere text-slate-900">{name ? `${name}'s Analytics` : 'Analytics'}</h1>
      <div className="mt-6">
        {statistics.isPending ? (
          <LoadingStatus>Loading your statistics…</LoadingStatus>
        ) : statistics.isError ? (
          <div role="alert" className="rounded-xl border border-red-200 bg-red-50 p-5 text-red-900">
            <p className="font-semibold">Your statistics could not be loaded.</p>
            <p className="mt-1 text-sm">{statistics.error.message}</p>
            <Button variant="secondary" className="mt-4" onClick={() => void statistics.refetch()}>
              <RotateCw className="size-4" aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : statistics.data.quizzesAttempted === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-700">
            <ChartPie className="mx-auto size-10 text-slate-500" aria-hidden="true" />
            <p className="mt-3 font-semibold text-slate-900">No quizzes attempted yet</p>
            <p className="mt-1 text-sm">Take some quizzes to see your analytics here.</p>
          </div>
        ) : (
          <Analytics statistics={statistics.data} />
        )}
      </div>
    </div>
  );
}

function Analytics({ statistics }: { statistics: StudentStatistics }) {
  const facts: [string, string][] = [
    ['Average score', twoDecimals(statistics.averageScore)],
    ['Average accuracy', `${formatAccuracy(statistics.averageAccuracy)}%`],
    ['Quizzes attempted', String(statistics.quizzesAttempted)],
  ];
  return (
    <>
      <dl className="grid grid-cols-3 gap-2 sm:gap-4">
        {facts.map(([label, value]) => (
          <div
            key={label}
            className="flex min-w-0 flex-col justify-between rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-5"
          >
            <dt className="text-xs font-medium text-slate-700 sm:text-sm">{label}</dt>
            <dd
              className="mt-1 text-xl font-bold tabular-nums text-slate-900 sm:text-3xl"
              data-testid={`statistic-${label}`}
            >
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="subject-performance" className="mt-8">
        <h2 id="subject-performance" className="text-xl font-bold text-slate-900">
          Performance by Subject
        </h2>
        <p className="mt-1 text-sm text-slate-700">
          Each slice is a subject, sized by your average accuracy in it. Point at a slice for its numbers; the table
          below lists them all.
        </p>
        <SubjectPie subjects={statistics.subjects} />
        <SubjectTable subjects={statistics.subjects} />
      </section>
    </>
  );
}

function SubjectTooltip({ active, payload }: TooltipContentProps<TooltipValueType, string | number>) {
  const subject = active ? (payload?.[0]?.payload as SubjectStatistics | undefined) : undefined;
  if (!subject) return null;
  const lines: [string, string][] = [
    ['Average accuracy', `${twoDecimals(subject.averageAccuracy)}%`],
    ['Average score', twoDecimals(subject.averageScore)],
    ['Tests attempted', String(subject.testsAttempted)],
    ['Average time', `${twoDecimals(subject.averageTimeMinutes)} min`],
  ];
  return (
    <div data-testid="subject-tooltip" className="rounded-lg bg-slate-900 px-3 py-2 text-sm text-white shadow-lg">
      <p className="font-semibold">{subject.subject}</p>
      <dl className="mt-1 grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5">
        {lines.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-200">{label}</dt>
            <dd className="text-right tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function SliceShape(props: PieSectorShapeProps) {
  const subject = props.payload as SubjectStatistics | undefined;
  return (
    <Sector
      {...props}
      fill={colourOf(props.index)}
      stroke="#ffffff"
      strokeWidth={2}
      data-testid="subject-slice"
      data-subject={subject?.subject}
    />
  );
}

/** The 300×300 pie (SPEC §9) with its legend; slices sized by average accuracy. */
function SubjectPie({ subjects }: { subjects: SubjectStatistics[] }) {
  const hasSlices = subjects.some((subject) => subject.averageAccuracy > 0);
  const prefersReducedMotion =
    typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  const summary = subjects
    .map((subject) => `${subject.subject} ${formatAccuracy(subject.averageAccuracy)}%`)
    .join(', ');
  return (
    <figure className="mt-4 flex flex-col items-center gap-6 rounded-xl border border-slate-200 bg-white py-5 shadow-sm sm:flex-row sm:justify-center sm:px-6">
      {/* On a phone the card is a little narrower than the pie: it may use the card's padding. */}
      <div className="-mx-3 flex w-[calc(100%+1.5rem)] justify-center sm:mx-0 sm:w-auto">
        {hasSlices ? (
          <div role="img" aria-label={`Pie chart of average accuracy by subject: ${summary}`}>
            <PieChart width={PIE_SIZE_PX} height={PIE_SIZE_PX} accessibilityLayer={false}>
              <Pie
                data={subjects}
                dataKey="averageAccuracy"
                nameKey="subject"
                outerRadius={PIE_SIZE_PX / 2 - 10}
                isAnimationActive={!prefersReducedMotion}
                animationDuration={600}
                shape={SliceShape}
              />
              <Tooltip content={SubjectTooltip} isAnimationActive={false} />
            </PieChart>
          </div>
        ) : (
          <p className="flex size-[300px] items-center justify-center rounded-full bg-slate-100 p-10 text-center text-sm text-slate-700">
            Every subject is at 0% accuracy so far, so the pie has no slices yet.
          </p>
        )}
      </div>
      <figcaption className="px-5 sm:px-0">
        <span className="sr-only">Legend: </span>
        <ul className="flex flex-col gap-2 text-sm text-slate-800">
          {subjects.map((subject, index) => (
            <li key={subject.subject} className="flex items-center gap-2">
              <span
                className="inline-block size-3.5 shrink-0 rounded-sm"
                style={{ backgroundColor: colourOf(index) }}
                aria-hidden="true"
              />
              <span className="wrap-anywhere">{subject.subject}</span>
              <span className="ml-auto pl-4 tabular-nums text-slate-700">
                {formatAccuracy(subject.averageAccuracy)}%
              </span>
            </li>
          ))}
        </ul>
      </figcaption>
    </figure>
  );
}

/** The chart's numbers as text, for everyone and for screen readers. */
function SubjectTable({ subjects }: { subjects: SubjectStatistics[] }) {
  const header = 'px-3 py-3 text-xs font-semibold tracking-wide text-slate-700 uppercase';
  const cell = 'px-3 py-3 tabular-nums text-right text-slate-800';
  return (
    <div
      role="region"
      aria-label="Subject details"
      tabIndex={0}
      className="mt-6 overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
    >
      <table className="w-full min-w-[34rem] text-sm">
        <caption className="px-3 pt-3 text-left text-base font-semibold text-slate-900">Subject details</caption>
        <thead className="border-b border-slate-200">
          <tr>
            <th scope="col" className={`${header} text-left`}>
              Subject
            </th>
            <th scope="col" className={`${header} text-right`}>
              Avg. accuracy
            </th>
            <th scope="col" className={`${header} text-right`}>
              Avg. score
            </th>
            <th scope="col" className={`${header} text-right`}>
              Tests attempted
            </th>
            <th scope="col" className={`${header} text-right`}>
              Avg. time (min)
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {subjects.map((subject) => (
            <tr key={subject.subject}>
              <th scope="row" className="min-w-32 px-3 py-3 text-left font-semibold wrap-break-word text-slate-900">
                {subject.subject}
              </th>
              <td className={cell}>{twoDecimals(subject.averageAccuracy)}%</td>
              <td className={cell}>{twoDecimals(subject.averageScore)}</td>
              <td className={cell}>{subject.testsAttempted}</td>
              <td className={cell}>{twoDecimals(subject.averageTimeMinutes)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
