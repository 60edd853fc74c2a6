import { CircleAlert, CircleCheck, CircleX, Medal, Star, type LucideIcon } from 'lucide-react';
import { FIELD_LIMITS } from '#shared/limits';
import {
  accuracyBand,
  isHighlightedRank,
  isStarredRank,
  LEADERBOARD,
  type AccuracyBand,
  type LeaderboardEntry,
} from '#shared/progress';
import { formatAccuracy } from '#shared/accuracy';
import { LoadingStatus, Spinner } from '../../components/ui/spinner.tsx';
import { cn } from '../../lib/cn.ts';
import { formatPercent, plural } from '../../lib/format.ts';
import { SearchField } from '../../components/ui/filter-fields.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import type { PagedList } from '../../lib/paged-list.ts';
import { useUrlFilters, type TextInput } from '../../lib/url-filters.ts';
import { FETCH_FAILED_MESSAGE, LEADERBOARD_FILTERS } from './leaderboard-queries.ts';

/**
 * The leaderboard's filters, kept in the address so a reload keeps them. The search box's
 * text reaches the address (and the server) once typing pauses.
 */
export const useLeaderboardFilters = () => useUrlFilters(LEADERBOARD_FILTERS, { text: ['search'] });

/** The search box of both leaderboards. */
export const LeaderboardSearchField = (input: TextInput) => (
  <SearchField label="Search by name" maxLength={FIELD_LIMITS.name} placeholder="Student name" {...input} />
);

const BANDS: Record<AccuracyBand, { label: string; icon: LucideIcon; classes: string }> = {
  good: {
    label: `≥ ${LEADERBOARD.accuracyGoodMin}%`,
    icon: CircleCheck,
    classes: 'bg-success-soft text-success ring-1 ring-success/30 ring-inset',
  },
  fair: {
    label: `≥ ${LEADERBOARD.accuracyFairMin}%`,
    icon: CircleAlert,
    classes: 'bg-warning-soft text-warning ring-1 ring-warning/30 ring-inset',
  },
  poor: {
    label: `< ${LEADERBOARD.accuracyFairMin}%`,
    icon: CircleX,
    classes: 'bg-danger-soft text-danger-strong ring-1 ring-danger/30 ring-inset',
  },
};

/**
 * Accuracy coloured green / yellow / red (SPEC §2) through the status tokens (the ring keeps a
 * chip visible on a highlighted row's fill), with a shape per band so colour is not the only cue.
 */
function AccuracyBadge({ accuracy }: { accuracy: number }) {
  const band = accuracyBand(accuracy);
  const { icon: Icon, classes } = BANDS[band];
  return (
    <span
      data-band={band}
      className={`inline-flex items-center gap-1 rounded-full px-1.5 py-0.5 font-semibold whitespace-nowrap tabular-nums sm:px-2 ${classes}`}
    >
      <Icon className="size-3.5 shrink-0" aria-hidden="true" />
      {formatPercent(accuracy)}
    </span>
  );
}

/** What the colours and shapes mean, shown above the table. */
function AccuracyLegend({ showStars }: { showStars: boolean }) {
  return (
    <ul aria-label="Legend" className="flex flex-wrap items-center gap-x-3 gap-y-2 text-xs text-muted">
      <li>Accuracy:</li>
      {(Object.keys(BANDS) as AccuracyBand[]).map((band) => {
        const { label, icon: Icon, classes } = BANDS[band];
        return (
          <li key={band} className="inline-flex items-center gap-1">
            <span className={`inline-flex rounded-full p-0.5 ${classes}`}>
              <Icon className="size-3.5" aria-hidden="true" />
            </span>
            {label}
          </li>
        );
      })}
      <li className="inline-flex items-center gap-1.5">
        <Medal className="size-4 text-amber-700" aria-hidden="true" />
        Top {LEADERBOARD.highlightedTop}
      </li>
      {showStars ? (
        <li className="inline-flex items-center gap-1.5">
          <Star className={cn('size-4', STAR)} aria-hidden="true" />
          Rank under {LEADERBOARD.teacherStarBelowRank}
        </li>
      ) : null}
    </ul>
  );
}

/**
 * Medals of ranks 1, 2 and 3; the sr-only text names them, the colour is a second cue. Gold,
 * silver and bronze are what the medal is, not theme colours (decision 027), so they stay raw.
 */
const MEDALS = [
  { name: 'gold', className: 'text-amber-600' },
  { name: 'silver', className: 'text-slate-500' },
  { name: 'bronze', className: 'text-orange-800' },
] as const;

/** A star is drawn gold, as stars are: a picture's colour, not a theme colour (decision 027). */
const STAR = 'fill-amber-400 text-amber-700';

const HEADER_CELL =
  'px-2 py-3 text-left text-xs font-semibold tracking-wide text-muted uppercase first:pl-3 last:pr-3 sm:px-3';
const CELL = 'px-2 py-3 align-middle first:pl-3 last:pr-3 sm:px-3';
/** Columns a phone leaves out (the average score moves under the name). */
const WIDE_ONLY = 'hidden sm:table-cell';

