import { msg, plural, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
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
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { SearchField } from '../../components/ui/filter-fields.tsx';
import { LoadMoreButton } from '../../components/ui/load-more-button.tsx';
import { EmptyState, LoadFailure } from '../../components/ui/status-cards.tsx';
import { cardVariants } from '../../components/ui/card.tsx';
import type { PagedList } from '../../lib/paged-list.ts';
import { useUrlFilters, type TextInput } from '../../lib/url-filters.ts';
import { fetchFailedMessage, LEADERBOARD_FILTERS } from './leaderboard-queries.ts';

/**
 * The leaderboard's filters, kept in the address so a reload keeps them. The search box's
 * text reaches the address (and the server) once typing pauses.
 */
export const useLeaderboardFilters = () => useUrlFilters(LEADERBOARD_FILTERS, { text: ['search'] });

/** The search box of both leaderboards. */
export function LeaderboardSearchField(input: TextInput) {
  const { t } = useLingui();
  return (
    <SearchField label={t`Search by name`} maxLength={FIELD_LIMITS.name} placeholder={t`Student name`} {...input} />
  );
}

/**
 * Each band's threshold, e.g. "≥ 80%", in the locale's digits and percent sign (a render's): one
 * message each, so a right-to-left language orders the sign and the number (or words it) itself.
 */
const atLeast = (min: number) => {
  const percent = formatPercent(min);
  return t({ comment: 'An accuracy band of the leaderboard: this percentage or more', message: `≥ ${percent}` });
};
const below = (max: number) => {
  const percent = formatPercent(max);
  return t({ comment: 'An accuracy band of the leaderboard: under this percentage', message: `< ${percent}` });
};
const BANDS: Record<AccuracyBand, { label: () => string; icon: LucideIcon; classes: string }> = {
  good: {
    label: () => atLeast(LEADERBOARD.accuracyGoodMin),
    icon: CircleCheck,
    classes: 'bg-success-soft text-success ring-1 ring-success/30 ring-inset',
  },
  fair: {
    label: () => atLeast(LEADERBOARD.accuracyFairMin),
    icon: CircleAlert,
    classes: 'bg-warning-soft text-warning ring-1 ring-warning/30 ring-inset',
  },
  poor: {
    label: () => below(LEADERBOARD.accuracyFairMin),
    icon: CircleX,
    classes: 'bg-danger-soft text-danger-strong ring-1 ring-danger/30 ring-inset',
  },
};

/** A score or total as the table shows it (a whole number, or two decimals), in the locale's digits. */
const formatPoints = (value: number) => formatNumber(Number(formatAccuracy(value)), { maximumFractionDigits: 2 });

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
  const { t } = useLingui();
  const top = LEADERBOARD.highlightedTop;
  const starBelow = LEADERBOARD.teacherStarBelowRank;
  return (
    <ul aria-label={t`Legend`} className="flex flex-wrap items-center gap-x-3 gap-y-2 text-xs text-muted">
      <li>
        <Trans>Accuracy:</Trans>
      </li>
      {(Object.keys(BANDS) as AccuracyBand[]).map((band) => {
        const { label, icon: Icon, classes } = BANDS[band];
        return (
          <li key={band} className="inline-flex items-center gap-1">
            <span className={`inline-flex rounded-full p-0.5 ${classes}`}>
              <Icon className="size-3.5" aria-hidden="true" />
            </span>
            <span>{label()}</span>
          </li>
        );
      })}
      <li className="inline-flex items-center gap-1.5">
        <Medal className="size-4 text-amber-700" aria-hidden="true" />
        <Trans>Top {top}</Trans>
      </li>
      {showStars ? (
        <li className="inline-flex items-center gap-1.5">
          <Star className={cn('size-4', STAR)} aria-hidden="true" />
          <Trans>Rank under {starBelow}</Trans>
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
  { name: 'gold', label: msg`gold medal`, className: 'text-amber-600' },
  { name: 'silver', label: msg`silver medal`, className: 'text-slate-500' },
  { name: 'bronze', label: msg`bronze medal`, className: 'text-orange-800' },
] as const;

/** A star is drawn gold, as stars are: a picture's colour, not a theme colour (decision 027). */
const STAR = 'fill-amber-400 text-amber-700';

const HEADER_CELL =
  'px-2 py-3 text-start text-xs font-semibold tracking-wide text-muted uppercase first:ps-3 last:pe-3 sm:px-3';
const CELL = 'px-2 py-3 align-middle first:ps-3 last:pe-3 sm:px-3';
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
  const { t, i18n } = useLingui();
  const top = LEADERBOARD.highlightedTop;
  const medalName = medal ? i18n._(medal.label) : '';
  const rankNote = medal
    ? isStarred
      ? t`${medalName}, top ${top}, starred`
      : t`${medalName}, top ${top}`
    : isStarred
      ? t`starred`
      : '';
  const averageScore = formatPoints(entry.averageScore);
  return (
    <tr
      data-testid="leaderboard-row"
      data-rank={entry.rank}
      data-highlighted={isHighlighted}
      data-starred={isStarred}
      data-medal={medal?.name}
      className={
        isHighlighted
          ? // The stripe on the row's start side: the left, the right in a right-to-left page.
            'bg-accent-50 shadow-[inset_4px_0_0_var(--color-accent-500)] rtl:shadow-[inset_-4px_0_0_var(--color-accent-500)]'
          : 'hover:bg-surface-sunken'
      }
    >
      <td className={`${CELL} whitespace-nowrap`}>
        <span className="inline-flex items-center gap-1 font-semibold text-fg tabular-nums">
          {medal ? <Medal className={cn('size-4 shrink-0', medal.className)} aria-hidden="true" /> : null}
          {formatNumber(entry.rank)}
          {isStarred ? <Star className={cn('size-4 shrink-0', STAR)} aria-hidden="true" /> : null}
        </span>
        {rankNote ? <span className="sr-only">{rankNote}</span> : null}
      </td>
      <th scope="row" className={`${CELL} text-start font-semibold wrap-break-word text-fg`}>
        <span data-testid="leaderboard-name">{entry.name}</span>
        {showClass ? (
          <span className="block text-xs font-normal text-muted">
            <span className="sr-only">
              <Trans>Class</Trans>{' '}
            </span>
            {entry.class}
          </span>
        ) : null}
        <span className="block text-xs font-normal text-muted sm:hidden">
          <Trans>
            Avg. score <span className="tabular-nums">{averageScore}</span>
          </Trans>
        </span>
      </th>
      <td className={`${CELL} ${WIDE_ONLY} text-end text-fg tabular-nums`}>{averageScore}</td>
      <td className={`${CELL} text-end`}>
        <AccuracyBadge accuracy={entry.averageAccuracy} />
      </td>
      <td className={`${CELL} ${WIDE_ONLY} text-end text-fg tabular-nums`}>{formatPoints(entry.totalScore)}</td>
      <td className={`${CELL} ${WIDE_ONLY} text-end text-fg tabular-nums`}>{formatNumber(entry.quizzesAttempted)}</td>
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
  const { t } = useLingui();
  return (
    <div className={cn(cardVariants(), 'overflow-hidden')}>
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="border-b border-line bg-surface-sunken">
          <tr>
            <th scope="col" className={`${HEADER_CELL} w-14 sm:w-20`}>
              <Trans>Rank</Trans>
            </th>
            <th scope="col" className={HEADER_CELL}>
              {showClass ? t`Student, class` : t`Student`}
            </th>
            <th scope="col" className={`${HEADER_CELL} ${WIDE_ONLY} text-end`}>
              <Trans>Avg. score</Trans>
            </th>
            <th scope="col" className={`${HEADER_CELL} text-end`}>
              <Trans>Accuracy</Trans>
            </th>
            <th scope="col" className={`${HEADER_CELL} ${WIDE_ONLY} text-end`}>
              <Trans>Total score</Trans>
            </th>
            <th scope="col" className={`${HEADER_CELL} ${WIDE_ONLY} text-end`}>
              <Trans>Quizzes</Trans>
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
  const { t } = useLingui();
  if (board.isPending) return <LoadingStatus>{t`Loading the leaderboard…`}</LoadingStatus>;
  if (board.isError && board.items.length === 0) {
    return (
      <LoadFailure title={fetchFailedMessage()} message={board.error.message} onRetry={() => void board.refetch()} />
    );
  }
  const count = board.items.length;
  return (
    <>
      <div className="mb-3 flex flex-wrap items-center justify-between gap-x-6 gap-y-2">
        <p role="status" className="flex min-h-6 items-center gap-2 text-sm text-muted">
          {board.isPlaceholderData ? (
            <>
              <Spinner className="size-4" /> <Trans>Searching…</Trans>
            </>
          ) : count === 0 ? null : board.hasNextPage ? (
            plural(count, { one: '# student shown; more below', other: '# students shown; more below' })
          ) : (
            plural(count, { one: '# student shown', other: '# students shown' })
          )}
        </p>
        {board.items.length > 0 ? <AccuracyLegend showStars={showStars} /> : null}
      </div>
      {board.items.length === 0 ? (
        <EmptyState
          title={t`No students found`}
          hint={isFiltered ? t`Try another search or class.` : t`Students appear here once they have attempted a quiz.`}
        />
      ) : (
        <LeaderboardTable entries={board.items} caption={caption} showClass={showClass} showStars={showStars} />
      )}
      <LoadMoreButton list={board} />
    </>
  );
}
