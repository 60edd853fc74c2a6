import {
  Pie,
  PieChart,
  Sector,
  Tooltip,
  type PieSectorShapeProps,
  type TooltipContentProps,
  type TooltipValueType,
} from 'recharts';
import type { SubjectStatistics } from '#shared/progress';
import { colourOf, PIE_SIZE_PX, twoDecimals } from './statistics-display.ts';

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

/**
 * The Recharts pie, slices sized by average accuracy. Recharts is most of this page's
 * JavaScript, so the page loads this module lazily, once there is something to chart.
 */
export function SubjectPieChart({ subjects }: { subjects: SubjectStatistics[] }) {
  const prefersReducedMotion =
    typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  return (
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
  );
}