function LeaderboardRow({
  entry,
  showClass,
  showStars,
}: {
  entry: LeaderboardEntry;
  showClass: boolean;
  showStars: boolean;
}) {
  const isHighlighted = isHighlightedRank(entry.rank);
  const isStarred = showStars && isStarredRank(entry.rank);
  // Equal averages share a rank (1, 1, 3), so they share a medal too.
  const medal = isHighlighted ? MEDALS[entry.rank - 1] : undefined;
  return (
    <tr
      data-testid="leaderboard-row"
      data-rank={entry.rank}
      data-highlighted={isHighlighted}
      data-starred={isStarred}
      data-medal={medal?.name}
      className={
        isHighlighted ? 'bg-accent-50 shadow-[inset_4px_0_0_var(--color-accent-500)]' : 'hover:bg-surface-sunken'
      }
    >
      <td className={`${CELL} whitespace-nowrap`}>
        <span className="inline-flex items-center gap-1 font-semibold text-fg tabular-nums">
          {medal ? <Medal className={cn('size-4 shrink-0', medal.className)} aria-hidden="true" /> : null}
          {entry.rank}
          {isStarred ? <Star className={cn('size-4 shrink-0', STAR)} aria-hidden="true" /> : null}
        </span>
        {isHighlighted || isStarred ? (
          <span className="sr-only">
            {[medal ? `${medal.name} medal, top ${LEADERBOARD.highlightedTop}` : '', isStarred ? 'starred' : '']
              .filter(Boolean)
              .join(', ')}
          </span>
        ) : null}
      </td>
      <th scope="row" className={`${CELL} text-left font-semibold wrap-break-word text-fg`}>
        <span data-testid="leaderboard-name">{entry.name}</span>
        {showClass ? (
          <span className="block text-xs font-normal text-muted">
            <span className="sr-only">Class </span>
            {entry.class}
          </span>
        ) : null}
        <span className="block text-xs font-normal text-muted sm:hidden">
          Avg. score <span className="tabular-nums">{formatAccuracy(entry.averageScore)}</span>
        </span>
      </th>
      <td className={`${CELL} ${WIDE_ONLY} text-right text-fg tabular-nums`}>{formatAccuracy(entry.averageScore)}</td>
      <td className={`${CELL} text-right`}>
        <AccuracyBadge accuracy={entry.averageAccuracy} />
      </td>
      <td className={`${CELL} ${WIDE_ONLY} text-right text-fg tabular-nums`}>{formatAccuracy(entry.totalScore)}</td>
      <td className={`${CELL} ${WIDE_ONLY} text-right text-fg tabular-nums`}>{entry.quizzesAttempted}</td>
    </tr>
  );
}

/** The ranking: one row per ranked student, best average first, as the server ordered it. */
export function LeaderboardTable({
  entries,
  caption,
  showClass,
  showStars,
}: {
  entries: LeaderboardEntry[];
  caption: string;
  showClass: boolean;
  showStars: boolean;
}) {
  return (
    <div className={cn(cardVariants(), 'overflow-hidden')}>
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-line bg-surface-sunken">
          <tr>
            <th scope="col" className={`${HEADER_CELL} w-14 sm:w-20`}>
              Rank
            </th>
            <th scope="col" className={HEADER_CELL}>
              {showClass ? 'Student, class' : 'Student'}
            </th>
            <th scope="col" className={`${HEADER_CELL} ${WIDE_ONLY} text-right`}>
              Avg. score
            </th>
            <th scope="col" className={`${HEADER_CELL} text-right`}>
              Accuracy
            </th>
            <th scope="col" className={`${HEADER_CELL} ${WIDE_ONLY} text-right`}>
              Total score
            </th>
            <th scope="col" className={`${HEADER_CELL} ${WIDE_ONLY} text-right`}>
              Quizzes
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {entries.map((entry) => (
            <LeaderboardRow key={entry._id} entry={entry} showClass={showClass} showStars={showStars} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Everything under the filters: loading, the failure with a retry, the empty
 * state ('No students found'), the table and Load more.
 */
export function LeaderboardResults({
  board,
  caption,
  isFiltered,
  showClass,
  showStars,
}: {
  board: PagedList<LeaderboardEntry>;
  caption: string;
  isFiltered: boolean;
  showClass: boolean;
  showStars: boolean;
}) {
  if (board.isPending) return <LoadingStatus>Loading the leaderboard…</LoadingStatus>;
  if (board.isError && board.items.length === 0) {
    return (
      <LoadFailure title={FETCH_FAILED_MESSAGE} message={board.error.message} onRetry={() => void board.refetch()} />
    );
  }
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-x-6 gap-y-2">
        <p role="status" className="flex min-h-6 items-center gap-2 text-sm text-muted">
          {board.isPlaceholderData ? (
            <>
              <Spinner className="size-4" /> Searching…
            </>
          ) : board.items.length === 0 ? null : (
            `${plural(board.items.length, 'student')} shown${board.hasNextPage ? '; more below' : ''}`
          )}
        </p>
        {board.items.length > 0 ? <AccuracyLegend showStars={showStars} /> : null}
      </div>
      {board.items.length === 0 ? (
        <EmptyState
          title="No students found"
          hint={isFiltered ? 'Try another search or class.' : 'Students appear here once they have attempted a quiz.'}
        />
      ) : (
        <LeaderboardTable entries={board.items} caption={caption} showClass={showClass} showStars={showStars} />
      )}
      <LoadMoreButton list={board} />
    </>
  );
}
