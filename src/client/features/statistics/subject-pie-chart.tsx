import { Trans, useLingui } from '@lingui/react/macro';
import {
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type PointerEvent as ReactPointerEvent,
  type Ref,
} from 'react';
import { TOOLTIP } from '#shared/constants';
import type { SubjectStatistics } from '#shared/progress';
import {
  arcPath,
  isEmptySlice,
  isFullCircle,
  layOutPie,
  placeTooltip,
  sectorPath,
  sliceAnchor,
  type PieSlice,
  type Point,
} from './pie-geometry.ts';
import { formatList, formatNumber, formatPercent } from '../../lib/format.ts';
import { colourOf, minutesTwoDecimals, PIE_SIZE_PX, twoDecimals } from './statistics-display.ts';
import { cardVariants } from '../../components/ui/card.tsx';
import { cn } from '../../lib/cn.ts';

const CENTRE = { x: PIE_SIZE_PX / 2, y: PIE_SIZE_PX / 2 };
/**
 * The pie leaves 16 px of its 300 for the ring that marks the slice whose details show (4 px
 * away, 5 px wide), and 7 px more: on a 390 px phone the card is a few px narrower than 300.
 */
const RADIUS = PIE_SIZE_PX / 2 - 16;
const RING_WIDTH = 5;
const RING_RADIUS = RADIUS + 4 + RING_WIDTH / 2;

/**
 * Whose details show, and what they point at: the pointer over a slice (mouse or a tap), or
 * the slice itself when its legend entry has the keyboard focus or the mouse.
 */
type Details = { index: number; source: 'pointer' | 'touch' | 'legend'; isOpen: boolean };

const sliceIndexOf = (target: EventTarget | null) => {
  const slice = target instanceof Element ? target.closest('[data-slice-index]') : null;
  return slice ? Number(slice.getAttribute('data-slice-index')) : null;
};

/**
 * "Performance by Subject" (SPEC §9): a 300×300 SVG pie, one slice per subject sized by its
 * average accuracy, with a legend. Hovering or tapping a slice, or focusing or hovering its
 * legend entry, shows the subject's numbers; Escape hides them. Screen readers get the
 * subjects and accuracies as the chart's name and in the legend; the page's table has
 * every number. No chart library: this is the whole chart, so nothing loads after the page.
 */
export function SubjectPieChart({ subjects }: { subjects: SubjectStatistics[] }) {
  const slices = useMemo(() => layOutPie(subjects.map((subject) => subject.averageAccuracy)), [subjects]);
  const hasSlices = slices.some((slice) => !isEmptySlice(slice));
  const [details, setDetails] = useState<Details | null>(null);
  const { t } = useLingui();
  const tooltipId = useId();
  const figureRef = useRef<HTMLElement>(null);
  const pieRef = useRef<HTMLDivElement>(null);
  const tooltipRef = useRef<HTMLDivElement>(null);
  /** Where the pointer is, in client coordinates: it moves without a render. */
  const pointerRef = useRef<Point>({ x: 0, y: 0 });

  const positionTooltip = useCallback(() => {
    const [figure, pie, tooltip] = [figureRef.current, pieRef.current, tooltipRef.current];
    const slice = details ? slices[details.index] : undefined;
    if (!details || !slice || !figure || !pie || !tooltip) return;
    const figureBox = figure.getBoundingClientRect();
    const pieBox = pie.getBoundingClientRect();
    const size = { width: tooltip.offsetWidth, height: tooltip.offsetHeight };
    let position: Point;
    if (details.source === 'legend') {
      // Next to the slice and inside the pie: never over the legend entry that has the focus.
      const anchor = sliceAnchor(slice, CENTRE, RADIUS);
      const pieLeft = pieBox.left - figureBox.left;
      const pieTop = pieBox.top - figureBox.top;
      position = placeTooltip(
        { x: pieLeft + anchor.x, y: pieTop + anchor.y },
        size,
        { left: pieLeft, top: pieTop, width: pieBox.width, height: pieBox.height },
        TOOLTIP.offsetPx,
      );
    } else {
      const anchor = { x: pointerRef.current.x - figureBox.left, y: pointerRef.current.y - figureBox.top };
      const bounds = { left: 0, top: 0, width: figureBox.width, height: figureBox.height };
      position = placeTooltip(anchor, size, bounds, TOOLTIP.offsetPx);
    }
    tooltip.style.left = `${position.x}px`;
    tooltip.style.top = `${position.y}px`;
  }, [details, slices]);

  // Before the paint: the tooltip never shows where it was for the previous subject.
  useLayoutEffect(() => positionTooltip(), [positionTooltip]);

  const isOpen = details?.isOpen === true;
  const source = details?.source;
  const close = useCallback(() => setDetails((shown) => (shown?.isOpen ? { ...shown, isOpen: false } : shown)), []);
  const open = (index: number, from: Details['source']) => setDetails({ index, source: from, isOpen: true });

  // Escape dismisses the details wherever the focus is (WCAG 1.4.13); a tap elsewhere does after a tap.
  useEffect(() => {
    if (!isOpen) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (source === 'touch' && sliceIndexOf(event.target) === null) close();
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [isOpen, source, close]);

  const showAtPointer = (index: number | null, event: ReactPointerEvent, from: 'pointer' | 'touch') => {
    pointerRef.current = { x: event.clientX, y: event.clientY };
    if (index === null) close();
    else if (details?.isOpen && details.index === index && details.source === from) positionTooltip();
    else open(index, from);
  };

  const summary = formatList(
    subjects.map(({ subject, averageAccuracy }) => `${subject} ${formatPercent(averageAccuracy)}`),
  );
  const zeroPercent = formatPercent(0);
  // Subjects can change under open details (a refetch): an index past the end shows nothing.
  const shown = details ? subjects[details.index] : undefined;
  const activeSlice = isOpen ? slices[details.index] : undefined;

  return (
    <figure
      ref={figureRef}
      className={cn(
        cardVariants(),
        'relative mt-4 flex flex-col items-center gap-6 py-5 sm:flex-row sm:justify-center sm:px-6',
      )}
    >
      {/* On a phone the card is a little narrower than the pie: it may use the card's padding. */}
      <div className="-mx-3 flex w-[calc(100%+1.5rem)] justify-center sm:mx-0 sm:w-auto">
        <div ref={pieRef} className="size-[300px] shrink-0">
          {hasSlices ? (
            <svg
              data-testid="subject-pie"
              width={PIE_SIZE_PX}
              height={PIE_SIZE_PX}
              viewBox={`0 0 ${PIE_SIZE_PX} ${PIE_SIZE_PX}`}
              role="img"
              aria-label={t`Pie chart of average accuracy by subject: ${summary}`}
              className="block"
              onPointerMove={(event) => {
                if (event.pointerType !== 'touch') showAtPointer(sliceIndexOf(event.target), event, 'pointer');
              }}
              onPointerLeave={(event) => {
                if (event.pointerType !== 'touch') close();
              }}
              onPointerDown={(event) => {
                if (event.pointerType === 'touch') showAtPointer(sliceIndexOf(event.target), event, 'touch');
              }}
            >
              {slices.map((slice) => (
                <Slice key={slice.index} slice={slice} subject={subjects[slice.index]!.subject} />
              ))}
              {activeSlice && !isEmptySlice(activeSlice) ? <ActiveRing slice={activeSlice} /> : null}
            </svg>
          ) : (
            <p className="flex size-full items-center justify-center rounded-full bg-surface-muted p-10 text-center text-sm text-muted">
              {t`Every subject is at ${zeroPercent} accuracy so far, so the pie has no slices yet.`}
            </p>
          )}
        </div>
      </div>
      <figcaption className="px-5 sm:px-0">
        <span className="sr-only">
          <Trans>Legend:</Trans>{' '}
        </span>
        <ul className="flex flex-col gap-1 text-sm text-fg">
          {subjects.map((subject, index) => (
            <li
              key={subject.subject}
              // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- the focus shows the subject's figures (aria-describedby), as hovering does
              tabIndex={0}
              data-testid="subject-legend-entry"
              data-subject={subject.subject}
              aria-describedby={isOpen && details.index === index ? tooltipId : undefined}
              className={`flex cursor-default items-center gap-2 rounded-md px-2 py-1 ${
                isOpen && details.index === index ? 'bg-surface-muted' : ''
              }`}
              onFocus={() => open(index, 'legend')}
              onBlur={close}
              onPointerEnter={(event) => {
                if (event.pointerType !== 'touch') open(index, 'legend');
              }}
              onPointerLeave={(event) => {
                if (event.pointerType !== 'touch' && document.activeElement !== event.currentTarget) close();
              }}
            >
              <span
                className="inline-block size-3.5 shrink-0 rounded-sm"
                style={{ backgroundColor: colourOf(index) }}
                aria-hidden="true"
              />
              <span className="wrap-anywhere">{subject.subject}</span>
              <span className="ms-auto ps-4 text-muted tabular-nums">{formatPercent(subject.averageAccuracy)}</span>
            </li>
          ))}
        </ul>
      </figcaption>
      {shown ? <SubjectTooltip ref={tooltipRef} id={tooltipId} subject={shown} isOpen={isOpen} /> : null}
    </figure>
  );
}

function Slice({ slice, subject }: { slice: PieSlice; subject: string }) {
  if (isEmptySlice(slice)) return null;
  const common = {
    'data-testid': 'subject-slice',
    'data-subject': subject,
    'data-slice-index': slice.index,
    fill: colourOf(slice.index),
  };
  // The only slice is a circle: no edge from the centre, so no white seam across it.
  if (isFullCircle(slice)) return <circle {...common} cx={CENTRE.x} cy={CENTRE.y} r={RADIUS} />;
  return (
    <path {...common} d={sectorPath(slice, CENTRE, RADIUS)} stroke="#ffffff" strokeWidth={2} strokeLinejoin="round" />
  );
}

/** A band just outside the pie along the slice whose details show. */
function ActiveRing({ slice }: { slice: PieSlice }) {
  const common = {
    'data-testid': 'active-slice-ring',
    fill: 'none',
    stroke: colourOf(slice.index),
    strokeWidth: RING_WIDTH,
    pointerEvents: 'none',
  };
  return isFullCircle(slice) ? (
    <circle {...common} cx={CENTRE.x} cy={CENTRE.y} r={RING_RADIUS} />
  ) : (
    <path {...common} d={arcPath(slice, CENTRE, RING_RADIUS)} />
  );
}

/**
 * The subject's numbers (SPEC §9: subject, average accuracy, score, tests attempted, time, to 2
 * decimals). It stays mounted while it fades out (the house .tooltip: 200 ms in, 500 ms out);
 * hidden from screen readers then.
 */
function SubjectTooltip({
  ref,
  id,
  subject,
  isOpen,
}: {
  ref: Ref<HTMLDivElement>;
  id: string;
  subject: SubjectStatistics;
  isOpen: boolean;
}) {
  const { t } = useLingui();
  const lines: [string, string][] = [
    [t`Average accuracy`, formatPercent(subject.averageAccuracy)],
    [t`Average score`, twoDecimals(subject.averageScore)],
    [t`Tests attempted`, formatNumber(subject.testsAttempted)],
    [t`Average time`, minutesTwoDecimals(subject.averageTimeMinutes)],
  ];
  return (
    <div
      ref={ref}
      id={id}
      role="tooltip"
      data-testid="subject-tooltip"
      data-open={isOpen}
      aria-hidden={!isOpen}
      // top-0 left-0 and not start-0: the tooltip is placed with style.left/top, measured from the
      // chart's left edge (the chart keeps its geometry in a right-to-left page).
      // eslint-disable-next-line local/logical-direction -- placed by measured coordinates
      className="tooltip pointer-events-none absolute top-0 left-0 z-10 w-max max-w-56 rounded-lg bg-surface-inverse px-3 py-2 text-sm text-white shadow-lg"
    >
      <p className="font-semibold wrap-anywhere">{subject.subject}</p>
      <dl className="mt-1 grid grid-cols-[auto_auto] gap-x-3 gap-y-0.5">
        {lines.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-fg-inverse-muted">{label}</dt>
            <dd className="text-end tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
